import Foundation
import Hummingbird
import ParseWire
import WallDomain

/// The `Activity` class (Anypic's one join table): `POST|GET /classes/Activity`,
/// `GET|PUT|DELETE /classes/Activity/:id`. A client writes votes and reports; the server keeps
/// the counters they move and the reply notices, as a Cloud Code `afterSave` would. Every row is
/// a signed-in user's, and each reader gets only the rows the rules let them read.
struct ActivityRoutes {
    let wall: any WallStore
    let mount: String

    /// The fields a client may send in an `Activity` object; the server sets the rest.
    private static let writableFields: Set<String> = ["type", "post", "fromUser", "toUser", "value", "reason", "note", "location", "ACL"]

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("classes/Activity") { request, context in
            let (token, me) = try signedIn(context)
            let object = try Self.checked(try await RequestBody.object(request, context), by: me)
            guard let post = try Self.pointer(object["post"], to: "Posts", field: "post") else {
                throw ParseRefusal(ParseErrorCode.validationFailed, "an Activity needs the post it is about")
            }
            let location = try Self.location(object["location"])
            let row: StoredActivity?
            switch object["type"] {
            case .string(StoredActivity.Kind.vote.rawValue)?:
                row = try await wall.vote(try Self.vote(object["value"]), on: post, from: location, token: token)
            case .string(StoredActivity.Kind.report.rawValue)?:
                guard let location else { throw ParseRefusal(ParseErrorCode.validationFailed, "a report needs the location it is made from") }
                row = try await wall.report(post, reason: try Self.reason(object["reason"]), note: try Self.note(object["note"]),
                                            from: location, token: token)
            case .string(StoredActivity.Kind.reply.rawValue)?:
                throw ParseRefusal(ParseErrorCode.operationForbidden, "reply notices are the wall's own: post a reply (a Posts object with a parent)")
            case .string(StoredActivity.Kind.removed.rawValue)?, .string(StoredActivity.Kind.restored.rawValue)?:
                throw ParseRefusal(ParseErrorCode.operationForbidden, "removals are the wall's own: moderators change a post's removed")
            default:
                throw ParseRefusal(ParseErrorCode.validationFailed, "an Activity's type is vote or report")
            }
            guard let row else { throw ParseRefusal.internalError }
            return ParseAnswer.created(["objectId": .string(row.objectId), "createdAt": ParseRendering.date(row.createdAt)],
                                       path: "\(mount)/classes/Activity/\(row.objectId)", request: request)
        }
        routes.get("classes/Activity") { request, context in
            let token = try signedIn(context).token
            let query = try ActivityQuery(parameters: QueryParameters.of(request))
            let rows = try await wall.activities(query.filter, skip: query.skip, limit: query.limit, token: token)
            guard query.includesPosts else { return ParseAnswer.json(["results": .array(rows.map { Self.json($0) })]) }
            // Each post and reply once, as the caller may read it: one the caller may not read
            // stays a Pointer, as Parse leaves a pointer it cannot include.
            var included: [String: JSONValue] = [:]
            for objectId in Set(rows.flatMap { [$0.post] + ($0.reply.map { [$0] } ?? []) }) {
                guard let post = try await wall.post(objectId: objectId, session: token), try await PostSightCheck(context, wall: wall).sees(post) else { continue }
                included[objectId] = ParseRendering.included(post, includeUser: query.includesAuthors)
            }
            let results = rows.map { Self.json($0, included: included) }
            return ParseAnswer.json(["results": .array(results)])
        }
        routes.get("classes/Activity/:objectId") { _, context in
            let token = try signedIn(context).token
            let objectId = try context.parameters.require("objectId")
            guard let row = try await wall.activities(ActivityFilter(objectId: objectId), skip: 0, limit: 1, token: token).first else {
                throw ParseRefusal.objectNotFound
            }
            return ParseAnswer.json(Self.json(row, included: [:]))
        }
        routes.put("classes/Activity/:objectId") { request, context in
            let (token, me) = try signedIn(context)
            let objectId = try context.parameters.require("objectId")
            let object = try Self.checked(try await RequestBody.object(request, context), by: me)
            // A vote changes its value; a report is filed again (its reason and note), counting once.
            guard let current = try await wall.activities(ActivityFilter(objectId: objectId, fromUser: me.objectId), skip: 0, limit: 1, token: token).first,
                  current.kind == .vote || current.kind == .report else { throw ParseRefusal.objectNotFound }
            if let post = try Self.pointer(object["post"], to: "Posts", field: "post"), post != current.post {
                throw ParseRefusal(ParseErrorCode.operationForbidden, "an Activity's post does not change")
            }
            let location = try Self.location(object["location"])
            let row: StoredActivity?
            if current.kind == .report {
                guard let location else { throw ParseRefusal(ParseErrorCode.validationFailed, "a report needs the location it is made from") }
                row = try await wall.report(current.post, reason: try Self.reason(object["reason"]), note: try Self.note(object["note"]),
                                            from: location, token: token)
            } else {
                row = try await wall.changeVote(objectId, to: try Self.vote(object["value"]), from: location, token: token)
            }
            return ParseAnswer.json(["updatedAt": ParseRendering.date(row?.createdAt ?? Date())])
        }
        routes.delete("classes/Activity/:objectId") { _, context in
            let token = try signedIn(context).token
            _ = try await wall.changeVote(try context.parameters.require("objectId"), to: .none, from: nil, token: token)
            return ParseAnswer.json([:])
        }
    }

    /// The caller's session and user: every `Activity` row is a signed-in user's.
    private func signedIn(_ context: ParseContext) throws -> (token: String, user: StoredUser) {
        guard let token = context.caller.sessionToken, let user = context.caller.user else {
            throw ParseRefusal(ParseErrorCode.sessionMissing, "an Activity is a signed-in user's: log in first")
        }
        return (token, user)
    }

    /// `object`, refused when it names a field a client may not send or another user as `fromUser`.
    private static func checked(_ object: [String: JSONValue], by me: StoredUser) throws -> [String: JSONValue] {
        if let name = object.keys.sorted().first(where: { !writableFields.contains($0) }) {
            guard FieldType.isFieldName(name) else { throw ParseRefusal(ParseErrorCode.invalidKeyName, "Invalid field name: \(name).") }
            throw ParseRefusal(ParseErrorCode.operationForbidden, "Clients aren't allowed to manually update \(name).")
        }
        if let from = try pointer(object["fromUser"], to: RecordClass.users.rawValue, field: "fromUser"), from != me.objectId {
            throw ParseRefusal(ParseErrorCode.validationFailed, "an Activity's fromUser is the user who sends it")
        }
        return object
    }

    static func pointer(_ value: JSONValue?, to className: String, field: String) throws -> String? {
        guard let value else { return nil }
        guard let pointer = try? ParsePointer(json: value), pointer.className == className else {
            throw ParseRefusal(ParseErrorCode.incorrectType, "schema mismatch for Activity.\(field); expected Pointer<\(className)>")
        }
        return pointer.objectId
    }

    private static func location(_ value: JSONValue?) throws -> GeoPoint? {
        guard let value else { return nil }
        guard let fields = value.fields, fields["__type"] == .string("GeoPoint"),
              let latitude = fields["latitude"]?.number, let longitude = fields["longitude"]?.number,
              let point = try? GeoPoint(latitude: latitude, longitude: longitude) else {
            throw ParseRefusal(ParseErrorCode.incorrectType, "This is not a valid GeoPoint")
        }
        return point
    }

    private static func vote(_ value: JSONValue?) throws -> Vote {
        guard let number = value?.number, let whole = Int(exactly: number), let vote = Vote(value: whole) else {
            throw ParseRefusal(ParseErrorCode.validationFailed, "a vote's value is 1 or -1")
        }
        return vote
    }

    private static func reason(_ value: JSONValue?) throws -> ReportReason {
        guard case .string(let text)? = value, let reason = ReportReason(rawValue: text) else {
            throw ParseRefusal(ParseErrorCode.validationFailed,
                               "a report's reason is one of \(ReportReason.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return reason
    }

    private static func note(_ value: JSONValue?) throws -> String? {
        switch value {
        // Parse's Delete: a report filed again without the note it had.
        case nil, .null?, .object(["__op": .string("Delete")])?: return nil
        case .string(let text)?: return text
        default: throw ParseRefusal(ParseErrorCode.incorrectType, "schema mismatch for Activity.note; expected String")
        }
    }

    /// A row as Parse returns an object, with the ACL the rules give it: a vote is its voter's
    /// (told to the post's author without them); a report, its reporter's and the moderators'; a
    /// reply notice, its two users' (and, by the rules rather than its ACL, whoever replied in
    /// its thread); a removal or restore, its author's.
    static func json(_ row: StoredActivity, included: [String: JSONValue] = [:]) -> JSONValue {
        var fields: [String: JSONValue] = [
            "objectId": .string(row.objectId), "type": .string(row.kind.rawValue),
            "post": included[row.post] ?? ParsePointer(className: "Posts", objectId: row.post).json,
            "createdAt": ParseRendering.date(row.createdAt), "updatedAt": ParseRendering.date(row.createdAt),
        ]
        if let from = row.fromUser { fields["fromUser"] = ParsePointer.user(from).json }
        if let to = row.toUser { fields["toUser"] = ParsePointer.user(to).json }
        if let reply = row.reply { fields["reply"] = included[reply] ?? ParsePointer(className: "Posts", objectId: reply).json }
        if let vote = row.vote { fields["value"] = .number(Double(vote.value)) }
        if let reason = row.reason { fields["reason"] = .string(reason.rawValue) }
        if let note = row.note { fields["note"] = .string(note) }
        var acl: [String: JSONValue] = [:]
        let readWrite: JSONValue = .object(["read": .bool(true), "write": .bool(true)])
        let read: JSONValue = .object(["read": .bool(true)])
        switch row.kind {
        case .vote: if let from = row.fromUser { acl[from] = readWrite }
        case .report:
            if let from = row.fromUser { acl[from] = readWrite }
            acl["role:moderators"] = read
        case .reply:
            if let from = row.fromUser { acl[from] = read }
            if let to = row.toUser { acl[to] = read }
        case .removed, .restored:
            if let to = row.toUser { acl[to] = read }
        }
        if !acl.isEmpty { fields["ACL"] = .object(acl) }
        return .object(fields)
    }
}
