import Foundation
import ParseWire
import WallDomain

/// A reply as the CLI creates it: a `Posts` object with its thread's post as `parent`, readable
/// by everyone and written by its author (Anywall's ACL).
struct ParseReply: Encodable {
    let text: String
    let location: ParseGeoPoint
    let user: ParsePointer
    let parent: ParsePointer
    let ACL: ParseACL

    init(text: String, location: GeoPoint, userId: String, parent: String) {
        self.text = text
        self.location = ParseGeoPoint(location)
        user = .user(userId)
        self.parent = ParsePointer(className: "Posts", objectId: parent)
        ACL = .publicRead(writer: userId)
    }
}

/// A change of a post's counter: Parse's `Increment`.
enum ParseCounterChange: Encodable {
    case increment(Int)

    func encode(to encoder: Encoder) throws {
        switch self {
        case .increment(let amount):
            let json: JSONValue = .object(["__op": .string("Increment"), "amount": .number(Double(amount))])
            try json.encode(to: encoder)
        }
    }
}

/// The rows of Anypic's `Activity` class the CLI writes, with the ACLs of DESIGN.md: a vote is
/// its voter's alone; a report, its reporter's and the role `moderators`'; a reply notice, its
/// two users'.
enum ParseActivity {
    static func vote(_ vote: Vote, from voter: String, to author: String?, post: String, at location: GeoPoint) -> JSONValue {
        row("vote", from: voter, to: author, post: post, fields: ["value": .number(Double(vote.value)), "location": ParseGeoPoint(location).json],
            acl: [voter: readWrite])
    }

    static func voteChange(_ vote: Vote, at location: GeoPoint) -> JSONValue {
        .object(["value": .number(Double(vote.value)), "location": ParseGeoPoint(location).json])
    }

    static func report(_ reason: ReportReason, note: String?, from reporter: String, to author: String?, post: String,
                       at location: GeoPoint) -> JSONValue {
        var fields: [String: JSONValue] = ["reason": .string(reason.rawValue), "location": ParseGeoPoint(location).json]
        fields["note"] = note.map(JSONValue.string) ?? .object(["__op": .string("Delete")])
        return row("report", from: reporter, to: author, post: post, fields: fields,
                   acl: [reporter: readWrite, "role:moderators": .object(["read": .bool(true)])])
    }

    static func replyNotice(from replier: String, to author: String?, post: String, reply: String) -> JSONValue {
        var acl: [String: JSONValue] = [replier: .object(["read": .bool(true)])]
        if let author { acl[author] = .object(["read": .bool(true)]) }
        return row("reply", from: replier, to: author, post: post, fields: ["reply": ParsePointer(className: "Posts", objectId: reply).json], acl: acl)
    }

    private static let readWrite: JSONValue = .object(["read": .bool(true), "write": .bool(true)])

    private static func row(_ type: String, from user: String, to author: String?, post: String, fields: [String: JSONValue],
                            acl: [String: JSONValue]) -> JSONValue {
        var object = fields
        object["type"] = .string(type)
        object["fromUser"] = ParsePointer.user(user).json
        if let author { object["toUser"] = ParsePointer.user(author).json }
        object["post"] = ParsePointer(className: "Posts", objectId: post).json
        object["ACL"] = .object(acl)
        return .object(object)
    }
}

/// An `Activity` row as a query returns it.
struct ParseActivityRow: Decodable {
    let objectId: String
    let post: String
    let fromUser: String?
    let vote: Vote?
    let reason: ReportReason?
    let note: String?
    let createdAt: Date

    init(from decoder: Decoder) throws {
        let json = try JSONValue(from: decoder)
        guard let fields = json.fields, case .string(let objectId)? = fields["objectId"], let post = fields["post"],
              let createdAt = fields["createdAt"]?.text.flatMap(ParseDate.date(from:)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad Activity row"))
        }
        self.objectId = objectId
        self.post = try ParsePointer(json: post).objectId
        fromUser = try fields["fromUser"].map { try ParsePointer(json: $0).objectId }
        vote = fields["value"]?.number.flatMap { Int(exactly: $0) }.flatMap(Vote.init(value:))
        reason = fields["reason"]?.text.flatMap(ReportReason.init(rawValue:))
        note = fields["note"]?.text
        self.createdAt = createdAt
    }
}

/// A role as `GET /roles` returns it: what `moderate grant` needs of it.
struct ParseRoleObject: Decodable {
    let objectId: String
}

/// A row of the activity feed's query, with its post and reply included.
struct ParseFeedRow: Decodable {
    let kind: StoredActivity.Kind?
    let fromUser: String?
    let vote: Vote?
    let post: SocialPost?
    let reply: SocialPost?
    let createdAt: Date

    init(from decoder: Decoder) throws {
        let json = try JSONValue(from: decoder)
        guard let fields = json.fields, let createdAt = fields["createdAt"]?.text.flatMap(ParseDate.date(from:)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad Activity row"))
        }
        kind = fields["type"]?.text.flatMap(StoredActivity.Kind.init(rawValue:))
        fromUser = fields["fromUser"].flatMap { try? ParsePointer(json: $0).objectId }
        vote = fields["value"]?.number.flatMap { Int(exactly: $0) }.flatMap(Vote.init(value:))
        post = fields["post"].flatMap { try? ParsePostObject(json: $0) }.flatMap(SocialPost.init(record:))
        reply = fields["reply"].flatMap { try? ParsePostObject(json: $0) }.flatMap(SocialPost.init(record:))
        self.createdAt = createdAt
    }

    /// The feed of `rows` for the user `me`, newest first: each reply by someone else, the
    /// votes on each post gathered into one entry (at the time of the latest), each removal
    /// and restore. A row whose post could not be included (gone, or hidden) is left out.
    static func entries(_ rows: [ParseFeedRow], for me: String) -> [ActivityEntry] {
        var entries: [ActivityEntry] = []
        var votes: [String: (time: Date, post: Post, up: Int, down: Int)] = [:]
        for row in rows {
            guard let kind = row.kind, let post = row.post?.post else { continue }
            switch kind {
            case .reply where row.fromUser != me:
                entries.append(ActivityEntry(kind: .reply, time: row.createdAt, post: post, reply: row.reply?.post))
            case .vote:
                var gathered = votes[post.objectId] ?? (row.createdAt, post, 0, 0)
                gathered.time = max(gathered.time, row.createdAt)
                if row.vote == .up { gathered.up += 1 } else if row.vote == .down { gathered.down += 1 }
                votes[post.objectId] = gathered
            case .removed:
                entries.append(ActivityEntry(kind: .removed, time: row.createdAt, post: post))
            case .restored:
                entries.append(ActivityEntry(kind: .restored, time: row.createdAt, post: post))
            case .reply, .report:
                continue
            }
        }
        entries += votes.values.map { ActivityEntry(kind: .votes, time: $0.time, post: $0.post, up: $0.up, down: $0.down) }
        return entries.sorted { ($0.time, $1.kind.rawValue) > ($1.time, $0.kind.rawValue) }
    }
}
