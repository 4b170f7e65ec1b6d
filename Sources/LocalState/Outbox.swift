import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// A post that could not be sent yet: what the user wrote, where, as whom, and the request id it
/// is sent with every time (so a server that got it once does not post it twice).
public struct OutboxEntry: Codable, Equatable, Sendable {
    public let requestId: String
    /// The wall it is for (`WallBackend.identity`).
    public let backend: String
    /// Who wrote it: it is sent only with a session of that user.
    public let user: User
    public let text: String
    public let location: GeoPoint
    public let queuedAt: Date

    public init(requestId: String, backend: String, user: User, text: String, location: GeoPoint, queuedAt: Date) {
        self.requestId = requestId
        self.backend = backend
        self.user = user
        self.text = text
        self.location = location
        self.queuedAt = queuedAt
    }
}

/// Posts waiting to be sent (Parse's `saveEventually`), in the order they were written, in one
/// file (mode 0600) under a lock, so that two commands never send the same post at once.
/// Posts a server refused for good are moved aside to `rejected.json`, never dropped.
public struct Outbox: Sendable {
    private let directory: URL

    /// An outbox kept in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    var file: URL { directory.appendingPathComponent("outbox.json") }
    /// Where refused posts are kept, with the reason, for the user to see.
    public var rejectedFile: URL { directory.appendingPathComponent("rejected.json") }

    /// Whether any post waits for `backend`, read without the lock (a quick look before opening it).
    public func hasEntries(for backend: String) -> Bool {
        (try? read(file, as: [OutboxEntry].self))?.contains { $0.backend == backend } ?? false
    }

    /// Adds a post at the end.
    public func add(_ entry: OutboxEntry) throws {
        try locked { entries in entries.append(entry) }
    }

    /// Runs `body` on the entries under the lock; what it leaves is written back.
    public func locked<T>(_ body: (inout [OutboxEntry]) throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(directory.appendingPathComponent("outbox.lock").path, O_CREAT | O_RDWR, 0o600)
        guard fd >= 0 else { throw AnywallError.fileUnreadable("cannot lock the outbox in \(directory.path): \(String(cString: strerror(errno)))") }
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN); close(fd) }
        var entries = try read(file, as: [OutboxEntry].self) ?? []
        let before = entries
        let result: T
        do {
            result = try body(&entries)
        } catch {
            if entries != before { try save(entries) }
            throw error
        }
        if entries != before { try save(entries) }
        return result
    }

    /// Moves a refused post to the rejected file with the server's reason.
    package func setAside(_ entry: OutboxEntry, reason: String) throws {
        var rejected = try read(rejectedFile, as: [RejectedPost].self) ?? []
        rejected.append(RejectedPost(entry: entry, reason: reason))
        try PrivateFile.write(try Self.encoder.encode(rejected), to: rejectedFile, mode: 0o600)
    }

    private struct RejectedPost: Codable {
        let entry: OutboxEntry
        let reason: String
    }

    private func save(_ entries: [OutboxEntry]) throws {
        if entries.isEmpty { PrivateFile.remove(file); return }
        try PrivateFile.write(try Self.encoder.encode(entries), to: file, mode: 0o600)
    }

    private func read<T: Decodable>(_ url: URL, as type: T.Type) throws -> T? {
        guard let data = try PrivateFile.read(url) else { return nil }
        do {
            return try Self.decoder.decode(T.self, from: data)
        } catch {
            // Never drop what the user wrote: a damaged outbox stops the command instead.
            throw AnywallError.failure("\(url.path) is damaged (\(error.localizedDescription)); move it away to go on")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
