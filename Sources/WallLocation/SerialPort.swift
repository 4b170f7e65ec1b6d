import AnywallSupport
import Foundation
import WallDomain

/// Sets up a serial device (a GNSS receiver on /dev/ttyUSB0, or a pseudo-terminal) for NMEA.
enum SerialPort {
    /// Raw mode (no line editing, echo or translation, 8 data bits, receiver on, modem lines
    /// ignored) and, when given, the line speed.
    static func configure(_ descriptor: Int32, baud: BaudRate?, name: String) throws {
        var options = termios()
        guard tcgetattr(descriptor, &options) == 0 else { throw failure(name) }
        cfmakeraw(&options)
        options.c_cflag |= tcflag_t(CLOCAL | CREAD)
        if let baud {
            guard cfsetispeed(&options, baud.speed) == 0, cfsetospeed(&options, baud.speed) == 0 else { throw failure(name) }
        }
        // Reads return as soon as one byte is there; poll() does the waiting.
        withUnsafeMutableBytes(of: &options.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &options) == 0 else { throw failure(name) }
    }

    private static func failure(_ name: String) -> AnywallError {
        .fileUnreadable("cannot set up the serial device \(name): \(String(cString: strerror(errno)))")
    }
}
