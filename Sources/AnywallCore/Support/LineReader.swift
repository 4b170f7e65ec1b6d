import Foundation

/// Reads a file or stdin line by line in bounded memory, for inputs of any size.
///
/// Lines end with LF (a CR before it is dropped); a last line without LF is still returned.
/// A line longer than `maxLineLength` is cut there and the rest of it skipped, so memory stays
/// bounded on endless input; the cut line is still returned (and fails whatever parses it).
public final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    private var position = 0
    private var atEnd = false
    private let chunkSize: Int
    private let maxLineLength: Int

    public init(handle: FileHandle, chunkSize: Int = 1 << 20, maxLineLength: Int = 1 << 24) {
        self.handle = handle
        self.chunkSize = chunkSize
        self.maxLineLength = maxLineLength
    }

    /// Opens `path`, or stdin for `-`.
    public convenience init(path: String) throws {
        if path == "-" {
            self.init(handle: .standardInput)
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AnywallError.fileUnreadable("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.init(handle: handle)
    }

    /// The next line's bytes without its line ending, or nil at the end of input.
    public func nextLine() -> Data? {
        var cut: Data?
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                var end = newline
                if end > position, buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[position..<end]
                position = newline + 1
                return cut ?? Data(line.prefix(maxLineLength))
            }
            if atEnd {
                guard position < buffer.count || cut != nil else { return nil }
                let line = buffer[position...]
                position = buffer.count
                return cut ?? Data(line.prefix(maxLineLength))
            }
            if buffer.count - position > maxLineLength {
                // Keep the line's start, drop the rest of it as it arrives.
                if cut == nil { cut = Data(buffer[position..<(position + maxLineLength)]) }
                buffer.removeAll(keepingCapacity: true)
                position = 0
            }
            refill()
        }
    }

    private func refill() {
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        let chunk = handle.readData(ofLength: chunkSize)
        if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
    }
}
