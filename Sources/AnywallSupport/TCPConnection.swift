import Foundation
import WallDomain

/// A plain TCP connection, non-blocking underneath so every wait goes through `Readiness`.
package final class TCPConnection {
    package let descriptor: Int32

    /// Why a connection could not be made, in words for a one-line error.
    package struct Failure: Error {
        package let reason: String
    }

    /// Connects to `host`:`port`, trying each address the name resolves to, giving up after
    /// `timeout` or when `stop` arrives.
    package init(host: String, port: Int, timeout: Duration, stop: StopSignal?) throws(Failure) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        let deadline = ContinuousClock.now + timeout
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                            info.pointee.ai_protocol)
            guard fd >= 0 else { reason = String(cString: strerror(errno)); continue }
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || Self.finishConnect(fd, until: deadline, stop: stop, reason: &reason) {
                descriptor = fd
                return
            }
            Glibc.close(fd)
        }
        throw Failure(reason: reason)
    }

    private static func finishConnect(_ fd: Int32, until deadline: ContinuousClock.Instant, stop: StopSignal?,
                                      reason: inout String) -> Bool {
        guard errno == EINPROGRESS else {
            reason = String(cString: strerror(errno))
            return false
        }
        waiting: while true {
            switch Readiness.wait(for: fd, stop: stop, until: deadline, events: Int16(POLLOUT)) {
            case .readable: break waiting
            case .woken: continue
            case .stopped:
                reason = "interrupted"
                return false
            case .timedOut:
                reason = "timed out"
                return false
            }
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
            reason = String(cString: strerror(error))
            return false
        }
        return true
    }

    /// Sends all of `text`; false when the peer has gone.
    @discardableResult
    package func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR || errno == EAGAIN { continue }
            guard sent > 0 else { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    /// Reads what has arrived into `buffer`: the byte count, 0 at the peer's end, nil when
    /// nothing is there yet. A reset connection counts as ended.
    package func receive(into buffer: inout [UInt8]) -> Int? {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == EAGAIN || errno == EINTR ? nil : 0 }
        return count
    }

    deinit {
        Glibc.close(descriptor)
    }
}
