import EmbeddedStore
import Foundation
import WallDomain
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 that writes HTTP by hand, for what an HTTP client will not
/// do: declare a body it never sends, or send a request in pieces with pauses between them.
package final class RawHTTPConnection {
    private let socket: Int32

    package init(port: Int) throws {
        socket = Loopback.tcpSocket()
        guard Loopback.connect(socket, port: port) == 0 else { close(socket); throw HelperFailure(description: "cannot connect to port \(port)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    /// Writes all of `text` (or fails when the server closed the connection).
    @discardableResult
    package func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Whether the server closes the connection within 10 s (rather than answering or waiting).
    package func closedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }

    /// Sends one request with the test keys (and `headers`, and `body` when given) and reads the answer.
    package func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) -> String {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(Sandbox.applicationId)\r\n"
            + "X-Parse-REST-API-Key: \(Sandbox.restKey)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        write(head + "\r\n" + (body ?? ""))
        return readAnswer()
    }

    /// Everything the server sends until it closes the connection or has sent a whole answer
    /// (headers and `Content-Length` bytes), or 10 s pass.
    package func readAnswer() -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            data.append(contentsOf: buffer[..<n])
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n"),
               let length = text[..<end.lowerBound].firstMatch(of: /(?i)content-length: *(\d+)/).flatMap({ Int($0.1) }),
               text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length {
                break
            }
        }
        return String(decoding: data, as: UTF8.self)
    }
}
