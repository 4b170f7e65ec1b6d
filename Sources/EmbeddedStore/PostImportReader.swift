import AnywallSupport
import Foundation
import WallDomain

/// A record of an import file that could not be used, and why.
public struct RejectedRecord: Equatable, Sendable {
    /// Where it is: `line N` for NDJSON, `record N` in a Parse export.
    public let position: String
    public let reason: String
}

/// Reads posts to import from a Parse export (`{"results":[...]}`, as the dashboard writes
/// it) or from NDJSON (one post object per line), in batches.
public final class PostImportReader {
    private enum Format {
        case ndjson
        case export([Result<ImportedPost, AnywallError>])
    }

    private let lines: LineReader
    private var format: Format?
    private var firstLine: Data?
    private var position = 0

    /// A reader of the records in `lines`; the format is recognised from the first line.
    public init(lines: LineReader) {
        self.lines = lines
    }

    /// Up to `size` records, sorted into usable posts and rejected records; both empty at the end.
    public func nextBatch(size: Int) throws -> (posts: [ImportedPost], rejected: [RejectedRecord]) {
        if format == nil { format = try detectFormat() }
        var posts: [ImportedPost] = []
        var rejected: [RejectedRecord] = []
        func sort(_ result: Result<ImportedPost, AnywallError>, at place: String) {
            switch result {
            case .success(let post): posts.append(post)
            case .failure(let error): rejected.append(RejectedRecord(position: place, reason: error.reason))
            }
        }
        switch format! {
        case .export(let records):
            while posts.count + rejected.count < size, position < records.count {
                position += 1
                sort(records[position - 1], at: "record \(position)")
            }
        case .ndjson:
            let decoder = JSONDecoder()
            while posts.count + rejected.count < size, let line = try takeFirstLine() ?? lines.nextLine() {
                position += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                sort(Self.attempt { try decoder.decode(ImportedPost.self, from: line) }, at: "line \(position)")
            }
        }
        return (posts, rejected)
    }

    private func takeFirstLine() -> Data? {
        defer { firstLine = nil }
        return firstLine
    }

    /// A Parse export is one object holding `results` (pretty-printed over many lines, or on one);
    /// anything else is read as NDJSON.
    private func detectFormat() throws -> Format {
        guard let first = try lines.nextLine() else { return .ndjson }
        let trimmed = first.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        let isOneRecord = (try? JSONSerialization.jsonObject(with: Data(trimmed)) as? [String: Any])
            .map { $0["results"] == nil } ?? false
        if trimmed.first != UInt8(ascii: "{") || isOneRecord {
            firstLine = first
            return .ndjson
        }
        var document = Data(first)
        while let line = try lines.nextLine() {
            document.append(0x0A)
            document.append(line)
        }
        struct Export: Decodable {
            struct Attempt: Decodable {
                let result: Result<ImportedPost, AnywallError>
                init(from decoder: Decoder) throws {
                    result = PostImportReader.attempt { try ImportedPost(from: decoder) }
                }
            }
            let results: [Attempt]
        }
        do {
            return .export(try JSONDecoder().decode(Export.self, from: document).results.map(\.result))
        } catch {
            throw AnywallError.inputRejected("not a Parse export or NDJSON: expected {\"results\":[...]} or one post object per line")
        }
    }

    fileprivate static func attempt(_ body: () throws -> ImportedPost) -> Result<ImportedPost, AnywallError> {
        do {
            return .success(try body())
        } catch let error as AnywallError {
            return .failure(error)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .failure(.inputRejected("bad \(field.isEmpty ? "record" : field): \(context.debugDescription)"))
        } catch {
            return .failure(.inputRejected("not a JSON object"))
        }
    }
}
