import AnywallSupport
import EmbeddedStore
import Foundation

/// A file given to `anywall import`, read in batches as the command reads it.
enum ImportFuzzing {
    /// Larger inputs would fill the pipe before it is read; libFuzzer is run with a smaller -max_len.
    static let maxInput = 60_000

    static func run(_ input: [UInt8]) {
        guard input.count <= maxInput else { return }
        let decoder = ImportRecordDecoder()
        for line in input.split(separator: 0x0A) { checkFastReader(Data(line), decoder) }
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(input))
        try? pipe.fileHandleForWriting.close()
        let reader = PostImportReader(lines: LineReader(handle: pipe.fileHandleForReading, name: "fuzz input", chunkSize: 4096))
        while let batch = try? reader.nextBatch(size: 64), !(batch.posts.isEmpty && batch.rejected.isEmpty) {}
        try? pipe.fileHandleForReading.close()
    }

    /// simdjson's reader must read a record as the Codable reader, the reference, reads it, or
    /// leave it to that one: a record the two read differently is a finding, reported as a trap.
    /// One difference is Foundation's: it refuses some valid JSON numbers (`0e1`, `0E5`, `1e-400`,
    /// where `0e+1`, `1e1` and `0e0` pass), which simdjson reads; so a location the Codable reader
    /// refuses and simdjson reads is not a finding. A number read as another is one.
    private static func checkFastReader(_ record: Data, _ decoder: ImportRecordDecoder) {
        guard let fast = decoder.plainPost(record) else { return }
        switch ImportRecordDecoder.attempt({ try JSONDecoder().decode(ImportedPost.self, from: record) }) {
        case .success(let reference) where reference == fast: return
        case .failure(.inputRejected(let reason)) where reason.hasPrefix("bad location"): return
        case let reference:
            fatalError("simdjson read \(String(decoding: record, as: UTF8.self)) as \(fast), the Codable reader as \(reference)")
        }
    }
}
