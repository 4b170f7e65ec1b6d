import Foundation
import WallDomain

/// A post's access as both stores keep it, in two text columns. `readers` is what finds test:
/// each reader between spaces, so `' id '` is found in it, and NULL when everyone reads (the posts
/// the nearest search skims). `writers` keeps the rest of the ACL, so that it comes back as it was
/// given: NULL for Anywall's ACL (the readers, or everyone, read; the author reads and writes),
/// which every post imported or left before ACLs has; `" * "` for a post saved without an ACL;
/// else the ACL itself, as Parse's JSON. A list of writers between spaces, which walls made before
/// ACLs were kept whole hold, still reads as those writers.
extension PostAccess {
    private static let noACL = " * "

    /// The readers column.
    public var storedReaders: String? {
        readers.map { " " + $0.sorted().joined(separator: " ") + " " }
    }

    /// The writers column of a post by `author`.
    public func storedWriters(author: String?) -> String? {
        guard let acl else { return Self.noACL }
        if acl == Self.anywallACL(readers: storedReaders, author: author) { return nil }
        return Self.json(acl)
    }

    /// The ACL as Parse's JSON, keys sorted: how a store keeps an ACL whole.
    public static func json(_ acl: [String: Rights]) -> String? {
        let entries = acl.mapValues { rights in
            var flags: [String: Bool] = [:]
            if rights.contains(.read) { flags["read"] = true }
            if rights.contains(.write) { flags["write"] = true }
            return flags
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The ACL `json(_:)` wrote; one that does not decode gives no one any right, rather than
    /// more than the ACL gave.
    public static func acl(json: String) -> [String: Rights] {
        let entries = (try? JSONDecoder().decode([String: [String: Bool]].self, from: Data(json.utf8))) ?? [:]
        return entries.mapValues { flags in
            var rights: Rights = []
            if flags["read"] == true { rights.insert(.read) }
            if flags["write"] == true { rights.insert(.write) }
            return rights
        }
    }

    /// The access the two columns keep for a post by `author`.
    public init(storedReaders: String?, storedWriters: String?, author: String?) {
        switch storedWriters {
        case nil:
            self.init(kept: Self.anywallACL(readers: storedReaders, author: author))
        case Self.noACL? where storedReaders == nil:
            self.init(kept: nil)
        case let json? where json.hasPrefix("{"):
            // Written by `storedWriters` alone.
            self.init(kept: Self.acl(json: json))
        case let list?:
            var acl = Self.readACL(storedReaders)
            for writer in Self.users(list) { acl[writer, default: []].insert(.write) }
            self.init(kept: acl)
        }
    }

    /// Anywall's ACL for a post with these readers (NULL: everyone) by `author`.
    private static func anywallACL(readers: String?, author: String?) -> [String: Rights] {
        var acl = readACL(readers)
        if let author {
            if readers == nil { acl[author, default: []].insert(.read) }
            acl[author, default: []].insert(.write)
        }
        return acl
    }

    /// The read rights the readers column gives.
    private static func readACL(_ readers: String?) -> [String: Rights] {
        guard let readers else { return ["*": .read] }
        return Dictionary(uniqueKeysWithValues: users(readers).map { ($0, Rights.read) })
    }

    private static func users(_ list: String) -> Set<String> {
        Set(list.split(separator: " ").map(String.init))
    }
}
