import CSimdjson
import Foundation
import WallDomain

/// Reads one import record as a post: simdjson reads a plain record's fields (some 25 times faster:
/// docs/performance.md), and Foundation's JSONDecoder reads every other record and says why one is rejected. The
/// Codable reader is the reference: the fast one gives the same post or leaves the record to it.
/// One per thread: each holds a parser and its buffers.
package final class ImportRecordDecoder {
    private let decoder = JSONDecoder()
    /// Nil when libsimdjson cannot be loaded or allocate its buffers: every record then goes the slow way.
    private let reader = csimdjson_reader_create()

    package init() {}

    deinit { csimdjson_reader_destroy(reader) }

    /// The post `record` holds, or why it cannot be one.
    package func post(_ record: Data) -> Result<ImportedPost, AnywallError> {
        if let post = plainPost(record) { return .success(post) }
        return Self.attempt { try decoder.decode(ImportedPost.self, from: record) }
    }

    /// The post record `index` of `export` holds, or why it cannot be one.
    package func post(_ index: Int, of export: ParsedExport) -> Result<ImportedPost, AnywallError> {
        if let fields = export.fields(at: index), let post = Self.post(fields) { return .success(post) }
        let record = export.json(at: index)
        return Self.attempt { try decoder.decode(ImportedPost.self, from: record) }
    }

    /// The post, when `record` is a plain one that passes every check; nil for the slow reader.
    package func plainPost(_ record: Data) -> ImportedPost? {
        guard let reader else { return nil }
        var fields = csimdjson_post()
        let read = record.withUnsafeBytes { bytes in
            csimdjson_read_post(reader, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, &fields)
        }
        return read == 1 ? Self.post(fields) : nil
    }

    /// The post a plain record's fields make, when they pass every check.
    private static func post(_ fields: csimdjson_post) -> ImportedPost? {
        guard let location = try? GeoPoint(latitude: fields.latitude, longitude: fields.longitude) else { return nil }
        let author: ImportedPost.Author?
        if fields.has_user == 1 {
            // As the Codable reader: a user naming neither an objectId nor a username names nobody.
            let user = ImportedPost.Author(objectId: string(fields.user_object_id), username: string(fields.user_username),
                                           name: string(fields.user_name))
            author = user.objectId == nil && user.username == nil ? nil : user
        } else {
            // As the Codable reader: an empty author names nobody.
            author = string(fields.author).flatMap { $0.isEmpty ? nil : ImportedPost.Author(objectId: nil, username: $0, name: nil) }
        }
        return try? ImportedPost(objectId: string(fields.object_id), text: string(fields.text), location: location,
                                 createdAt: string(fields.created_at), author: author)
    }

    private static func string(_ text: csimdjson_text) -> String? {
        guard let bytes = text.bytes else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: text.length), as: UTF8.self)
    }

    /// A field as the record names it: "location.latitude", not the decoder's path through an
    /// export's "results" array ("results.Index 0.location.latitude"); "record" for the record itself.
    private static func fieldName(_ path: [any CodingKey]) -> String {
        var names = path.filter { $0.intValue == nil }.map(\.stringValue)
        if names.first == "results", path.count > 1, path[1].intValue != nil { names.removeFirst() }
        return names.isEmpty ? "record" : names.joined(separator: ".")
    }

    /// What a field should have held, in JSON's words (a record's fields are strings, numbers and
    /// objects).
    private static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Double.Type: return "a number"
        default: return "an object"
        }
    }

    /// The post `body` decodes, or the reason it gives, worded for the user.
    package static func attempt(_ body: () throws -> ImportedPost) -> Result<ImportedPost, AnywallError> {
        do {
            return .success(try body())
        } catch let error as AnywallError {
            return .failure(error)
        } catch DecodingError.typeMismatch(let expected, let context), DecodingError.valueNotFound(let expected, let context) {
            return .failure(.inputRejected("bad \(fieldName(context.codingPath)): expected \(jsonKind(expected))"))
        } catch {
            return .failure(.inputRejected("not a JSON object"))
        }
    }
}
