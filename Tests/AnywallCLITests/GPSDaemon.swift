import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd listening on 127.0.0.1, for tests that point anywall at a GPS daemon.
///
/// `replaying` feeds a recorded NMEA log through Debian's `gpsfake` (which starts gpsd
/// itself); `withoutDevice` runs a bare gpsd that never reports a fix. Each runs in a
/// session of its own, so `stop()` ends gpsfake and its gpsd together; a `GPSDaemon`
/// also stops when it is released. Restarting is `replaying(log, port: old.port)` again.
final class GPSDaemon {
    let port: Int
    var address: String { "127.0.0.1:\(port)" }

    /// The `setsid -w` wrapper; it exits when the session leader does.
    private let process: Process
    /// The session leader's pid, which is also the process group of everything it starts.
    private let group: pid_t
    /// Private TMPDIR (gpsfake's pty and control socket) and the daemon's output (`output.log`).
    private let directory: URL
    private var stopped = false

    private init(port: Int, process: Process, group: pid_t, directory: URL) {
        self.port = port
        self.process = process
        self.group = group
        self.directory = directory
    }

    deinit { stop() }

    /// Replays `log` once through gpsfake and gpsd, `delay` seconds per sentence.
    ///
    /// gpsfake opens the device at once (`-p`), so sentences flow from the start whether or
    /// not a client watches; when the log ends, gpsfake and gpsd exit and the port closes.
    /// `mtk-3301.log` at 0.05 s: the port opens after ~0.3-0.8 s, the first position about
    /// 2.5 s later, and everything is over ~5.5 s after the start.
    static func replaying(_ log: URL, delay: Double = 0.05, port: Int? = nil) throws -> GPSDaemon {
        guard FileManager.default.fileExists(atPath: log.path) else { throw HelperFailure(description: "no log at \(log.path)") }
        let port = try port ?? Loopback.freePort()
        return try launch(port: port) { _ in
            ["/usr/bin/gpsfake", "-q", "-1", "-p", "-P", "\(port)", "-c", "\(delay)", log.path]
        }
    }

    /// A gpsd with no device: clients get VERSION, an empty DEVICES and their WATCH echoed, then nothing.
    static func withoutDevice(port: Int? = nil) throws -> GPSDaemon {
        let port = try port ?? Loopback.freePort()
        return try launch(port: port) { directory in
            ["/usr/sbin/gpsd", "-N", "-n", "-S", "\(port)", "-F", directory.appendingPathComponent("gpsd.sock").path]
        }
    }

    /// `fixtures/nmea/NAME` (`.log` may be left off) in this repository.
    static func fixture(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("fixtures/nmea")
            .appendingPathComponent(name.hasSuffix(".log") ? name : name + ".log")
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Whether any process of the daemon's group is still alive (a replay ends on its own).
    var isRunning: Bool { !Self.members(of: group).isEmpty }

    /// What the daemon printed so far (gpsfake `-p` echoes every NMEA sentence and JSON report).
    var output: String {
        (try? String(contentsOf: directory.appendingPathComponent("output.log"), encoding: .utf8)) ?? ""
    }

    /// Ends the whole process group (SIGTERM, then SIGKILL after 3 s), reaps the wrapper and
    /// waits until the port can be bound again. Safe to call more than once. Usually ~0.1 s;
    /// ~1 s while a client is still connected.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if isRunning { kill(-group, SIGTERM) }
        if !Self.poll(seconds: 3, { Self.members(of: group).isEmpty }) {
            kill(-group, SIGKILL)
            _ = Self.poll(seconds: 3) { Self.members(of: group).isEmpty }
        }
        // Foundation reports the wrapper's exit only once every holder of the status socket it
        // hands down (the whole tree) has gone, so wait boundedly rather than waitUntilExit().
        if process.isRunning { process.terminate() }
        _ = Self.poll(seconds: 3) { !process.isRunning }
        if !Self.poll(seconds: 3, { Self.isFree(port) }) {
            try? FileHandle.standardError.write(contentsOf: Data("GPSDaemon: port \(port) still busy after stop\n".utf8))
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Launching

    /// Runs `command(privateDirectory)` as `setsid -w sh -c 'echo $$ > pgid; exec COMMAND'` and
    /// waits up to 10 s for the port. Foundation's `Process` makes its child a process-group leader, so
    /// `setsid` forks: the new session's pid is known only through the file the shell writes.
    private static func launch(port: Int, _ command: (URL) -> [String]) throws -> GPSDaemon {
        guard poll(seconds: 3, { isFree(port) }) else { throw HelperFailure(description: "port \(port) is busy") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-gpsd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let groupFile = directory.appendingPathComponent("pgid")
        let outputFile = directory.appendingPathComponent("output.log")
        let command = command(directory)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", "/bin/sh", "-c", #"echo $$ > "$0" && exec "$@""#, groupFile.path] + command
        // No pyenv on PATH: gpsfake must run under Debian's /usr/bin/python3 (its shebang),
        // which is the one with the `gps` module.
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/bin", "TMPDIR": directory.path,
                               "HOME": directory.path, "LANG": "C.UTF-8"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try withSignalsUnblocked { try process.runRetryingDescriptorRace() }

        var group: pid_t?
        let ready = poll(seconds: 10) {
            if group == nil, let text = try? String(contentsOf: groupFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                group = pid
            }
            return !process.isRunning || (group != nil && canConnect(port))
        }
        let daemon = GPSDaemon(port: port, process: process, group: group ?? process.processIdentifier, directory: directory)
        guard ready, process.isRunning else {
            let text = daemon.output
            daemon.stop()
            throw HelperFailure(description: "\(command.first ?? "") did not open port \(port) (\(ready ? "exited" : "timed out")):\n\(text.suffix(2000))")
        }
        return daemon
    }

    // MARK: - Processes and sockets

    /// Runs `body` (a `Process.run()`) with this thread's signals unblocked, SIGCHLD aside.
    ///
    /// On Linux, Foundation spawns with the calling thread's signal mask, and test threads
    /// block nearly every signal: gpsfake and gpsd would then ignore SIGTERM, so `stop()`
    /// would need SIGKILL and a replay would never end (gpsfake's cleanup loops, sending
    /// SIGTERM to gpsd until it dies). SIGCHLD stays as it was, so that no child exit meant
    /// for another part of the test process can land on this thread meanwhile.
    private static func withSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var previous = sigset_t()
        var open = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        sigemptyset(&open)
        if sigismember(&previous, SIGCHLD) == 1 { sigaddset(&open, SIGCHLD) }
        pthread_sigmask(SIG_SETMASK, &open, nil)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Calls `condition` every 50 ms until it holds or `seconds` have passed.
    private static func poll(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(50_000)
        }
        return true
    }

    /// Living (non-zombie) processes in process group `group`. Zombies count as gone: PID 1
    /// here does not reap orphans, so a `kill(-group, 0)` would keep seeing them.
    private static func members(of group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X", pid_t(fields[2]) == group else { return nil }
            return pid
        }
    }

    /// Whether 127.0.0.1:`port` could be bound the way gpsd binds it (with SO_REUSEADDR).
    private static func isFree(_ port: Int) -> Bool {
        let fd = Loopback.tcpSocket()
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        return Loopback.bind(fd, port: port) == 0
    }

    private static func canConnect(_ port: Int) -> Bool {
        let fd = Loopback.tcpSocket()
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return Loopback.connect(fd, port: port) == 0
    }
}
