import WallDomain

/// An access control list: for each principal (`*` for everyone, or a user's objectId), whether
/// it may read and write. `{"*":{"read":true},"xWMyZ4YEGZ":{"read":true,"write":true}}`.
public struct ParseACL: Equatable, Sendable, ParseCodable {
    /// What one principal may do.
    public typealias Access = PostAccess.Rights

    public let entries: [String: Access]

    public init(_ entries: [String: Access]) {
        self.entries = entries
    }

    /// Everyone reads; only `owner` (when there is one) writes: anywall's posts and users.
    public static func publicRead(writer owner: String?) -> ParseACL {
        var entries: [String: Access] = ["*": .read]
        if let owner { entries[owner] = [.read, .write] }
        return ParseACL(entries)
    }

    public var json: JSONValue {
        .object(entries.mapValues { access in
            var fields: [String: JSONValue] = [:]
            if access.contains(.read) { fields["read"] = .bool(true) }
            if access.contains(.write) { fields["write"] = .bool(true) }
            return .object(fields)
        })
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let principals = json.fields else { throw ParseError(ParseErrorCode.invalidACL, "Invalid ACL: expected an object") }
        var entries: [String: Access] = [:]
        for (principal, rights) in principals {
            guard let rights = rights.fields, rights.keys.allSatisfy({ $0 == "read" || $0 == "write" }),
                  rights.values.allSatisfy({ $0 == .bool(true) || $0 == .bool(false) }) else {
                throw ParseError(ParseErrorCode.invalidACL, "Invalid ACL: \(principal) must map to {\"read\":bool,\"write\":bool}")
            }
            var access: Access = []
            if rights["read"] == .bool(true) { access.insert(.read) }
            if rights["write"] == .bool(true) { access.insert(.write) }
            entries[principal] = access
        }
        self.init(entries)
    }
}
