import AnywallSupport
import Dispatch
import Foundation
import WallDomain

/// A record of an import file that could not be used, and why.
public struct RejectedRecord: Equatable, Sendable {
    /// Where it is: `line N` for NDJSON, `record N` in a Parse export.
    public let position: String
    public let reason: String
}

/// The next records of an import file: the usable posts and the rejected records among them.
public struct ImportBatch: Sendable {
    public var posts: [ImportedPost] = []
    public var rejected: [RejectedRecord] = []
    /// The bytes of the input read when the batch was complete.
    public var bytesRead: Int64 = 0

    /// True at the end of the input.
    public var isEmpty: Bool { posts.isEmpty && rejected.isEmpty }
}

/// Reads posts to import from a Parse export (`{"results":[...]}`, as the dashboard writes
/// it) or from NDJSON (one post object per line), in batches.
public final class PostImportReader {
    private enum Format {
        case ndjson
        /// A Parse export, its records cut from the input as it is read.
        case export(ExportRecordStream)
    }

    /// The most bytes of records a batch of an export holds, whatever its count: records may be
    /// large, and memory stays bounded.
    private static let exportBatchBytes = 64 << 20

    private let lines: LineReader
    private var format: Format?
    private var position = 0

    /// A reader of the records in `lines`; the format is recognised from the first line.
    public init(lines: LineReader) {
        self.lines = lines
    }

    /// Whether the input was read as a Parse export (nil before the first batch).
    package var readsParseExport: Bool? {
        format.map { if case .export = $0 { true } else { false } }
    }

    /// The input's size when it is a regular file; nil for a pipe.
    public var inputSize: Int64? { lines.size }

    /// Up to `size` records, sorted into usable posts and rejected records; empty at the end.
    public func nextBatch(size: Int) throws -> ImportBatch {
        if format == nil { format = try detectFormat() }
        var batch = ImportBatch()
        batch.posts.reserveCapacity(size)
        func sort(_ result: Result<ImportedPost, AnywallError>, at place: @autoclosure () -> String) {
            switch result {
            case .success(let post): batch.posts.append(post)
            case .failure(let error): batch.rejected.append(RejectedRecord(position: place(), reason: error.reason))
            }
        }
        switch format! {
        case .export(let stream):
            let records = try stream.next(count: size, byteLimit: Self.exportBatchBytes)
            let first = position
            position += records.ranges.count
            let results: [Result<ImportedPost, AnywallError>]
            // simdjson parses the batch at once; when it refuses it (a record not valid JSON, a
            // number beyond a double), each record is read alone and the bad one rejected.
            if let parsed = ParsedExport(document: records.document), parsed.count == records.ranges.count {
                results = Self.decoded(parsed.count) { $0.post($1, of: parsed) }
            } else {
                let texts = records.ranges.map { records.document[$0] }
                results = Self.decoded(texts.count) { $0.post(texts[$1]) }
            }
            for (index, result) in zip(first..., results) { sort(result, at: "record \(index + 1)") }
        case .ndjson:
            var records: [(line: Int, text: Data)] = []
            while records.count < size, let line = try lines.nextLine() {
                position += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                records.append((position, line))
            }
            let texts = records.map(\.text)
            for (record, result) in zip(records, Self.decoded(texts.count, { $0.post(texts[$1]) })) { sort(result, at: "line \(record.line)") }
        }
        batch.bytesRead = lines.bytesRead
        return batch
    }

    /// Records 0 to `count - 1` decoded as posts by `record`, in order. Decoding is most of an
    /// import's work, so a large batch is cut in one part per processor, decoded side by side.
    private static func decoded(_ count: Int, _ record: @Sendable @escaping (ImportRecordDecoder, Int) -> Result<ImportedPost, AnywallError>)
        -> [Result<ImportedPost, AnywallError>] {
        let parts = count < 1_000 ? 1 : ProcessInfo.processInfo.activeProcessorCount
        let partSize = (count + parts - 1) / max(parts, 1)
        let results = DecodedParts()
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let decoder = ImportRecordDecoder()
            let range = min(part * partSize, count)..<min((part + 1) * partSize, count)
            results.set(part, range.map { record(decoder, $0) })
        }
        return results.joined(parts)
    }

    /// A Parse export is one object holding `results`: its first line is `{` alone (pretty-printed)
    /// or starts with the `"results"` key. Any other first line starts NDJSON, so a bad first record
    /// is reported on its line, as any other is, instead of failing the whole file as an export.
    private func detectFormat() throws -> Format {
        // Only the line's start is looked at: an export on one line may be any size.
        let first = try lines.peekLine(limit: 4096)
        // Spaces, tabs and a UTF-8 byte order mark.
        let ignored: Set<UInt8> = [0x20, 0x09, 0xEF, 0xBB, 0xBF]
        let trimmed = first.drop { ignored.contains($0) }
        let afterBrace = trimmed.dropFirst().drop { ignored.contains($0) }
        guard trimmed.first == UInt8(ascii: "{"), afterBrace.isEmpty || afterBrace.starts(with: #""results""#.utf8) else {
            return .ndjson
        }
        return .export(ExportRecordStream(input: lines))
    }
}

/// The parts of a batch decoded side by side, each kept under its number.
private final class DecodedParts: @unchecked Sendable {
    // Unchecked: `parts` is guarded by `lock`.
    private let lock = NSLock()
    private var parts: [Int: [Result<ImportedPost, AnywallError>]] = [:]

    func set(_ part: Int, _ results: [Result<ImportedPost, AnywallError>]) {
        lock.withLock { parts[part] = results }
    }

    /// Parts 0 to `count - 1`, one after the other.
    func joined(_ count: Int) -> [Result<ImportedPost, AnywallError>] {
        lock.withLock { (0..<count).flatMap { parts[$0] ?? [] } }
    }
}
