import Foundation

/// A wall's records as `anywall-server copy` moves them from one store to another, whole: accounts
/// with their password hashes and identities, sessions (by the digest a store keeps of each token), posts and
/// their authors, and the config.
public enum WallRecords {
    /// An account with its password hash (`scrypt$...`), nil for an imported author who has none yet.
    public struct Account: Equatable, Sendable {
        public let objectId: String
        public let username: String
        public let name: String?
        public let passwordHash: String?
        public let createdAt: Date
        /// The other ways it logs in (`authData`).
        public let identities: [AuthIdentity]

        public init(objectId: String, username: String, name: String?, passwordHash: String?, createdAt: Date, identities: [AuthIdentity] = []) {
            self.objectId = objectId
            self.username = username
            self.name = name
            self.passwordHash = passwordHash
            self.createdAt = createdAt
            self.identities = identities
        }
    }

    /// An open session: the digest of its token, whose account it is, and when it began.
    public struct OpenSession: Equatable, Sendable {
        public let tokenDigest: String
        public let userId: String
        public let createdAt: Date

        public init(tokenDigest: String, userId: String, createdAt: Date) {
            self.tokenDigest = tokenDigest
            self.userId = userId
            self.createdAt = createdAt
        }
    }

    /// A post with its author's object id (nil when the author is gone) and when it was last edited.
    public struct PostRecord: Equatable, Sendable {
        public let objectId: String
        public let text: String
        public let location: GeoPoint
        public let authorId: String?
        public let createdAt: Date
        public let updatedAt: Date?
        /// Its readers and writers as the stores keep them (`PostAccess.storedReaders`, `storedWriters`).
        public let readers: String?
        public let writers: String?
        /// The fields a client added.
        public let fields: [String: JSONValue]

        public init(objectId: String, text: String, location: GeoPoint, authorId: String?, createdAt: Date, updatedAt: Date?,
                    readers: String?, writers: String?, fields: [String: JSONValue]) {
            self.objectId = objectId
            self.text = text
            self.location = location
            self.authorId = authorId
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.readers = readers
            self.writers = writers
            self.fields = fields
        }
    }

    /// How many posts a copy reads and writes at a time.
    public static let batchSize = 2000
}
