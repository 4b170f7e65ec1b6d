import AnywallSupport
import Foundation
import WallDomain

/// One post read from a Parse export of the `Posts` class, or from anywall's own JSON.
///
/// Accepts Parse's REST encodings (`{"__type":"GeoPoint",...}`, `{"__type":"Date","iso":...}`,
/// a `_User` pointer or an included user object) and anywall's post shape (`author`,
/// plain `location` and `createdAt`).
public struct ImportedPost: Decodable, Equatable, Sendable {
    /// Who wrote it, as far as the record says.
    public struct Author: Sendable, Hashable {
        public let objectId: String?
        public let username: String?
        public let name: String?

        public init(objectId: String?, username: String?, name: String?) {
            self.objectId = objectId
            self.username = username
            self.name = name
        }
    }

    /// The post's id; nil when the record has none (`contentObjectId` is used on import).
    public let objectId: String?

    /// The id a record without one is given: a digest of what it says (author, text, place, time),
    /// so that importing the same record again finds it there instead of adding it twice.
    public var contentObjectId: String {
        let author = author.map { "\($0.objectId ?? "")\u{1F}\($0.username ?? "")" } ?? ""
        let time = createdAt.map { String($0.timeIntervalSince1970) } ?? ""
        let place = "\(location.latitude.bitPattern)\u{1F}\(location.longitude.bitPattern)"
        // NUL separates the parts: a checked text cannot hold one, so no two records run together alike.
        return HexDigest.sha256([author, text, place, time].joined(separator: "\u{0}"), bytes: 8)
    }
    /// The text, trimmed; never empty.
    public let text: String
    public let location: GeoPoint
    /// When it was posted; nil when the record does not say (the import time is used).
    public let createdAt: Date?
    /// Who wrote it; nil when the record does not say.
    public let author: Author?

    private enum Keys: String, CodingKey {
        case objectId, text, location, createdAt, user, author, iso, username, name
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        objectId = try Self.checked(objectId: c.decodeIfPresent(String.self, forKey: .objectId))
        text = try Self.checked(text: c.decodeIfPresent(String.self, forKey: .text))
        guard c.contains(.location) else { throw AnywallError.inputRejected("no location") }
        do {
            location = try c.decode(GeoPoint.self, forKey: .location)
        } catch DecodingError.dataCorrupted(let context) {
            throw AnywallError.inputRejected("bad location: \(context.debugDescription)")
        } catch {
            throw AnywallError.inputRejected("bad location: expected {\"latitude\":..,\"longitude\":..}")
        }
        createdAt = try Self.checked(createdAt: Self.dateText(c))
        author = try Self.checked(author: Self.author(c))
    }

    /// A post from the fields a record gave, checked as the Codable reader checks them.
    /// `createdAt` is the date's text, nil when the record has none.
    init(objectId: String?, text: String?, location: GeoPoint, createdAt: String?, author: Author?) throws {
        self.objectId = try Self.checked(objectId: objectId)
        self.text = try Self.checked(text: text)
        self.location = location
        self.createdAt = try Self.checked(createdAt: createdAt)
        self.author = try Self.checked(author: author)
    }

    // SQLite keeps a string bound to it only up to its first NUL: refused, rather than cut short.
    private static func checked(objectId: String?) throws -> String? {
        guard objectId?.utf8.contains(0) != true else { throw AnywallError.inputRejected("bad objectId: it holds a NUL character") }
        return objectId
    }

    private static func checked(text: String?) throws -> String {
        guard let text = text?.trimmedOfWhitespace, !text.isEmpty else { throw AnywallError.inputRejected("no text") }
        guard !text.utf8.contains(0) else { throw AnywallError.inputRejected("bad text: it holds a NUL character") }
        return text
    }

    private static func checked(createdAt text: String?) throws -> Date? {
        guard let text else { return nil }
        guard let date = ParseDate.date(from: text) else {
            throw AnywallError.inputRejected("bad createdAt '\(text)': expected an ISO 8601 date")
        }
        return date
    }

    /// Checked here, so a bad author rejects its own record and not the whole batch.
    private static func checked(author: Author?) throws -> Author? {
        if let author { _ = try Username.validated(author.username ?? author.objectId ?? "") }
        return author
    }

    private static func dateText(_ c: KeyedDecodingContainer<Keys>) throws -> String? {
        guard c.contains(.createdAt) else { return nil }
        if let plain = try? c.decode(String.self, forKey: .createdAt) { return plain }
        if let wrapped = try? c.nestedContainer(keyedBy: Keys.self, forKey: .createdAt),
           let iso = try? wrapped.decode(String.self, forKey: .iso) {
            return iso
        }
        throw AnywallError.inputRejected("bad createdAt: expected an ISO 8601 date")
    }

    private static func author(_ c: KeyedDecodingContainer<Keys>) throws -> Author? {
        // `contains` first: a lookup that fails throws, and most records have no `user`.
        if c.contains(.user), let user = try? c.nestedContainer(keyedBy: Keys.self, forKey: .user) {
            let author = Author(objectId: try? user.decode(String.self, forKey: .objectId),
                                username: try? user.decode(String.self, forKey: .username),
                                name: try? user.decode(String.self, forKey: .name))
            return author.objectId == nil && author.username == nil ? nil : author
        }
        if let name = try? c.decode(String.self, forKey: .author), !name.isEmpty {
            return Author(objectId: nil, username: name, name: nil)
        }
        return nil
    }
}
