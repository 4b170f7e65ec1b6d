import AnywallSupport
import Foundation
import WallDomain

/// NMEA 0183 from a file, a serial device or stdin (`--nmea PATH|-`).
public struct NMEASource: LocationSource {
    /// The file or device, or `-` for stdin.
    public let path: String
    /// The serial line speed; only for devices.
    public let baud: BaudRate?

    public init(path: String, baud: BaudRate? = nil) {
        self.path = path
        self.baud = baud
    }

    public var name: String { "nmea:\(path)" }

    public func open(stop: StopSignal?, keepTrying: Bool) throws -> FixFeed {
        try NMEAFeed(source: self, stop: stop)
    }
}

/// Reads an NMEA source as it arrives, one chunk at a time, through an `NMEADecoder`.
final class NMEAFeed: FixFeed {
    private let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let stop: StopSignal?
    private var decoder = NMEADecoder()
    private var queue = FeedQueue()
    private var ended = false
    private var sawFix = false
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    init(source: NMEASource, stop: StopSignal?) throws {
        name = source.name
        self.stop = stop
        if source.path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            // O_NONBLOCK: opening a serial device must not wait for its carrier line.
            descriptor = Glibc.open(source.path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw AnywallError.fileUnreadable("cannot read \(source.path): \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
        }
        // Stdin that is a terminal is the user's: typed or pasted lines, read in its usual mode.
        // Raw mode is for serial devices, and would leave the user's terminal without echo.
        if source.path != "-", isatty(descriptor) == 1 {
            do {
                try SerialPort.configure(descriptor, baud: source.baud, name: source.path)
            } catch {
                close()
                throw error
            }
        } else if source.baud != nil {
            close()
            throw AnywallError.inputRejected("--baud is for serial devices, and \(source.path) is not one")
        }
    }

    func next(until deadline: ContinuousClock.Instant) throws -> FeedEvent? {
        while true {
            if let event = queue.next() { return event }
            if ended {
                // Sentences dropped for their checksum are the usual reason a log holds no fix: said, with how many.
                if !sawFix, decoder.badChecksums > 0 {
                    let count = decoder.badChecksums == 1 ? "1 sentence was" : "\(decoder.badChecksums) sentences were"
                    throw AnywallError.noFix("no location fix in \(name): the input ended without one; "
                                             + "\(count) dropped for a missing or wrong checksum")
                }
                return .end
            }
            guard Readiness.wait(for: descriptor, stop: stop, until: deadline) == .readable else { return nil }
            try readChunk()
        }
    }

    private func readChunk() throws {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            switch errno {
            case EAGAIN, EINTR: return
            // A pseudo-terminal whose other end closed reads as EIO: the feed has ended.
            case EIO: break
            default: throw AnywallError.fileUnreadable("cannot read \(name): \(String(cString: strerror(errno)))")
            }
        }
        if count <= 0 {
            ended = true
            decoder.finish { take($0) }
            return
        }
        chunk.withUnsafeBytes { decoder.consume(UnsafeRawBufferPointer(rebasing: $0[..<count])) { take($0) } }
    }

    private func take(_ report: NMEADecoder.Report) {
        switch report {
        case .fix(let fix):
            sawFix = true
            queue.fix(Fix(point: fix.point, source: name, time: fix.time))
        case .noFix: queue.noFix()
        }
    }

    func close() {
        if ownsDescriptor { _ = Glibc.close(descriptor) }
    }
}
