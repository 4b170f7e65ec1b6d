import AnywallSupport
import Foundation
import WallDomain

/// A serial line speed that termios can set (`--baud`).
public struct BaudRate: Equatable, Sendable, CustomStringConvertible {
    /// Bits per second.
    public let bitsPerSecond: Int
    let speed: speed_t

    private static let supported: [(Int, speed_t)] = [
        (1200, speed_t(B1200)), (2400, speed_t(B2400)), (4800, speed_t(B4800)), (9600, speed_t(B9600)),
        (19200, speed_t(B19200)), (38400, speed_t(B38400)), (57600, speed_t(B57600)),
        (115200, speed_t(B115200)), (230400, speed_t(B230400)), (460800, speed_t(B460800)),
        (921600, speed_t(B921600)),
    ]

    /// Parses a speed such as `4800` or `115200`; refuses speeds a serial port cannot be set to.
    public init(parsing text: String) throws {
        guard let bits = Int(text), let match = Self.supported.first(where: { $0.0 == bits }) else {
            throw AnywallError.inputRejected(
                "bad baud rate '\(text)': expected one of \(Self.supported.map { String($0.0) }.joined(separator: ", "))")
        }
        bitsPerSecond = match.0
        speed = match.1
    }

    public var description: String { String(bitsPerSecond) }
}
