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

/// A post the server refused for itself (too long, invalid), kept with the reason until the user
/// sends it again or drops it.
public struct SetAsidePost: Codable, Equatable, Sendable {
    public let entry: OutboxEntry
    public let reason: String
}

/// Posts waiting to be sent (Parse's `saveEventually`), in the order they were written, in one
/// file (mode 0600) under a lock, so that two commands never send the same post at once.
/// Every change is written at once: a delivery killed half-way resends at most the post in
/// flight. Posts a server refused for good are moved aside to `rejected.json`, never dropped
/// but by the user.
public struct Outbox: Sendable {
    private let directory: URL

    /// An outbox kept in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    package var file: URL { directory.appendingPathComponent("outbox.json") }
    /// Where refused posts are kept, with the reason, for the user to see.
    public var rejectedFile: URL { directory.appendingPathComponent("rejected.json") }

    /// Whether any post waits for `backend`, read without the lock (a quick look before opening it).
    public func hasEntries(for backend: String) -> Bool {
        (try? read(file, as: [OutboxEntry].self))?.contains { $0.backend == backend } ?? false
    }

    /// Adds a post at the end.
    public func add(_ entry: OutboxEntry) throws {
        try locked { contents in try contents.append(entry) }
    }

    /// Runs `body` with the outbox's contents under its lock.
    public func locked<T>(_ body: (OutboxContents) throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(directory.appendingPathComponent("outbox.lock").path, O_CREAT | O_RDWR, 0o600)
        guard fd >= 0 else { throw AnywallError.fileUnreadable("cannot lock the outbox in \(directory.path): \(String(cString: strerror(errno)))") }
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN); close(fd) }
        let contents = OutboxContents(
            waiting: try read(file, as: [OutboxEntry].self) ?? [], setAside: try read(rejectedFile, as: [SetAsidePost].self) ?? [],
            saveWaiting: { try self.write($0, to: self.file) }, saveSetAside: { try self.write($0, to: self.rejectedFile) })
        return try body(contents)
    }

    private func write<T: Encodable & Collection>(_ list: T, to url: URL) throws {
        if list.isEmpty { PrivateFile.remove(url); return }
        try PrivateFile.write(try Self.encoder.encode(list), to: url, mode: 0o600)
    }

    /// The list in `url`; a damaged file is moved aside (never deleted: it holds what the user
    /// wrote) and the error says where it went.
    private func read<T: Decodable>(_ url: URL, as type: T.Type) throws -> T? {
        guard let data = try PrivateFile.read(url) else { return nil }
        do {
            return try Self.decoder.decode(T.self, from: data)
        } catch {
            let kept = url.deletingPathExtension().appendingPathExtension("damaged-\(Int(Date().timeIntervalSince1970)).json")
            guard rename(url.path, kept.path) == 0 else {
                throw AnywallError.fileUnreadable("\(url.path) is damaged and cannot be moved aside: \(String(cString: strerror(errno)))")
            }
            throw AnywallError.fileUnreadable("\(url.path) was damaged: it is kept as \(kept.path), and a new one is started")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = ParseDate.encodingStrategy
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = ParseDate.decodingStrategy
        return decoder
    }()
}

/// The outbox's two lists under its lock. Each change is written before the call returns.
public final class OutboxContents {
    /// The posts waiting to be sent, oldest first.
    public private(set) var waiting: [OutboxEntry]
    /// The posts a server refused, with why.
    public private(set) var setAside: [SetAsidePost]
    private let saveWaiting: ([OutboxEntry]) throws -> Void
    private let saveSetAside: ([SetAsidePost]) throws -> Void

    init(waiting: [OutboxEntry], setAside: [SetAsidePost],
         saveWaiting: @escaping ([OutboxEntry]) throws -> Void, saveSetAside: @escaping ([SetAsidePost]) throws -> Void) {
        self.waiting = waiting
        self.setAside = setAside
        self.saveWaiting = saveWaiting
        self.saveSetAside = saveSetAside
    }

    public func append(_ entry: OutboxEntry) throws {
        try saveWaiting(waiting + [entry])
        waiting.append(entry)
    }

    /// Takes a post out of the waiting list (it was delivered).
    public func remove(_ entry: OutboxEntry) throws {
        let left = waiting.filter { $0.requestId != entry.requestId }
        try saveWaiting(left)
        waiting = left
    }

    /// Moves a waiting post aside with the reason it was refused: written aside first, so that a
    /// crash in between leaves it in both lists, never in neither.
    public func setAside(_ entry: OutboxEntry, reason: String) throws {
        let aside = setAside + [SetAsidePost(entry: entry, reason: reason)]
        try saveSetAside(aside)
        setAside = aside
        try remove(entry)
    }

    /// Puts set-aside posts back at the end of the waiting list, with their request ids.
    public func retry(_ posts: [SetAsidePost]) throws {
        let ids = Set(posts.map(\.entry.requestId))
        try saveWaiting(waiting + posts.map(\.entry))
        waiting += posts.map(\.entry)
        let left = setAside.filter { !ids.contains($0.entry.requestId) }
        try saveSetAside(left)
        setAside = left
    }

    /// Forgets a post, waiting or set aside: the user's decision.
    public func drop(requestId: String) throws {
        if waiting.contains(where: { $0.requestId == requestId }) {
            let left = waiting.filter { $0.requestId != requestId }
            try saveWaiting(left)
            waiting = left
        }
        if setAside.contains(where: { $0.entry.requestId == requestId }) {
            let left = setAside.filter { $0.entry.requestId != requestId }
            try saveSetAside(left)
            setAside = left
        }
    }
}
