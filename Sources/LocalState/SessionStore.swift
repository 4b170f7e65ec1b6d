import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The cached session on disk (mode 0600): a token and who it belongs to, never a password.
public struct SessionStore: Sendable {
    public let file: URL

    /// The store kept in `file`.
    public init(file: URL) {
        self.file = file
    }

    /// The session for `backend`, or nil when logged out or logged in to another wall.
    public func session(for backend: String) throws -> Session? {
        guard let data = try PrivateFile.read(file),
              let session = try? JSONDecoder().decode(Session.self, from: data),
              session.backend == backend else { return nil }
        return session
    }

    /// The session for `backend`, or the "not logged in" error telling how to log in.
    public func requireSession(for backend: String) throws -> Session {
        guard let session = try session(for: backend) else {
            throw AnywallError.notLoggedIn
        }
        return session
    }

    /// Keeps `session` as the logged-in one (mode 0600), replacing any other.
    public func save(_ session: Session) throws {
        try PrivateFile.write(try JSONEncoder().encode(session), to: file, mode: 0o600)
    }

    /// Forgets the session (logout, or a session the backend refused).
    public func clear() {
        PrivateFile.remove(file)
    }
}
