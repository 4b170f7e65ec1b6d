import Foundation
import AnywallSupport
import HTTPTypes
import Hummingbird
import ParseWire
import WallDomain

/// The `Posts` class: `POST|GET /classes/Posts`, `GET|PUT|DELETE /classes/Posts/:id`. Only a
/// signed-in user (its author) or the master key (a post without one) may post; each post has
/// Parse's ACL as it was sent (none when saved without one: everyone reads and writes), and a
/// post the caller may not read is found by no query and no fetch. Fields a client adds are kept,
/// typed by the Posts schema (`PostBody`).
struct PostRoutes {
    let wall: any WallStore
    let mount: String
    /// Whether `X-Parse-Request-Id` is kept, so that a retried request is refused as a duplicate
    /// (159) instead of done twice.
    let keepsRequestIds: Bool
    /// The JSON of posts already returned.
    let renderedPosts = PostJSONCache()

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("classes/Posts") { request, context in try await create(request, context) }

        routes.get("classes/Posts") { request, context in
            var query = try PostQuery(parameters: QueryParameters.of(request))
            query.reader = context.caller.reader
            if PostSearch.asksWhetherReaderModerates(query), let user = context.caller.user {
                query.readerModerates = try await wall.roleNames(ofUser: user.objectId).contains(RoleName.moderators)
            }
            let (posts, count) = try await ParseRefusal.refusingQuery { try await wall.find(query, session: context.caller.sessionToken) }
            let parents = try await includedParents(of: posts, query, context)
            return ParseAnswer.results(try posts.map { post in
                let json = try rendered(post, query, parents: parents)
                try context.answerBudget.take(json.count)
                return json
            }, count: count)
        }
        routes.get("classes/Posts/:objectId") { request, context in
            let objectId = try context.parameters.require("objectId")
            let query = try PostQuery(parameters: try QueryParameters.ofFetch(request))
            guard let post = try await wall.post(objectId: objectId, session: context.caller.sessionToken),
                  try await PostSightCheck(context, wall: wall).sees(post) else { throw ParseRefusal.objectNotFound }
            return ParseAnswer.encoded(try rendered(post, query, parents: try await includedParents(of: [post], query, context)))
        }
        routes.put("classes/Posts/:objectId") { request, context in try await update(request, context) }
        routes.delete("classes/Posts/:objectId") { _, context in
            try Self.requireAuthentication(context)
            // A post the caller may not write is not found, as Parse says of a post its ACL hides
            // from writing; a moderator deletes any, with its replies.
            let objectId = try context.parameters.require("objectId")
            if let token = context.caller.sessionToken, try await wall.isModerator(token: token) {
                try await wall.delete(objectId, token: token)
            } else {
                try await wall.deletePost(objectId: objectId, by: context.caller.writer)
            }
            renderedPosts.forget(objectId)
            return ParseAnswer.json([:])
        }
        for className in [":className", ":className/:objectId"] {
            let refuse: @Sendable (Request, ParseContext) async throws -> Response = { _, context in
                let name = try context.parameters.require("className")
                throw ParseRefusal(ParseErrorCode.operationForbidden, "This user is not allowed to access non-existent class: \(name)")
            }
            routes.on("classes/\(className)", method: .get, use: refuse)
            routes.on("classes/\(className)", method: .post, use: refuse)
            routes.on("classes/\(className)", method: .put, use: refuse)
            routes.on("classes/\(className)", method: .delete, use: refuse)
        }
    }

    /// The thread posts of `posts`' replies, included whole when `query` asks (`include=parent`)
    /// and the caller may read them; one the caller may not read stays a Pointer, as Parse leaves
    /// a pointer it cannot include.
    private func includedParents(of posts: [StoredPost], _ query: PostQuery, _ context: ParseContext) async throws -> [String: JSONValue] {
        guard query.includeParent else { return [:] }
        var included: [String: JSONValue] = [:]
        for objectId in Set(posts.compactMap(\.parent)) {
            guard let parent = try await wall.post(objectId: objectId, session: context.caller.sessionToken),
                  try await PostSightCheck(context, wall: wall).sees(parent) else { continue }
            included[objectId] = ParseRendering.included(parent, includeUser: query.includeParentUser)
        }
        return included
    }

    /// The post's JSON as `query` renders it, its parent included from `parents` when there.
    private func rendered(_ post: StoredPost, _ query: PostQuery, parents: [String: JSONValue]) throws -> Data {
        guard let parent = post.parent, let included = parents[parent] else { return try rendered(post, query) }
        var object = ParseRendering.post(post, includeUser: query.includeUser, keys: query.keys, excludeKeys: query.excludeKeys)
        // Only where the fields asked for hold the parent.
        if object.extra["parent"] != nil { object.extra["parent"] = included }
        return try ParseAnswer.encoder.encode(object.json)
    }

    /// The post's JSON as `query` renders it, from the cache when it was rendered so before.
    private func rendered(_ post: StoredPost, _ query: PostQuery) throws -> Data {
        let rendering = PostJSONCache.Rendering(includeUser: query.includeUser, keys: query.keys, excludeKeys: query.excludeKeys)
        return try renderedPosts.json(post, rendering) {
            try ParseAnswer.encoder.encode(ParseRendering.post(post, includeUser: query.includeUser, keys: query.keys,
                                                               excludeKeys: query.excludeKeys).json)
        }
    }

    /// The Posts class's permissions as `/schemas` gives them: creating, updating and deleting
    /// require a signed-in user (or the master key), refused as Parse Server refuses them.
    private static func requireAuthentication(_ context: ParseContext) throws {
        guard context.caller.isMaster || context.caller.user != nil else {
            throw ParseRefusal(ParseErrorCode.objectNotFound, "Permission denied, user needs to be authenticated.")
        }
    }

    private func create(_ request: Request, _ context: ParseContext) async throws -> Response {
        // As Parse Server: a body that is not JSON first (107), then the class's permissions.
        let object = try await RequestBody.object(request, context)
        try Self.requireAuthentication(context)
        let body = try PostBody(object)
        // A session's user is the author of what it posts; the master key alone posts without an
        // author, as on Parse Server.
        let writer: PostWriter
        if let token = context.caller.sessionToken, let user = context.caller.user {
            try body.checkAuthor(user.objectId)
            writer = .session(token)
        } else {
            try body.checkAuthor(nil)
            writer = .master
        }
        if let name = body.protectedChanges.keys.sorted().first { throw ParseRefusal.protectedField(name) }
        guard let text = body.text else { throw ParseRefusal(ParseErrorCode.validationFailed, "a post needs text") }
        guard let location = body.location else { throw ParseRefusal(ParseErrorCode.validationFailed, "a post needs a location") }
        if let parent = body.parent { return try await reply(to: parent, text: text, at: location, body, request, context) }
        var fields: [String: JSONValue] = [:]
        for (name, change) in body.fields {
            if let value = try Self.refusingMismatch({ try change.applied(to: nil, field: name) }) { fields[name] = value }
        }
        try StoredFields.checkSize(fields)
        let requestId = RequestIdScope.key(request, context, keeping: keepsRequestIds)
        // Saved without an ACL, a post has none: everyone's to read and write, as Parse keeps an object.
        let draft = PostDraft(text: try await validText(text), location: location, access: body.access ?? .everyone, fields: fields)
        let created = try await wall.createPost(draft, by: writer, requestId: requestId)
        return ParseAnswer.created(["objectId": .string(created.objectId), "createdAt": ParseRendering.date(created.createdAt)],
                                   path: "\(mount)/classes/Posts/\(created.objectId)", request: request)
    }

    /// A reply: a post with a `parent`, in its thread as the social layer's rules allow it. It
    /// takes its thread's readers (the ACL sent is not kept) and holds no fields of its own.
    private func reply(to parent: String, text: JSONValue, at location: GeoPoint, _ body: PostBody, _ request: Request,
                       _ context: ParseContext) async throws -> Response {
        guard let token = context.caller.sessionToken, context.caller.user != nil else {
            throw ParseRefusal(ParseErrorCode.validationFailed, "a reply needs a signed-in user")
        }
        guard body.fields.isEmpty else { throw ParseRefusal(ParseErrorCode.validationFailed, "a reply holds its text and location only") }
        let created = try await wall.reply(to: parent, text: try await validText(text), at: location, token: token)
        return ParseAnswer.created(["objectId": .string(created.objectId), "createdAt": ParseRendering.date(created.createdAt)],
                                   path: "\(mount)/classes/Posts/\(created.objectId)", request: request)
    }

    /// A moderator's removal (`removed` set to `moderator`) or restore (`removed` deleted, with
    /// `restoredAt`, whose time the wall sets, or without), the one change of protected fields a
    /// client may ask, alone.
    private func moderate(_ objectId: String, _ body: PostBody, _ context: ParseContext) async throws -> Response? {
        guard let change = body.protectedChanges["removed"], Set(body.protectedChanges.keys).isSubset(of: ["removed", "restoredAt"]), body.fields.isEmpty,
              body.text == nil, body.location == nil, body.access == nil, body.parent == nil,
              let token = context.caller.sessionToken, try await wall.isModerator(token: token) else { return nil }
        switch change {
        case .set(.string(PostRemoval.moderator.rawValue)): try await wall.moderate(objectId, .remove, token: token)
        case .delete: try await wall.moderate(objectId, .restore, token: token)
        default: throw ParseRefusal(ParseErrorCode.validationFailed, "a moderator sets removed to \"moderator\", or deletes it to restore the post")
        }
        renderedPosts.forget(objectId)
        return ParseAnswer.json(["updatedAt": ParseRendering.date(Date())])
    }

    private func update(_ request: Request, _ context: ParseContext) async throws -> Response {
        let objectId = try context.parameters.require("objectId")
        let object = try await RequestBody.object(request, context)
        try Self.requireAuthentication(context)
        let body = try PostBody(object)
        if let moderated = try await moderate(objectId, body, context) { return moderated }
        if let name = body.protectedChanges.keys.sorted().first { throw ParseRefusal.protectedField(name) }
        if body.parent != nil { throw ParseRefusal.protectedField("parent") }
        if body.author != nil {
            guard let user = context.caller.user else { throw ParseRefusal(ParseErrorCode.validationFailed, "a post's user is the user who posts it") }
            try body.checkAuthor(user.objectId)
        }
        var changes = PostChanges(location: body.location, access: body.access, fields: body.fields)
        if let text = body.text { changes.text = try await validText(text) }
        let requestId = RequestIdScope.key(request, context, keeping: keepsRequestIds)
        let updated = try await wall.updatePost(objectId: objectId, changes: changes, by: context.caller.writer, requestId: requestId)
        // As Parse Server answers: the value an operation (Increment, Add, AddUnique, Remove) left.
        var answer: [String: JSONValue] = ["updatedAt": ParseRendering.date(updated.updatedAt)]
        for (name, change) in body.fields where change.isComputed { answer[name] = updated.fields[name] }
        return ParseAnswer.json(answer)
    }

    /// The value of `body`, a type mismatch refused with Parse's 111.
    private static func refusingMismatch<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as AnywallError {
            throw ParseRefusal(error) ?? ParseRefusal.internalError
        }
    }

    /// The text, if it is a post's text by the wall's rules and its config's length.
    private func validText(_ json: JSONValue) async throws -> String {
        guard let text = json.string else { throw ParseRefusal(ParseErrorCode.incorrectType, "text must be a String") }
        let config = try await wall.config()
        do {
            return try PostText.validated(text, maxCharacters: config.postMaxCharacterCount)
        } catch let error as AnywallError {
            throw ParseRefusal(ParseErrorCode.validationFailed, error.reason)
        }
    }
}
