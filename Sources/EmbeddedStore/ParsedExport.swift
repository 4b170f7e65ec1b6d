import CSimdjson
import Foundation

/// A batch of a Parse export's records (`{"results":[...]}`, as `ExportRecordStream` cuts them)
/// parsed at once by simdjson, its records read from any thread. simdjson parses it some hundred
/// times faster than Foundation's JSONDecoder decoded the whole document, which held an import of an
/// export to a third of NDJSON's pace.
package final class ParsedExport: @unchecked Sendable {
    // Unchecked: the parsed document is only read after `init`.
    private let parsed: OpaquePointer

    /// The records in `document`; nil when simdjson cannot read it (not valid JSON, no single
    /// `results` array, or libsimdjson missing): the records are then read one by one.
    package init?(document: Data) {
        let parsed = document.withUnsafeBytes { bytes in
            csimdjson_export_parse(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        guard let parsed else { return nil }
        self.parsed = parsed
    }

    deinit { csimdjson_export_destroy(parsed) }

    /// The records in `results`.
    package var count: Int { csimdjson_export_count(parsed) }

    /// Record `index`'s fields when it is a plain post record, nil otherwise.
    func fields(at index: Int) -> csimdjson_post? {
        var fields = csimdjson_post()
        return csimdjson_export_read_post(parsed, index, &fields) == 1 ? fields : nil
    }

    /// Record `index` written back as JSON, for the Codable reader.
    func json(at index: Int) -> Data {
        var length = 0
        guard let bytes = csimdjson_export_record_json(parsed, index, &length) else { return Data() }
        return Data(bytesNoCopy: bytes, count: length, deallocator: .free)
    }
}
