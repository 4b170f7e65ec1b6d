import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output and standard error with write(2). Foundation's
/// `FileHandle.write(_:)` traps when the descriptor is closed or the disk is full, which would
/// turn a full log disk or `2>&-` into a dead process.
public enum StandardStream {
    /// Writes all of `data` to `descriptor`, retrying short writes and interrupted calls. Throws
    /// the reason (`errno`'s words) when the descriptor takes no more.
    public static func write(_ data: Data, to descriptor: Int32) throws(StreamWriteError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw StreamWriteError(reason: String(cString: strerror(failure))) }
    }

    /// Writes `data` to stderr; a stderr that takes no more loses the line, never the process.
    public static func writeError(_ data: Data) {
        try? write(data, to: STDERR_FILENO)
    }
}

/// A standard stream that could not be written, with the system's reason.
public struct StreamWriteError: Error, Sendable {
    public let reason: String
}
