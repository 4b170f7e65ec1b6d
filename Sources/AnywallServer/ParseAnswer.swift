import AnywallSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParseWire
import WallDomain

/// Answers in Parse Server's form: compact JSON, `application/json; charset=utf-8`.
enum ParseAnswer {
    /// Compact JSON with sorted keys: every answer and every log line.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `body` as JSON with `status`; `contentType: false` sends it raw, as Parse's refused-key 403.
    static func json(_ body: [String: JSONValue], status: HTTPResponse.Status = .ok, contentType: Bool = true,
                             headers: HTTPFields = [:]) -> Response {
        json(JSONValue.object(body), status: status, contentType: contentType, headers: headers)
    }

    /// Any JSON value as the body.
    static func json(_ body: JSONValue, status: HTTPResponse.Status = .ok, contentType: Bool = true,
                             headers: HTTPFields = [:]) -> Response {
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        var fields = headers
        if contentType { fields[.contentType] = "application/json; charset=utf-8" }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 201 Created for a new object, with its `Location` as Parse builds it from the request's Host.
    static func created(_ body: [String: JSONValue], path: String, request: Request) -> Response {
        let host = request.head.authority ?? "localhost"
        var headers = HTTPFields()
        headers[.location] = "http://\(host)\(path)"
        return json(body, status: .created, headers: headers)
    }
}
