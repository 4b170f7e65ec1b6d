import EmbeddedStore
import Foundation
import WallDomain

/// The real `anywall` binary running in a sandbox while a test talks to it: stdin is fed as the
/// test goes, stdout and stderr are collected line by line as they arrive (for `--watch`).
package final class LiveProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutText = ""
    private var stderrText = ""

    package init(_ box: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = Sandbox.binary
        process.arguments = arguments
        process.environment = box.baseEnvironment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.collect(handle.availableData, error: false) }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.collect(handle.availableData, error: true) }
        try process.runRetryingDescriptorRace()
    }

    private func collect(_ data: Data, error: Bool) {
        lock.withLock {
            if error { stderrText += String(decoding: data, as: UTF8.self) } else { stdoutText += String(decoding: data, as: UTF8.self) }
        }
    }

    /// Complete stdout lines so far.
    package var lines: [String] {
        lock.withLock { stdoutText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    package var stderr: String { lock.withLock { stderrText } }

    /// Complete stdout lines so far, as JSON objects.
    package var jsonLines: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Writes to the process's stdin; false once it has stopped reading.
    @discardableResult
    package func send(_ text: String) -> Bool {
        (try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))) != nil
    }

    package func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until `condition` holds, checking every 20 ms, at most `timeout`; whether it held.
    package func waitUntil(timeout: Duration = .seconds(10), _ condition: (LiveProcess) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(self)
    }

    package var isRunning: Bool { process.isRunning }

    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to end (killing it after `timeout`) and returns how it ended.
    package func finish(timeout: Duration = .seconds(10)) -> (status: Int32, bySignal: Bool) {
        if !waitUntil(timeout: timeout, { !$0.isRunning }) {
            process.terminate()
        }
        process.waitUntilExit()
        // Let the readers take the last bytes.
        Thread.sleep(forTimeInterval: 0.05)
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        collect(output.fileHandleForReading.readDataToEndOfFile(), error: false)
        collect(errors.fileHandleForReading.readDataToEndOfFile(), error: true)
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
