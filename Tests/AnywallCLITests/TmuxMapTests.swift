import Foundation
import Testing
import TestSupport
import WallDomain

/// `nearby --watch --map` in a real terminal emulator: tmux, whose resizes send a real SIGWINCH and
/// whose screen (`capture-pane`) is what a user would see, including after the command is gone.
@Suite("nearby --watch --map in tmux")
struct TmuxMapTests {
    /// One tmux server of this test's own (its own socket and no user configuration), run in the
    /// foreground (`-D`): a daemon forked by a client would inherit the descriptor by which
    /// Foundation's `Process` learns that the client exited, and the client would never seem to end.
    /// It starts through Python to unblock every signal first: `Process` passes on the test
    /// thread's mask, and a tmux with SIGCHLD and SIGTERM blocked never reaps its pane nor stops.
    final class Tmux {
        let socket = "/tmp/anywall-tmux-\(UUID().uuidString.prefix(8)).sock"
        /// Where each command's output is written.
        let directory: URL
        private let server = Process()

        init(home: URL) throws {
            directory = home
            server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            server.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                                "/usr/bin/tmux", "-u", "-S", socket, "-f", "/dev/null", "-D"]
            server.environment = Self.environment
            server.standardInput = FileHandle.nullDevice
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            let deadline = ContinuousClock.now + .seconds(10)
            while !FileManager.default.fileExists(atPath: socket), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        static let environment = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"]

        /// Runs a tmux command and returns what it printed.
        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            process.arguments = ["-u", "-S", socket, "-f", "/dev/null"] + arguments
            process.environment = Self.environment
            let outputPath = directory.appendingPathComponent("tmux-\(UUID().uuidString).out")
            _ = FileManager.default.createFile(atPath: outputPath.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: outputPath) }
            let output = try FileHandle(forWritingTo: outputPath)
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try output.close()
            let text = String(decoding: try Data(contentsOf: outputPath), as: UTF8.self)
            guard process.terminationStatus == 0 else { throw HelperFailure(description: "tmux \(arguments): \(text)") }
            return text
        }

        /// The pane as the user sees it, one string per row.
        func screen() throws -> [String] {
            try run(["capture-pane", "-p", "-t", "map"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }

        /// Waits until the pane shows what `condition` looks for; the last screen either way.
        func waitFor(_ condition: ([String]) -> Bool) throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(10)
            var lines = try screen()
            while !condition(lines), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                lines = try screen()
            }
            return lines
        }

        func stop() {
            _ = try? run(["kill-server"])
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
            try? FileManager.default.removeItem(atPath: socket)
        }
    }

    @Test("drawn at 80x24 and 60x20, resized live by tmux, too small at 35x10, and Ctrl-C leaves the screen as it was")
    func liveInTmux() throws {
        let box = try Sandbox(.embedded)
        try box.signUp("alice")
        let place = try GeoPoint(latitude: 52.52, longitude: 13.405)
        let near = try place.moved(.meters(250), bearing: 45)
        #expect(try box.run(["post", "Bike repair stand", "--at", "\(near.latitude),\(near.longitude)"]).status == Exit.success)
        let tmux = try Tmux(home: box.home)
        defer { tmux.stop() }
        var environment = box.baseEnvironment
        environment["TERM"] = "screen"
        let command = ["env", "-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [Sandbox.binary.path, "nearby", "--watch", "--map", "--at", "52.52,13.405", "--interval", "60s"]
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        // The shell outlives Ctrl-C (its own handler, reset for anywall by exec) and says how anywall
        // ended, so the pane shows the screen anywall left behind.
        try tmux.run(["new-session", "-d", "-s", "map", "-x", "80", "-y", "24", "trap : INT; \(quoted); echo \"exited $?\"; sleep 60"])

        func status(_ lines: [String]) -> String? { lines.last { $0.hasPrefix("radius 1 km") } }
        var lines = try tmux.waitFor { status($0) != nil && $0.contains { $0.contains("Bike repair stand") } }
        let wide = try #require(status(lines), "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.count <= 80 } && lines.contains { $0.contains("@") })

        // tmux changes the window's size and the kernel sends SIGWINCH: nothing else would wake the
        // watch before its next query, a minute away.
        try tmux.run(["resize-window", "-t", "map", "-x", "60", "-y", "20"])
        lines = try tmux.waitFor { status($0).map { $0 != wide } ?? false }
        let narrow = try #require(status(lines), "\(lines.joined(separator: "\n"))")
        #expect(narrow != wide && lines.allSatisfy { $0.count <= 60 }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("Bike repair stand") })

        try tmux.run(["resize-window", "-t", "map", "-x", "35", "-y", "10"])
        lines = try tmux.waitFor { $0.contains { $0.contains("terminal too small (need 40x12)") } }
        #expect(lines.contains { $0.contains("terminal too small (need 40x12)") }, "\(lines.joined(separator: "\n"))")

        try tmux.run(["resize-window", "-t", "map", "-x", "80", "-y", "24"])
        _ = try tmux.waitFor { status($0) == wide }
        try tmux.run(["send-keys", "-t", "map", "C-c"])
        lines = try tmux.waitFor { $0.contains { $0.contains("exited") } }
        #expect(lines.contains { $0.contains("exited 130") }, "ended by SIGINT: \(lines.joined(separator: "\n"))")
        let state = try tmux.run(["display-message", "-p", "-t", "map", "#{alternate_on} #{cursor_flag}"])
        #expect(state.hasPrefix("0 1"), "off the alternate screen, cursor shown: \(state)")
        let after = try tmux.screen()
        #expect(!after.contains { $0.contains("radius 1 km") || $0.contains("Bike repair stand") },
                "the map is gone with the alternate screen:\n\(after.joined(separator: "\n"))")
    }
}
