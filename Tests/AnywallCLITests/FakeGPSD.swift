import Foundation
import Glibc
import TestSupport
import Testing

/// A scripted stand-in for gpsd on 127.0.0.1, for what a real gpsd cannot show: the exact bytes a
/// client sent it, and reports cut into writes exactly as a test wants. Each client that connects
/// (one at a time) gets the script; everything it sends is recorded until it closes.
final class FakeGPSD: @unchecked Sendable {
    enum Step: Sendable {
        /// One write.
        case send(String)
        /// Waits, still recording what the client sends.
        case pause(Double)
        /// Waits (at most 10 s) until the client has sent a `?WATCH=...;` command, as gpsd sends
        /// reports only to clients that watch.
        case awaitWatch
    }

    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"
    static let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183","activated":"2026-11-20T10:00:00.000Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"# + "\n"
    static let watchEcho = #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"# + "\n"

    let port: Int
    var address: String { "127.0.0.1:\(port)" }

    private let listener: Int32
    private let script: [Step]
    private let lock = NSLock()
    private var connections: [Data] = []
    private var open = 0
    private var stopping = false
    private var finished = false

    init(port: Int = 0, script: [Step]) throws {
        self.script = script
        let fd = Loopback.tcpSocket()
        guard fd >= 0 else { throw HelperFailure(description: "socket: errno \(errno)") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard Loopback.bind(fd, port: port) == 0, listen(fd, 4) == 0, let bound = Loopback.boundPort(fd) else {
            let code = errno
            close(fd)
            throw HelperFailure(description: "cannot listen on 127.0.0.1:\(port): errno \(code)")
        }
        listener = fd
        self.port = bound
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    /// What each client sent, in the order they connected.
    var received: [String] {
        lock.withLock { connections.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Waits until at least one client has come and every client has closed its end.
    func waitForClientsToClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if lock.withLock({ !connections.isEmpty && open == 0 }) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Closes any client and the listener. Safe to call more than once.
    func stop() {
        guard lock.withLock({ () -> Bool in
            defer { stopping = true }
            return !stopping
        }) else { return }
        let deadline = ContinuousClock.now + .seconds(3)
        while !lock.withLock({ finished }), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        close(listener)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func serve() {
        defer { lock.withLock { finished = true } }
        while !isStopping {
            guard Self.wait(listener, milliseconds: 50) else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let index = lock.withLock { () -> Int in
                connections.append(Data())
                open += 1
                return connections.count - 1
            }
            talk(to: client, index)
            close(client)
            lock.withLock { open -= 1 }
        }
    }

    /// Plays the script to one client, then records until it closes (or the fake stops).
    private func talk(to client: Int32, _ index: Int) {
        var closed = false
        /// Records what arrives for `seconds`, or until `done` holds or the client closes.
        func record(seconds: Double, until done: () -> Bool = { false }) {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !closed, !done(), !isStopping, Date() < deadline {
                let left = Int32(max(1, min(50, deadline.timeIntervalSinceNow * 1000)))
                guard Self.wait(client, milliseconds: left) else { continue }
                let count = recv(client, &buffer, buffer.count, 0)
                if count <= 0 {
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    closed = true
                } else {
                    lock.withLock { connections[index].append(contentsOf: buffer[..<count]) }
                }
            }
        }
        for step in script {
            guard !closed, !isStopping else { return }
            switch step {
            case .send(let text):
                var bytes = Array(text.utf8)[...]
                while !bytes.isEmpty {
                    let sent = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent < 0, errno == EINTR { continue }
                    guard sent > 0 else { closed = true; break }
                    bytes = bytes.dropFirst(sent)
                }
            case .pause(let seconds):
                record(seconds: seconds)
            case .awaitWatch:
                record(seconds: 10) {
                    let text = String(decoding: lock.withLock { connections[index] }, as: UTF8.self)
                    guard let start = text.range(of: "?WATCH=") else { return false }
                    return text[start.upperBound...].contains(";")
                }
            }
        }
        record(seconds: 86_400)
    }

    /// Whether `descriptor` becomes readable within `milliseconds`.
    private static func wait(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }
}
