import AnywallSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParseWire
import WallDomain

/// `POST /batch`: several requests in one, answered as an array with one `{"success":...}` or
/// `{"error":{"code":N,"error":"..."}}` per request, in order, by Parse Server's rules (its
/// batch.js). Each sub-request goes through the router with the caller's headers, so every
/// route's rules apply to it as to a request of its own; they run one after another.
struct BatchRoutes {
    /// The most sub-requests in a batch without the master key. Parse Server's
    /// `requestComplexity.batchRequestLimit`, unlimited unless set there; Parse's own service took
    /// 50, and the SDKs send 20 or fewer at a time.
    static let maxRequests = 50

    /// The prefix every sub-request's path starts with: the mount, as `/parse`, or empty.
    let mount: String
    let dispatch: RouterDispatch

    /// One sub-request, its path made routable.
    private struct SubRequest {
        let method: JSONValue?
        let path: String
        let body: JSONValue?
    }

    func register(on routes: RouterGroup<ParseContext>) {
        routes.post("batch") { request, context in
            let subRequests = try plan(try await RequestBody.value(request, context), isMaster: context.caller.isMaster)
            // The answers as the routes wrote them, not decoded: their sizes are bounded by the
            // batch's one `AnswerBudget`, which decoded values would take several times over.
            var body = ByteBuffer(string: "[")
            for (index, subRequest) in subRequests.enumerated() {
                if index > 0 { body.writeString(",") }
                var answer = try await answer(subRequest, for: request, context: context)
                body.writeBuffer(&answer)
            }
            body.writeString("]")
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: body))
        }
    }

    /// The sub-requests, or Parse's refusal of the whole batch (107), checked in Parse's order.
    private func plan(_ body: JSONValue, isMaster: Bool) throws(ParseRefusal) -> [SubRequest] {
        guard case .array(let requests)? = body.fields?["requests"] else {
            throw ParseRefusal(ParseErrorCode.invalidJSON, "requests must be an array")
        }
        if !isMaster, requests.count > Self.maxRequests {
            throw ParseRefusal(ParseErrorCode.invalidJSON,
                               "Batch request contains \(requests.count) sub-requests, which exceeds the limit of \(Self.maxRequests).")
        }
        let described: [(fields: [String: JSONValue], path: String)] = try requests.map { request throws(ParseRefusal) in
            guard let fields = request.fields, let path = fields["path"]?.string else {
                throw ParseRefusal(ParseErrorCode.invalidJSON, "batch request path must be a string")
            }
            return (fields, path)
        }
        return try described.map { fields, path throws(ParseRefusal) in
            guard let routable = Self.routablePath(path, under: mount) else {
                throw ParseRefusal(ParseErrorCode.invalidJSON, "cannot route batch path \(path)")
            }
            // A trailing slash reaches the same route, so it is no way around the rule.
            let isBatch = routable == "/batch" || routable == "/batch/"
            if isBatch, (fields["method"].map { $0.string ?? "" } ?? "GET").uppercased() == "POST" {
                throw ParseRefusal(ParseErrorCode.invalidJSON, "nested batch requests are not allowed")
            }
            return SubRequest(method: fields["method"], path: routable, body: fields["body"])
        }
    }

    /// `path` without the mount, as a path from the API's root with `.` and `..` resolved (never
    /// above the root) and repeated slashes as one, as Node's `path.posix.join` makes it; nil
    /// when it does not start with the mount.
    static func routablePath(_ path: String, under mount: String) -> String? {
        guard path.utf8.starts(with: mount.utf8) else { return nil }
        let rest = String(decoding: path.utf8.dropFirst(mount.utf8.count), as: UTF8.self)
        var segments: [Substring] = []
        for segment in rest.split(separator: "/") where segment != "." {
            if segment == ".." {
                _ = segments.popLast()
            } else {
                segments.append(segment)
            }
        }
        let joined = "/" + segments.joined(separator: "/")
        return rest.hasSuffix("/") && joined != "/" ? joined + "/" : joined
    }

    /// The answer to one sub-request, sent with the batch's headers (but its own body) under the
    /// mount. A method or path no route takes refuses the whole batch, as Parse Server does.
    private func answer(_ subRequest: SubRequest, for batch: Request, context: ParseContext) async throws -> ByteBuffer {
        let methodName = subRequest.method.map { $0.string ?? Self.text($0) } ?? "undefined"
        let cannotRoute = ParseRefusal(ParseErrorCode.invalidJSON, "cannot route \(methodName) \(subRequest.path)")
        // Parse Server routes the method as sent: "get" is no route.
        guard let name = subRequest.method?.string, let method = HTTPRequest.Method(name),
              let escaped = subRequest.path.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) else {
            throw cannotRoute
        }
        var head = batch.head
        head.method = method
        head.path = mount + escaped
        // The body is the sub-request's; a request id is the batch's, so none of its sub-requests
        // carries it (Parse Server's do not either: one id on every create would refuse all but the first).
        for name in [HTTPField.Name.contentLength, .transferEncoding, .contentType, HTTPField.Name(ParseHeader.requestId)!] {
            head.headerFields[name] = nil
        }
        var body = ByteBuffer()
        if method == .get {
            if let fields = subRequest.body?.fields, !fields.isEmpty {
                head.path = (head.path ?? "") + "?" + QueryParameters.encoded(fields)
            }
        } else if let json = subRequest.body {
            body = ByteBuffer(bytes: (try? ParseAnswer.encoder.encode(json)) ?? Data())
            head.headerFields[.contentType] = "application/json"
            head.headerFields[.contentLength] = String(body.readableBytes)
        }
        let (response, routed) = try await dispatch.respond(to: Request(head: head, body: Hummingbird.RequestBody(buffer: body)),
                                                            context: context)
        guard routed else { throw cannotRoute }
        var collected = try await Self.body(of: response)
        if (200..<300).contains(response.status.code) {
            var success = ByteBuffer(string: #"{"success":"#)
            if collected.readableBytes == 0 { success.writeString("{}") } else { success.writeBuffer(&collected) }
            success.writeString("}")
            return success
        }
        let answer = (try? JSONDecoder().decode(JSONValue.self, from: Data(collected.readableBytesView))) ?? .object([:])
        var error: [String: JSONValue] = ["error": answer.fields?["error"] ?? answer.fields?["message"] ?? .string(response.status.reasonPhrase)]
        if let code = answer.fields?["code"] { error["code"] = code }
        return ByteBuffer(bytes: (try? ParseAnswer.encoder.encode(JSONValue.object(["error": .object(error)]))) ?? Data("{}".utf8))
    }

    /// The characters a path keeps as they are: a `?` or `#` in a batch path is part of the path.
    private static let pathCharacters = CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: "%"))

    /// A JSON value as Parse Server's messages print it.
    private static func text(_ value: JSONValue) -> String {
        String(decoding: (try? ParseAnswer.encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    /// A sub-request's answer as the route wrote it.
    private static func body(of response: Response) async throws -> ByteBuffer {
        let collected = CollectedBody()
        try await response.body.write(BodyCollector(into: collected))
        return collected.buffer
    }
}

/// Where a sub-request's answer is gathered, in memory: the server's own answers, already bounded.
private final class CollectedBody: @unchecked Sendable {
    // Written by one writer, read after it finished.
    var buffer = ByteBuffer()
}

/// Writes a response's body into a `CollectedBody`.
private struct BodyCollector: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        into.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
