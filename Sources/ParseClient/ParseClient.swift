import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// Requests to one Parse Server over libcurl: the REST headers, JSON both ways, Parse's error
/// answers, and quick retries of requests that are safe to repeat.
final class ParseClient {
    /// Tries of a safe request that meets a transient failure, and the wait before the first retry
    /// (doubled after each): enough for a server restart or a dropped keep-alive connection,
    /// short enough that a user at a shell is not kept waiting.
    static let attempts = 3
    static let firstRetryDelay = Duration.milliseconds(250)

    let server: ParseServer
    private let http: CurlClient
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    init(server: ParseServer, timeouts: HTTPTimeouts) throws {
        self.server = server
        http = try CurlClient(timeouts: timeouts)
    }

    /// Who to name in messages.
    var serverName: String { "the Parse Server at \(server.url)" }

    /// Sends a request and decodes a 2xx answer as `T`.
    func send<T: Decodable>(
        _ method: HTTPRequest.Method, _ path: String, query: [(name: String, value: String)] = [],
        body: (any Encodable)? = nil, sessionToken: String? = nil, masterKey: String? = nil,
        requestId: String? = nil, revocableSession: Bool = false, sendsPassword: Bool = false, as type: T.Type
    ) throws(ParseFailure) -> T {
        try exchange(method, path, query: query, body: body, sessionToken: sessionToken, masterKey: masterKey, requestId: requestId,
                     revocableSession: revocableSession, sendsPassword: sendsPassword, as: type).answer
    }

    /// Sends a request and decodes a 2xx answer as `T`, with its status (Parse's sign-up with
    /// `authData` answers 201 for a new user, 200 for one logged in).
    func exchange<T: Decodable>(
        _ method: HTTPRequest.Method, _ path: String, query: [(name: String, value: String)] = [],
        body: (any Encodable)? = nil, sessionToken: String? = nil, masterKey: String? = nil,
        requestId: String? = nil, revocableSession: Bool = false, sendsPassword: Bool = false, as type: T.Type
    ) throws(ParseFailure) -> (answer: T, status: Int) {
        if server.sendsInClear, sendsPassword || sessionToken != nil || masterKey != nil {
            throw .cleartext("refusing to send \(sendsPassword ? "a password" : masterKey != nil ? "the master key" : "your session") to "
                             + "\(server.url) over unencrypted http://: anyone on the network could read it; use https:// "
                             + "(anywall-server behind a TLS proxy: docs/server.md)")
        }
        var headers = [(name: ParseHeader.applicationId, value: server.applicationId)]
        if let restKey = server.restKey { headers.append((ParseHeader.restKey, restKey)) }
        if let masterKey { headers.append((ParseHeader.masterKey, masterKey)) }
        if let sessionToken { headers.append((ParseHeader.sessionToken, sessionToken)) }
        if let requestId { headers.append((ParseHeader.requestId, requestId)) }
        if revocableSession { headers.append((ParseHeader.revocableSession, "1")) }
        var data: Data?
        if let body {
            headers.append(("Content-Type", "application/json"))
            do { data = try encoder.encode(body) } catch { throw .malformed("cannot encode the request: \(error)") }
        }
        let request = HTTPRequest(method: method, url: server.endpoint(path, query: query), headers: headers, body: data)
        let response = try perform(request)
        guard (200..<300).contains(response.status) else { throw refusal(response) }
        do {
            return (try decoder.decode(T.self, from: response.body), response.status)
        } catch {
            throw .malformed("\(serverName) sent an answer anywall cannot read (HTTP \(response.status), \(Self.reason(error)))")
        }
    }

    /// Sends, retrying a safe request after a transient failure or a 502/503/504.
    private func perform(_ request: HTTPRequest) throws(ParseFailure) -> HTTPResponse {
        var delay = Self.firstRetryDelay
        for attempt in 1...Self.attempts {
            let last = attempt == Self.attempts || !request.isSafeToRepeat
            do {
                let response = try http.perform(request)
                if (502...504).contains(response.status), !last {
                    Thread.sleep(forTimeInterval: delay.inSeconds)
                    delay *= 2
                    continue
                }
                return response
            } catch {
                if error.isTransient, !last {
                    Thread.sleep(forTimeInterval: delay.inSeconds)
                    delay *= 2
                    continue
                }
                let verb = error.mayHaveArrived ? "lost the connection to" : "cannot reach"
                if case .timedOut = error {
                    throw .unavailable("\(serverName) did not answer in time (\(error.reason))", mayHaveArrived: true)
                }
                throw .unavailable("\(verb) \(serverName): \(error.reason)", mayHaveArrived: error.mayHaveArrived)
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// What a non-2xx answer means.
    private func refusal(_ response: HTTPResponse) -> ParseFailure {
        let answer = try? decoder.decode(ParseError.self, from: response.body)
        let text = answer?.message
        if response.status >= 500 {
            return .unavailable("\(serverName) failed (HTTP \(response.status)\(text.map { ": \($0)" } ?? ""))",
                                mayHaveArrived: true)
        }
        guard let text else {
            return .malformed("\(serverName) answered HTTP \(response.status) without a Parse error")
        }
        return .refused(code: answer?.code, message: text, status: response.status)
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.underlyingError == nil ? context.debugDescription : "not JSON"
        case DecodingError.keyNotFound(let key, _): return "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "unexpected \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }
}
