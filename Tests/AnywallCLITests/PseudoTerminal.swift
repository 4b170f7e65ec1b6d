import Foundation
import TestSupport

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
        String(decoding: readBytes(timeout: timeout), as: UTF8.self)
    }

    private func readBytes(timeout: Duration) -> [UInt8] {
        var collected = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: controller, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        while poll(&fds, 1, milliseconds) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            collected += buffer[..<count]
        }
        return collected
    }

    /// Sets the terminal's size, as a terminal emulator does when its window is resized.
    func resize(columns: Int, rows: Int = 24) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(device, UInt(TIOCSWINSZ), &size)
    }

    /// Starts `anywall ARGS` in `box` with stdin, stdout and stderr on this terminal, as a user
    /// typing at it would, and returns at once.
    func start(_ box: Sandbox, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Sandbox.binary
        process.arguments = arguments
        process.environment = box.baseEnvironment
        let handle = FileHandle(fileDescriptor: device, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.runRetryingDescriptorRace()
        return process
    }

    /// Runs `anywall ARGS` in `box` with stdout and stderr on this terminal (stdin empty), as a
    /// user at the terminal would; returns its exit status and what the terminal received, with
    /// the terminal's `\r\n` line ends read back as `\n`.
    func run(_ box: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Sandbox.binary
        process.arguments = arguments
        process.environment = box.baseEnvironment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(fileDescriptor: device, closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: device, closeOnDealloc: false)
        try process.runRetryingDescriptorRace()
        // Read as it prints: a terminal's buffer is small, and a program writing to a full one waits.
        var collected = [UInt8]()
        while process.isRunning {
            collected += readBytes(timeout: .milliseconds(50))
        }
        process.waitUntilExit()
        // The terminal hands over what was written just before the exit a moment later.
        collected += readBytes(timeout: .milliseconds(300))
        return (process.terminationStatus, String(decoding: collected, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
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
