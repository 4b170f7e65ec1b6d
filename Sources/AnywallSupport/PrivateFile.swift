import Foundation
import WallDomain

/// Small files anywall owns: written whole and atomically, readable only by their owner
/// when they may hold secrets.
public enum PrivateFile {
    /// Writes `data` to `url` through a temporary file, fsync and a rename (and an fsync of the
    /// directory), so a reader never sees half a file and a crash keeps the old or the new one;
    /// the file gets `mode` (0600 for anything secret) before any byte is written.
    public static func write(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw AnywallError.fileUnreadable("cannot create \(dir.path): \(error.localizedDescription)")
        }
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else {
            throw AnywallError.fileUnreadable("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        _ = fchmod(fd, mode)
        // Whole, on disk, then in place: a crash or a full disk leaves the old file or the new
        // one, never half of one (fsync before the rename, and of the directory after it).
        let written = data.withUnsafeBytes { buf in buf.isEmpty ? 0 : Foundation.write(fd, buf.baseAddress, buf.count) }
        let synced = written == data.count && fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        guard synced, rename(temp.path, url.path) == 0 else {
            let why = synced ? String(cString: strerror(errno)) : (written >= 0 && written < data.count ? "the disk is full" : reason)
            unlink(temp.path)
            throw AnywallError.fileUnreadable("cannot write \(url.path): \(why); the previous version is kept")
        }
        let directory = open(dir.path, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// The file's contents, or nil when it does not exist.
    public static func read(_ url: URL) throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw AnywallError.fileUnreadable("cannot read \(url.path)")
        }
        return data
    }

    /// Removes the file if it exists.
    public static func remove(_ url: URL) {
        unlink(url.path)
    }
}
