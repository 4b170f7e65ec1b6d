import AnywallSupport
import HTTPTypes
import Hummingbird
import ParseWire
import WallDomain

/// The `Posts` class: `POST|GET /classes/Posts`, `GET|PUT|DELETE /classes/Posts/:id`. Posts are
/// public-read; only a signed-in user may post, and only a post's author may change or delete it.
struct PostRoutes {
    let wall: any WallStore
    let mount: String
    /// Whether `X-Parse-Request-Id` is kept, so that a retried request is refused as a duplicate
    /// (159) instead of done twice.
    let keepsRequestIds: Bool

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("classes/Posts") { request, context in try await create(request, context) }

        routes.get("classes/Posts") { request, context in
            let query = try PostQuery(parameters: QueryParameters.of(request))
            let (posts, count) = try await wall.find(query, for: context.caller.sessionToken)
            var answer: [String: JSONValue] = ["results": .array(posts.map {
                ParseRendering.post($0, includeUser: query.includeUser, keys: query.fields).json
            })]
            if let count { answer["count"] = .number(Double(count)) }
            return ParseAnswer.json(answer)
        }
        routes.get("classes/Posts/:objectId") { request, context in
            let objectId = try context.parameters.require("objectId")
            let query = try PostQuery(parameters: QueryParameters.of(request).filter { ["include", "keys", "excludeKeys"].contains($0.0) })
            guard let post = try await wall.post(objectId: objectId, for: context.caller.sessionToken) else { throw ParseRefusal.objectNotFound }
            return ParseAnswer.json(ParseRendering.post(post, includeUser: query.includeUser, keys: query.fields).json)
        }
        routes.put("classes/Posts/:objectId") { request, context in try await update(request, context) }
        routes.delete("classes/Posts/:objectId") { _, context in
            let objectId = try context.parameters.require("objectId")
            // Without a session nobody may write: the post is not found, as Parse says of a post its ACL hides from writing.
            guard let token = context.caller.sessionToken else { throw ParseRefusal.objectNotFound }
            try await wall.deletePost(objectId: objectId, token: token)
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

    private func create(_ request: Request, _ context: ParseContext) async throws -> Response {
        let body = try await RequestBody.object(request, context)
        guard let token = context.caller.sessionToken else {
            throw ParseRefusal(ParseErrorCode.operationForbidden, "Permission denied, user needs to be authenticated.")
        }
        let user = try await wall.user(token: token)
        try Self.checkFields(body, allowed: ["text", "location", "user", "ACL"], author: user.objectId)
        guard let text = body["text"] else { throw ParseRefusal(ParseErrorCode.validationFailed, "a post needs text") }
        guard let location = body["location"] else { throw ParseRefusal(ParseErrorCode.validationFailed, "a post needs a location") }
        let requestId = keepsRequestIds ? request.headers[HTTPField.Name(ParseHeader.requestId)!] : nil
        let (post, point) = (try await validText(text), try Self.point(location))
        let created = try await wall.createPost(text: post, at: point, token: token, requestId: requestId)
        return ParseAnswer.created(["objectId": .string(created.objectId), "createdAt": ParseRendering.date(created.createdAt)],
                                   path: "\(mount)/classes/Posts/\(created.objectId)", request: request)
    }

    private func update(_ request: Request, _ context: ParseContext) async throws -> Response {
        let objectId = try context.parameters.require("objectId")
        let body = try await RequestBody.object(request, context)
        guard let token = context.caller.sessionToken else { throw ParseRefusal.objectNotFound }
        let user = try await wall.user(token: token)
        try Self.checkFields(body, allowed: ["text", "location", "user", "ACL"], author: user.objectId)
        var newText: String?
        if let raw = body["text"] { newText = try await validText(raw) }
        let text = newText
        let point = try body["location"].map(Self.point)
        let requestId = keepsRequestIds ? request.headers[HTTPField.Name(ParseHeader.requestId)!] : nil
        let updatedAt = try await wall.updatePost(objectId: objectId, text: text, location: point, token: token, requestId: requestId)
        return ParseAnswer.json(["updatedAt": ParseRendering.date(updatedAt)])
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

    /// Refuses fields a post does not have, a `user` other than the caller, and an ACL other than
    /// public read with the author's write (a post can be neither private nor writable by others).
    private static func checkFields(_ body: [String: JSONValue], allowed: Set<String>, author: String) throws {
        if let extra = body.keys.first(where: { !allowed.contains($0) }) {
            throw ParseRefusal(ParseErrorCode.invalidKeyName, "a post has text, location and user, not \(extra)")
        }
        if let user = body["user"] {
            guard let pointer = try? ParsePointer(json: user), pointer == .user(author) else {
                throw ParseRefusal(ParseErrorCode.validationFailed, "a post's user is the user who posts it")
            }
        }
        if let json = body["ACL"] {
            guard PostAccess.accepts(try ParseACL(json: json).entries, authorId: author) else {
                throw ParseRefusal(ParseErrorCode.invalidACL, "Invalid ACL: posts are public-read and only their author may write them")
            }
        }
    }

    private static func point(_ json: JSONValue) throws -> GeoPoint {
        guard json.fields?["__type"] == .string("GeoPoint"), let fields = json.fields, let latitude = fields["latitude"]?.number,
              let longitude = fields["longitude"]?.number else {
            throw ParseRefusal(ParseErrorCode.incorrectType, "location must be a GeoPoint")
        }
        do {
            return try GeoPoint(latitude: latitude, longitude: longitude)
        } catch let error as AnywallError {
            throw ParseRefusal(ParseErrorCode.incorrectType, "bad GeoPoint: \(error.reason)")
        }
    }
}
