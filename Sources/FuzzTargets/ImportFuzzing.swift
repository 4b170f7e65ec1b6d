import AnywallSupport
import EmbeddedStore
import Foundation

/// A file given to `anywall import`, read in batches as the command reads it.
enum ImportFuzzing {
    /// Larger inputs would fill the pipe before it is read; libFuzzer is run with a smaller -max_len.
    static let maxInput = 60_000

    static func run(_ input: [UInt8]) {
        guard input.count <= maxInput else { return }
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(input))
        try? pipe.fileHandleForWriting.close()
        let reader = PostImportReader(lines: LineReader(handle: pipe.fileHandleForReading, name: "fuzz input", chunkSize: 4096))
        while let batch = try? reader.nextBatch(size: 64), !(batch.posts.isEmpty && batch.rejected.isEmpty) {}
        try? pipe.fileHandleForReading.close()
    }
}
