import Foundation
import WallDomain

/// Reads a file or stdin line by line in bounded memory, for inputs of any size.
///
/// Lines end with LF (a CR before it is dropped); a last line without LF is still returned.
/// A line longer than `maxLineLength` is cut there and the rest of it skipped, so memory stays
/// bounded on endless input; the cut line is still returned (and fails whatever parses it).
public final class LineReader {
    private let handle: FileHandle
    /// Named in read errors.
    private let name: String
    private var buffer = Data()
    private var position = 0
    private var atEnd = false
    private let chunkSize: Int
    private let maxLineLength: Int
    /// The bytes read from the input so far (lines not yet returned included).
    public private(set) var bytesRead: Int64 = 0
    /// The input's size when it is a regular file; nil for a pipe or a terminal.
    public let size: Int64?

    /// Reads `handle`, calling it `name` in errors, `chunkSize` bytes at a time.
    public init(handle: FileHandle, name: String, chunkSize: Int = 1 << 20, maxLineLength: Int = 1 << 24) {
        self.handle = handle
        self.name = name
        self.chunkSize = chunkSize
        self.maxLineLength = maxLineLength
        var status = stat()
        let isFile = fstat(handle.fileDescriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        size = isFile ? Int64(status.st_size) : nil
    }

    /// Opens `path`, or stdin for `-`.
    public convenience init(path: String) throws {
        if path == "-" {
            self.init(handle: .standardInput, name: "standard input")
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AnywallError.fileUnreadable("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.init(handle: handle, name: path)
    }

    /// The next line's bytes without its line ending, or nil at the end of input.
    public func nextLine() throws -> Data? {
        var cut: Data?
        while true {
            if let newline = nextNewline() {
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
            try refill()
        }
    }

    /// Where the next LF is in the buffer: memchr, as Data's own search goes byte by byte
    /// through generic indices (an eighth of an import's reading time).
    private func nextNewline() -> Int? {
        buffer.withUnsafeBytes { bytes -> Int? in
            guard position < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + position, 0x0A, bytes.count - position) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// The next line's first bytes, up to `limit` of them (its line ending left out), without
    /// taking them: the line is still the next one read. For telling what an input holds.
    public func peekLine(limit: Int) throws -> Data {
        while nextNewline() == nil, buffer.count - position < limit, !atEnd { try refill() }
        var end = min(nextNewline() ?? buffer.count, position + limit)
        if end > position, buffer[end - 1] == 0x0D { end -= 1 }
        return buffer[position..<end]
    }

    /// The input's next bytes as they come, from where the last line ended: for a document cut
    /// into records by its own structure. Nil at the end of input.
    public func nextChunk() throws -> Data? {
        if position == buffer.count, !atEnd { try refill() }
        guard position < buffer.count else { return nil }
        defer {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        return buffer[position...]
    }

    private func refill() throws {
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: chunkSize)
        } catch {
            throw AnywallError.fileUnreadable("cannot read \(name): \(Self.reason(error))")
        }
        if let chunk, !chunk.isEmpty {
            buffer.append(chunk)
            bytesRead += Int64(chunk.count)
        } else {
            atEnd = true
        }
    }

    /// Reads all of `handle`, refusing more than `limit` bytes (so `yes | anywall post -` ends).
    public static func readAll(_ handle: FileHandle, name: String, limit: Int, holding what: String) throws -> Data {
        var data = Data()
        do {
            while data.count <= limit, let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                data.append(chunk)
            }
        } catch {
            throw AnywallError.fileUnreadable("cannot read \(name): \(reason(error))")
        }
        guard data.count <= limit else {
            throw AnywallError.inputRejected("\(name) holds more than \(limit / 1024) KiB; that is not \(what)")
        }
        return data
    }

    private static func reason(_ error: Error) -> String {
        let error = error as NSError
        // Foundation wraps the system's error (EISDIR for a directory) in one of its own that
        // says only "The operation could not be completed".
        let system = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
        guard let system, system.domain == NSPOSIXErrorDomain else { return error.localizedDescription }
        return String(cString: strerror(Int32(system.code)))
    }
}
