import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// One HTTP request, as a server client builds it.
public struct HTTPRequest: Sendable {
    /// The methods anywall's clients use.
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    public let method: Method
    public let url: String
    /// Header lines in the order they are sent.
    public let headers: [(name: String, value: String)]
    public let body: Data?

    public init(method: Method, url: String, headers: [(name: String, value: String)], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Whether sending it twice does no more than sending it once, so a failure may be retried
    /// at once (RFC 9110: GET is safe; anywall sends no other safe method).
    public var isSafeToRepeat: Bool { method == .get }
}

/// A server's answer: the status and the body, decompressed.
public struct HTTPResponse: Sendable {
    public let status: Int
    public let body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}
