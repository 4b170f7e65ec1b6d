import AnywallSupport
import ParseWire
import WallDomain
/// How a request to a Parse Server failed, before anywall says what that means for the command.
enum ParseFailure: Error {
    /// No answer, or a 5xx: the server cannot serve now. `mayHaveArrived` when the request may
    /// have been acted on (a post then waits in the outbox with its request id, never resent under another).
    case unavailable(String, mayHaveArrived: Bool)
    /// The server refused the request: Parse's error code when it gave one, its text, the HTTP status.
    case refused(code: Int?, message: String, status: Int)
    /// The answer is not what a Parse Server sends.
    case malformed(String)
    /// Not sent: it carries a secret and would cross the network unencrypted (`ParseServer.sendsInClear`).
    case cleartext(String)
}
