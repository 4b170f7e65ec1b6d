import Foundation
import WallDomain

/// Cuts a byte stream that arrives in chunks of any size into lines, in bounded memory: a line
/// longer than `maxLineLength` is garbage and dropped whole, so endless input cannot grow it.
///
/// Lines end with LF; a CR before it is dropped. A line that lies within one chunk is handed
/// out in place, without copying.
public struct LineSplitter {
    public let maxLineLength: Int
    private var partial: [UInt8] = []
    private var discarding = false

    public init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    /// Calls `line` for each line that `bytes` completes.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer,
                                 _ line: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        let bytes = bytes.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            guard let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) else {
                keepPartial(UnsafeBufferPointer(rebasing: bytes[start...]))
                return
            }
            let newline = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<newline])
            start = newline + 1
            if partial.isEmpty, !discarding {
                try hand(piece, to: line)
            } else {
                keepPartial(piece)
                if !discarding {
                    try partial.withUnsafeBufferPointer { try hand($0, to: line) }
                }
                reset()
            }
        }
    }

    /// Hands out the last line when the input ends without a line ending.
    public mutating func finish(_ line: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        if !discarding, !partial.isEmpty {
            try partial.withUnsafeBufferPointer { try hand($0, to: line) }
        }
        reset()
    }

    /// Forgets a line begun but not ended (the stream was cut, as when gpsd went away).
    public mutating func reset() {
        partial.removeAll(keepingCapacity: true)
        discarding = false
    }

    private mutating func keepPartial(_ piece: UnsafeBufferPointer<UInt8>) {
        guard !discarding else { return }
        if partial.count + piece.count > maxLineLength {
            discarding = true
            partial.removeAll(keepingCapacity: true)
        } else {
            partial.append(contentsOf: piece)
        }
    }

    private func hand(_ text: UnsafeBufferPointer<UInt8>, to line: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard text.count <= maxLineLength else { return }
        if let last = text.last, last == 0x0D {
            try line(UnsafeBufferPointer(rebasing: text.dropLast()))
        } else {
            try line(text)
        }
    }
}
