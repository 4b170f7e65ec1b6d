import Foundation

/// A pseudo-terminal pair: the device end stands in for a serial GNSS receiver or a user's
/// terminal, the controlling end is what the test writes and reads.
final class PseudoTerminal {
    let controller: Int32
    /// Kept open so the device's settings can be read after the program under test let go of it.
    let device: Int32
    let devicePath: String

    // Linux's TIOCSPTLCK and TIOCGPTN (<asm/ioctls.h>), which Swift's Glibc module does not
    // export, nor posix_openpt/unlockpt/ptsname that wrap them.
    private static let unlockRequest = UInt(0x4004_5431), numberRequest = UInt(0x8004_5430)

    init() throws {
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: Int32 = 0
        guard controller >= 0, ioctl(controller, Self.unlockRequest, &unlock) == 0,
              ioctl(controller, Self.numberRequest, &number) == 0 else {
            throw CocoaError(.fileNoSuchFile)
        }
        devicePath = "/dev/pts/\(number)"
        device = open(devicePath, O_RDWR | O_NOCTTY)
        guard device >= 0 else { throw CocoaError(.fileNoSuchFile) }
    }

    /// Writes `text` to the controlling end, as the receiver sending it.
    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// What the program wrote to the device so far, waiting up to `timeout` for it to go quiet.
    func readAvailable(timeout: Duration = .milliseconds(300)) -> String {
        var collected = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: controller, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        while poll(&fds, 1, milliseconds) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            collected += buffer[..<count]
        }
        return String(decoding: collected, as: UTF8.self)
    }

    /// The device's current settings.
    var settings: termios {
        var options = termios()
        tcgetattr(device, &options)
        return options
    }

    deinit {
        close(device)
        close(controller)
    }
}
