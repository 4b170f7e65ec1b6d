import AnywallSupport
import Foundation
import WallDomain

/// gpsd's JSON protocol over TCP (`--gpsd [HOST[:PORT]]`).
public struct GPSDSource: LocationSource {
    public let address: GPSDAddress

    public init(address: GPSDAddress) {
        self.address = address
    }

    public var name: String { "gpsd:\(address)" }

    public func open(stop: StopSignal?, keepTrying: Bool) throws -> FixFeed {
        try GPSDFeed(source: self, stop: stop, keepTrying: keepTrying)
    }
}

/// A watch on gpsd: `?WATCH` on connect and off on close, TPV reports read line by line however
/// the network splits or merges them, and, when asked to keep trying, reconnection with backoff.
final class GPSDFeed: FixFeed {
    static let connectTimeout: Duration = .seconds(3)
    static let firstRetry: Duration = .milliseconds(250)
    static let longestRetry: Duration = .seconds(8)
    /// gpsd's longest reports (SKY with many satellites) are a few KiB.
    static let maxLineLength = 64 * 1024

    private let source: GPSDSource
    private let stop: StopSignal?
    private let keepTrying: Bool
    private var connection: TCPConnection?
    private var retryAt = ContinuousClock.now
    private var retryDelay = GPSDFeed.firstRetry
    private var lines = LineSplitter(maxLineLength: GPSDFeed.maxLineLength)
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    private var queue = FeedQueue()
    private let decoder = JSONDecoder()

    init(source: GPSDSource, stop: StopSignal?, keepTrying: Bool) throws {
        self.source = source
        self.stop = stop
        self.keepTrying = keepTrying
        // The first connection must work, even when watching: a mistyped host fails at once.
        connection = try connect()
    }

    private func connect() throws -> TCPConnection {
        let connection: TCPConnection
        do {
            connection = try TCPConnection(host: source.address.host, port: source.address.port, timeout: Self.connectTimeout,
                                           stop: stop)
        } catch {
            throw AnywallError.sourceUnreachable("cannot reach gpsd at \(source.address): \(error.reason)")
        }
        connection.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
        lines.reset()
        return connection
    }

    func next(until deadline: ContinuousClock.Instant) throws -> FeedEvent? {
        while true {
            if let event = queue.next() { return event }
            guard let connection else {
                try reconnect(until: deadline)
                if self.connection == nil { return queue.next() }
                continue
            }
            guard Readiness.wait(for: connection.descriptor, stop: stop, until: deadline) == .readable else { return nil }
            guard let count = connection.receive(into: &chunk) else { continue }
            if count == 0 {
                try lost()
            } else {
                chunk.withUnsafeBytes { lines.consume(UnsafeRawBufferPointer(rebasing: $0[..<count])) { take($0) } }
            }
        }
    }

    /// gpsd closed the connection or went away.
    private func lost() throws {
        connection = nil
        guard keepTrying else {
            throw AnywallError.sourceUnreachable("gpsd at \(source.address) closed the connection")
        }
        queue.forgetFix()
        retryDelay = Self.firstRetry
        retryAt = ContinuousClock.now + retryDelay
        queue.warning("lost the connection to gpsd at \(source.address); reconnecting")
    }

    private func reconnect(until deadline: ContinuousClock.Instant) throws {
        guard Readiness.wait(for: nil, stop: stop, until: min(retryAt, deadline)) == .timedOut,
              ContinuousClock.now >= retryAt else { return }
        do {
            connection = try connect()
            queue.warning("reconnected to gpsd at \(source.address)")
        } catch {
            retryDelay = min(retryDelay * 2, Self.longestRetry)
            retryAt = ContinuousClock.now + retryDelay
        }
    }

    private func take(_ line: UnsafeBufferPointer<UInt8>) {
        guard let report = try? decoder.decode(GPSDReport.self, from: Data(line)) else { return }
        switch report.meaning {
        case .fix(let point, let time, let accuracy):
            queue.fix(Fix(point: point, source: source.name, time: time, accuracy: accuracy))
        case .noFix:
            queue.noFix()
        case .other:
            break
        }
    }

    func close() {
        connection?.send(#"?WATCH={"enable":false};"# + "\n")
        connection = nil
    }
}
