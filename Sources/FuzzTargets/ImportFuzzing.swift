import AnywallSupport
import EmbeddedStore
import Foundation
import WallDomain

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
        // Small reads of a size the input picks, so records are cut across reads.
        let chunkSize = 1 + Int(input.first ?? 0) % 64
        let reader = PostImportReader(lines: LineReader(handle: pipe.fileHandleForReading, name: "fuzz input", chunkSize: chunkSize))
        var records = 0, failure: Error?
        do {
            while true {
                let batch = try reader.nextBatch(size: 64)
                if batch.isEmpty { break }
                records += batch.posts.count + batch.rejected.count
            }
        } catch {
            failure = error
        }
        try? pipe.fileHandleForReading.close()
        if reader.readsParseExport == true { checkRecordCutting(Data(input), records: records, failure: failure) }
    }

    /// An export Foundation's JSONDecoder reads whole must be cut into as many records as its
    /// `results` array holds, without an error: the stream follows JSON's structure as that parser does.
    /// Left out: an input naming `results` twice (which of two arrays the decoder keeps is its
    /// business; the stream refuses them) or holding a `\u` escape (a key may spell `results` so;
    /// PostImportReaderTests covers it).
    private static func checkRecordCutting(_ input: Data, records: Int, failure: Error?) {
        struct Export: Decodable {
            struct Record: Decodable {
                init(from decoder: Decoder) throws {}
            }
            let results: [Record]
        }
        let results = Data("results".utf8)
        guard let first = input.range(of: results), input.range(of: results, in: first.upperBound..<input.endIndex) == nil,
              input.range(of: Data(#"\u"#.utf8)) == nil else { return }
        guard let export = try? JSONDecoder().decode(Export.self, from: input) else { return }
        guard failure == nil, records == export.results.count else {
            fatalError("an export of \(export.results.count) records was cut into \(records), then \(failure.map { "\($0)" } ?? "no error")")
        }
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
