import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The gpsd harness itself, against the real daemon: what CLI tests will rely on.
@Suite(.serialized)
struct GPSDaemonTests {
    @Test func replayedLogReachesAWatchingClient() throws {
        let daemon = try GPSDaemon.replaying(GPSDaemon.fixture("mtk-3301.log"))
        let lines = try Self.watch(daemon.port, seconds: 10, until: Self.isFix)
        daemon.stop()
        #expect(lines.contains(where: Self.isFix), "no TPV with a fix in:\n\(lines.joined(separator: "\n"))")
        #expect(!daemon.isRunning)
    }

    @Test func daemonWithoutDeviceReportsNoPosition() throws {
        let daemon = try GPSDaemon.withoutDevice()
        let lines = try Self.watch(daemon.port, seconds: 2) { _ in false }
        daemon.stop()
        #expect(lines.contains { $0.contains(#""class":"VERSION""#) }, "\(lines)")
        #expect(!lines.contains(where: Self.isFix), "\(lines)")
        #expect(!lines.contains { $0.contains(#""class":"TPV""#) && $0.contains(#""lat":"#) }, "\(lines)")
        #expect(!daemon.isRunning)
    }

    /// A TPV report with a 2D or 3D fix.
    static func isFix(_ line: String) -> Bool {
        line.contains(#""class":"TPV""#) && (line.contains(#""mode":3"#) || line.contains(#""mode":2"#))
    }

    /// Connects to 127.0.0.1:`port`, sends `?WATCH`, and collects the lines gpsd sends until
    /// one satisfies `done`, the connection closes, or `seconds` pass.
    static func watch(_ port: Int, seconds: Double, until done: (String) -> Bool) throws -> [String] {
        let fd = Loopback.tcpSocket()
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(Loopback.connect(fd, port: port) == 0, "connect to \(port): errno \(errno)")
        let command = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [10]
        try #require(send(fd, command, command.count, 0) == command.count)

        var lines: [String] = []
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            pending.append(contentsOf: buffer[..<count])
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.append(line)
                if done(line) { return lines }
            }
        }
        return lines
    }
}
