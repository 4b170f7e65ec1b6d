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

    /// An answer already encoded as JSON (by `encoder`).
    static func encoded(_ body: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A find's answer, `{"count":N,"results":[...]}` with its keys in order as every answer has
    /// them, from results each already encoded as JSON (by `encoder`, kept in `PostJSONCache`).
    static func results(_ encoded: [Data], count: Int?) -> Response {
        var body = ByteBuffer()
        body.writeString(count.map { #"{"count":\#($0),"results":["# } ?? #"{"results":["#)
        for (index, result) in encoded.enumerated() {
            if index > 0 { body.writeString(",") }
            body.writeBytes(result)
        }
        body.writeString("]}")
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: body))
    }

    /// 201 Created for a new object, with its `Location` as Parse builds it from the request's Host.
    static func created(_ body: [String: JSONValue], path: String, request: Request) -> Response {
        let host = request.head.authority ?? "localhost"
        var headers = HTTPFields()
        headers[.location] = "http://\(host)\(path)"
        return json(body, status: .created, headers: headers)
    }
}
