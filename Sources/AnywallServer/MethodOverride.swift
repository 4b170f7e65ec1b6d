import AnywallSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParseWire
import WallDomain

/// The JavaScript SDK's way of sending every request: a POST whose JSON body (of any content
/// type, usually text/plain) carries the request's method and keys beside its fields. This turns
/// it into the request it stands for, as Parse Server's `allowMethodOverride` and
/// `handleParseHeaders` do, and gives that to the router:
/// - `_method` is the method; for a GET the other fields become the query string;
/// - when the request has no (or another) application id header and the body's `_ApplicationId`
///   is this server's (and no other master key header is sent), the body's keys become the Parse
///   headers, and `_context` must be an object (107 "Invalid object for context." otherwise);
/// - `_RevocableSession` is dropped: every anywall session is revocable, as Parse Server's are.
/// The body is read within `RequestBody`'s bound and deadline. Hummingbird matches a route before
/// its router middleware runs, so the new request is dispatched through the router anew.
struct MethodOverride: RouterMiddleware {
    typealias Context = ParseContext
    let keys: ServerKeys
    let dispatch: RouterDispatch

    /// The body's keys that stand for headers as they are (`_ApplicationId`, `_context` and
    /// `_ContentType` are read apart).
    private static let headerKeys: [(key: String, header: String)] = [
        ("_JavaScriptKey", ParseHeader.javascriptKey), ("_ClientVersion", ParseHeader.clientVersion),
        ("_InstallationId", ParseHeader.installationId), ("_SessionToken", ParseHeader.sessionToken),
        ("_MasterKey", ParseHeader.masterKey),
    ]

    func handle(_ request: Request, context: ParseContext, next: (Request, ParseContext) async throws -> Response) async throws -> Response {
        guard request.method == .post, !context.isDispatched else { return try await next(request, context) }
        let buffer: ByteBuffer
        do {
            buffer = try await RequestBody.bytes(request, context)
        } catch {
            return try ParseErrors.answer(error, to: request, context: context)
        }
        var request = request
        request.body = Hummingbird.RequestBody(buffer: buffer)
        guard case .object(var fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView)) else {
            // Not a JSON object: the route refuses it in its own words.
            return try await next(request, context)
        }
        var headers = request.headers
        var changed = false
        if !KeyCheck.same(headers[HTTPField.Name(ParseHeader.applicationId)!], keys.applicationId) {
            fields["_RevocableSession"] = nil
            do {
                try Self.moveKeys(from: &fields, to: &headers, keys: keys)
            } catch {
                return error.response
            }
            changed = true
        }
        var method = HTTPRequest.Method.post
        if let named = fields["_method"], named.isTruthy {
            // What Express does with a method it has no route for: no route is found.
            guard let name = named.string, let overridden = HTTPRequest.Method(name.uppercased()) else { throw HTTPError(.notFound) }
            fields["_method"] = nil
            method = overridden
            changed = true
        }
        guard changed else { return try await next(request, context) }
        return try await dispatch.respond(to: Self.request(request, method: method, headers: headers, fields: fields), context: context).response
    }

    /// Moves the body's keys into `headers`. Without a header naming this server's application,
    /// the body must (and no other master key header be sent), or the request is refused as the
    /// key check refuses it; a `_context` that is not an object is refused too.
    private static func moveKeys(from fields: inout [String: JSONValue], to headers: inout HTTPFields, keys: ServerKeys) throws(ParseRefusal) {
        let masterKeyHeader = HTTPField.Name(ParseHeader.masterKey)!
        guard let applicationId = fields["_ApplicationId"]?.string, KeyCheck.same(applicationId, keys.applicationId),
              headers[masterKeyHeader] == nil || KeyCheck.same(headers[masterKeyHeader], keys.masterKey) else {
            throw .unauthorized
        }
        headers[HTTPField.Name(ParseHeader.applicationId)!] = applicationId
        fields["_ApplicationId"] = nil
        for (key, header) in headerKeys {
            guard let value = fields.removeValue(forKey: key) else { continue }
            if value.isTruthy { headers[HTTPField.Name(header)!] = text(value) }
        }
        if let context = fields.removeValue(forKey: "_context"), context.isTruthy {
            // anywall runs no cloud code to hand it to, but refuses what Parse Server refuses.
            let object = context.string.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) } ?? context
            guard object.fields != nil else { throw ParseRefusal(ParseErrorCode.invalidJSON, "Invalid object for context.") }
        }
        if let contentType = fields.removeValue(forKey: "_ContentType"), contentType.isTruthy {
            headers[.contentType] = text(contentType)
        }
    }

    /// The request `request` stands for: a GET's fields in its query string, any other's as its body.
    private static func request(_ request: Request, method: HTTPRequest.Method, headers: HTTPFields, fields: [String: JSONValue]) -> Request {
        var head = request.head
        head.method = method
        head.headerFields = headers
        head.headerFields[.transferEncoding] = nil
        var body = ByteBuffer()
        if method == .get {
            if !fields.isEmpty {
                let query = QueryParameters.encoded(fields)
                let path = request.uri.path
                head.path = path + "?" + (request.uri.query.map { $0 + "&" } ?? "") + query
            }
            head.headerFields[.contentLength] = nil
        } else {
            body = ByteBuffer(bytes: (try? ParseAnswer.encoder.encode(JSONValue.object(fields))) ?? Data("{}".utf8))
            head.headerFields[.contentLength] = String(body.readableBytes)
        }
        return Request(head: head, body: Hummingbird.RequestBody(buffer: body))
    }

    /// A key's value as header text: a string as it is, anything else as its JSON.
    private static func text(_ value: JSONValue) -> String {
        value.string ?? String(decoding: (try? ParseAnswer.encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}
