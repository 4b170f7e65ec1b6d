import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// 127.0.0.1 for the tests' own TCP sockets. Each is close-on-exec: a child process started
/// meanwhile (a server, gpsd) must not keep another test's listener or held port.
package enum Loopback {
    /// A new TCP socket, or -1 (errno says why).
    package static func tcpSocket() -> Int32 {
        socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// 127.0.0.1:`port` (0: any free port, for `bind`).
    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7f00_0001).bigEndian)
        return address
    }

    /// `bind` to 127.0.0.1:`port`: what the call returned.
    package static func bind(_ fd: Int32, port: Int) -> Int32 {
        withSockaddr(port: port) { Glibc.bind(fd, $0, $1) }
    }

    /// `connect` to 127.0.0.1:`port`: what the call returned.
    package static func connect(_ fd: Int32, port: Int) -> Int32 {
        withSockaddr(port: port) { Glibc.connect(fd, $0, $1) }
    }

    /// The port `fd` is bound to.
    package static func boundPort(_ fd: Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return named ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// A port nothing listens on now.
    package static func freePort() throws -> Int {
        let fd = tcpSocket()
        guard fd >= 0 else { throw HelperFailure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        guard bind(fd, port: 0) == 0, let port = boundPort(fd) else {
            throw HelperFailure(description: "cannot find a free port: errno \(errno)")
        }
        return port
    }

    private static func withSockaddr(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
