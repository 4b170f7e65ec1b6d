import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--gpsd` against a real gpsd: Debian's gpsfake replaying receiver logs from gpsd's own
/// regression suite (`fixtures/nmea`, with what gpsd 3.22 reported for each in `NAME.log.chk`),
/// a gpsd with no device, and nothing listening at all. Two tests need to see what anywall sends,
/// or exactly how the bytes are cut, which a real gpsd does not show; they use `FakeGPSD`.
@Suite("gpsd", .serialized)
struct GPSDCommandTests {
    // MARK: - where --gpsd

    @Test("where --gpsd prints a fix gpsd reported for a replayed receiver log: position, time, accuracy, source")
    func whereFromReplayedLog() throws {
        // AIS and GPS interleaved; a fix with time and eph from the 4th sentence on; 2020, so
        // gpsd's 1024-week rollover handling leaves the dates alone.
        let log = GPSDaemon.fixture("ais-nmea")
        let logged = try Self.loggedFixes(log)
        try #require(!logged.isEmpty)
        // 1496 sentences at 0.02 s: still replaying long after anywall has its fix.
        let daemon = try GPSDaemon.replaying(log, delay: 0.02)
        defer { daemon.stop() }
        let box = try Sandbox()
        let run = try box.run(["where", "--gpsd", daemon.address, "--json", "--fix-timeout", "10"])
        daemon.stop()

        #expect(run.status == Exit.success, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line: \(run)")
        let object = try #require(Self.object(run.stdout), "\(run)")
        #expect(Self.keysAreSorted(run.stdout, object), "\(run.stdout)")
        #expect(object["source"] as? String == "gpsd:\(daemon.address)")
        let latitude = try #require(object["latitude"] as? Double)
        let longitude = try #require(object["longitude"] as? Double)

        // One of the positions gpsd reported for this log...
        var matches = logged.filter { abs($0.latitude - latitude) <= 1e-6 && abs($0.longitude - longitude) <= 1e-6 }
        #expect(!matches.isEmpty, "\(latitude),\(longitude) is not a TPV position in \(log.lastPathComponent).chk")
        // ...with the time of that report (every fix of this log has one)...
        let time = try #require(object["time"] as? String, "\(run.stdout)")
        #expect(time.hasSuffix("Z"))
        let printed = try #require(Self.date(time), "unreadable time \(time)")
        matches = matches.filter { $0.time.flatMap(Self.date).map { abs($0.timeIntervalSince(printed)) < 0.001 } ?? false }
        #expect(!matches.isEmpty, "no TPV at \(latitude),\(longitude) has time \(time)")
        // ...and its eph as the accuracy.
        let accuracy = try #require(object["accuracyMeters"] as? Double, "\(run.stdout)")
        #expect(matches.contains { $0.accuracy.map { abs($0 - accuracy) < 1e-9 } ?? false },
                "accuracy \(accuracy) is not the eph of \(matches)")
    }

    @Test("where --gpsd with a gpsd that has no receiver: exit 75 after --fix-timeout, one line on stderr")
    func whereWithoutFix() throws {
        let daemon = try GPSDaemon.withoutDevice()
        defer { daemon.stop() }
        let box = try Sandbox()
        let start = ContinuousClock.now
        let run = try box.run(["where", "--gpsd", daemon.address, "--json", "--fix-timeout", "1"])
        let took = ContinuousClock.now - start
        #expect(run.status == Exit.noFix, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        // No status line either: stderr is not a terminal.
        #expect(run.stderr == "anywall: no location fix from gpsd:\(daemon.address) within 1 s\n", "\(run)")
        #expect(took >= .seconds(1) && took < .seconds(4), "waits out --fix-timeout, no more: \(took)")
        #expect(daemon.isRunning, "anywall gives up, gpsd carries on")
    }

    @Test("nearby --watch --gpsd with a gpsd that has no receiver: exit 75 after --fix-timeout")
    func watchWithoutFix() throws {
        let daemon = try GPSDaemon.withoutDevice()
        defer { daemon.stop() }
        let box = try Sandbox()
        let start = ContinuousClock.now
        let run = try box.run(["nearby", "--watch", "--gpsd", daemon.address, "--ndjson", "--fix-timeout", "1"])
        let took = ContinuousClock.now - start
        #expect(run.status == Exit.noFix, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr == "anywall: no location fix from gpsd:\(daemon.address) within 1 s\n", "the same words as `where`: \(run)")
        #expect(took >= .seconds(1) && took < .seconds(4), "\(took)")
    }

    @Test("nothing listening: where and nearby --watch fail at once with exit 69 and the reason")
    func unreachable() throws {
        let port = try Loopback.freePort()
        let box = try Sandbox()
        for arguments in [["where", "--gpsd", "127.0.0.1:\(port)", "--json"],
                          ["nearby", "--watch", "--gpsd", "127.0.0.1:\(port)", "--ndjson", "--interval", "1s"]] {
            let start = ContinuousClock.now
            let run = try box.run(arguments)
            #expect(ContinuousClock.now - start < .seconds(3), "no retrying before the first connection: \(arguments)")
            #expect(run.status == Exit.unreachable, "\(arguments): \(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            let prefix = "anywall: cannot reach gpsd at 127.0.0.1:\(port): "
            #expect(run.stderr.hasPrefix(prefix) && run.stderr.hasSuffix("\n") && run.stderr.filter { $0 == "\n" }.count == 1
                    && run.stderr.count > prefix.count + 1, "one line with a reason: \(run)")
            #expect(run.stderr.contains("Connection refused"), "\(run)")
        }
    }

    // MARK: - nearby --watch --gpsd

    @Test("nearby --watch --gpsd survives gpsd restarting on the same port: warns, reconnects, no duplicate events, then uses the new fixes")
    func watchSurvivesRestart() throws {
        // Before: ais-nmea (52.842 N 5.706 E). After: bundg_zeus_9, a boat ~26 km west of it:
        // within the 100 km search distance, outside a 1 km radius, so the same post is still
        // the only one nearby and what the user sees change is that it becomes hidden.
        let before = GPSDaemon.fixture("ais-nmea")
        let after = GPSDaemon.fixture("bundg_zeus_9")
        let start = try #require(try Self.loggedFixes(before).first)
        let box = try Sandbox()
        try box.signUp("alice")
        let posted = try box.run(["post", "Harbour office", "--at", "\(start.latitude),\(start.longitude)", "--json"])
        #expect(posted.status == Exit.success, "\(posted)")

        var daemons: [GPSDaemon] = []
        defer { daemons.forEach { $0.stop() } }
        // 1496 sentences at 0.05 s: about 75 s of fixes, far longer than needed.
        let first = try GPSDaemon.replaying(before, delay: 0.05)
        daemons.append(first)
        let address = first.address
        let watch = try LiveProcess(box, ["nearby", "--watch", "--gpsd", address, "--ndjson", "--radius", "1km", "--interval", "1s"])

        #expect(watch.waitUntil(timeout: .seconds(15)) { Self.events($0).contains { $0.event == "added" } },
                "no added event: \(watch.lines) \(watch.stderr)")
        let added = Self.events(watch)
        #expect(added.map(\.event) == ["added"], "\(watch.lines)")
        let post = try #require(added.first?.post)
        let id = try #require(post["objectId"] as? String)
        #expect(post["visible"] as? Bool == true && post["text"] as? String == "Harbour office", "\(post)")

        first.stop()
        let lost = "anywall: warning: lost the connection to gpsd at \(address); reconnecting"
        #expect(watch.waitUntil(timeout: .seconds(5)) { $0.stderr.contains(lost) }, "\(watch.stderr)")
        #expect(watch.isRunning, "a watch keeps going without gpsd: \(watch.stderr)")

        // 4999 sentences at 0.02 s: about 100 s of a fix every other sentence.
        let second = try GPSDaemon.replaying(after, delay: 0.02, port: first.port)
        daemons.append(second)
        let reconnected = "anywall: warning: reconnected to gpsd at \(address)"
        // Retries 0.25, 0.75, 1.75, 3.75, 7.75 s after the loss; gpsd is back in 1-2 s.
        #expect(watch.waitUntil(timeout: .seconds(20)) { $0.stderr.contains(reconnected) }, "\(watch.stderr)")
        #expect(watch.isRunning, "\(watch.stderr)")

        // Fixes flow again: the post is now 26 km away.
        #expect(watch.waitUntil(timeout: .seconds(15)) { Self.events($0).count > 1 }, "nothing after reconnecting: \(watch.lines) \(watch.stderr)")
        // More than one --interval later, still nothing new: the post set did not change, so the
        // reconnection must not report it again.
        Thread.sleep(forTimeInterval: 2.5)
        let later = Self.events(watch).dropFirst()
        #expect(later.map(\.event) == ["hidden"], "\(watch.lines)")
        #expect(later.first?.post["objectId"] as? String == id)
        #expect(later.first?.post["visible"] as? Bool == false)
        #expect(((later.first?.post["distanceMeters"] as? Double) ?? 0) > 20_000, "\(later.first?.post ?? [:])")

        #expect(second.isRunning, "the second replay is still going")
        let signalledAt = ContinuousClock.now
        watch.signal(SIGTERM)
        let end = watch.finish(timeout: .seconds(3))
        #expect(end.bySignal && end.status == SIGTERM, "\(end) \(watch.stderr)")
        #expect(ContinuousClock.now - signalledAt < .seconds(2))
        #expect(watch.stderr == lost + "\n" + reconnected + "\n", "nothing else on stderr: \(watch.stderr)")
    }

    @Test("nearby --watch --gpsd warns once when the receiver loses its fix, and a stop during reconnection is prompt")
    func watchWarnsWhenTheFixIsLost() throws {
        // motorola-t805: no fix for 8 epochs, a fix for 4, no fix for 2, then a fix to the end.
        let log = GPSDaemon.fixture("motorola-t805")
        let start = try #require(try Self.loggedFixes(log).first)
        let box = try Sandbox()
        try box.signUp("alice")
        let posted = try box.run(["post", "Cafe", "--at", "\(start.latitude),\(start.longitude)"])
        #expect(posted.status == Exit.success, "\(posted)")

        // 50 sentences at 0.2 s: the first fix ~4.5 s in (long after anywall connects), the
        // replay over after ~10 s.
        let daemon = try GPSDaemon.replaying(log, delay: 0.2)
        defer { daemon.stop() }
        let watch = try LiveProcess(box, ["nearby", "--watch", "--gpsd", daemon.address, "--ndjson", "--interval", "1s"])
        let fixLost = "anywall: warning: lost the location fix from gpsd:\(daemon.address); waiting for it to come back"
        let connectionLost = "anywall: warning: lost the connection to gpsd at \(daemon.address); reconnecting"
        #expect(watch.waitUntil(timeout: .seconds(20)) { $0.stderr.contains(connectionLost) }, "\(watch.stderr)")
        #expect(watch.stderr == fixLost + "\n" + connectionLost + "\n", "\(watch.stderr)")
        let events = Self.events(watch)
        #expect(events.map(\.event) == ["added"], "the fix came back at the same place: \(watch.lines)")
        #expect(events.first?.post["text"] as? String == "Cafe")

        // Waiting between retries; a SIGTERM still ends it at once.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(watch.isRunning)
        let signalledAt = ContinuousClock.now
        watch.signal(SIGTERM)
        let end = watch.finish(timeout: .seconds(3))
        #expect(end.bySignal && end.status == SIGTERM, "\(end) \(watch.stderr)")
        #expect(ContinuousClock.now - signalledAt < .seconds(2))
    }

    // MARK: - Against a stand-in

    /// A stand-in for gpsd: a real gpsd does not reveal what its clients sent it, so this records it.
    /// On SIGTERM, the watch must tell gpsd to stop watching before it goes.
    @Test("nearby --watch --gpsd turns the watch on, and off again before dying by SIGTERM")
    func watchTurnsTheWatchOffOnExit() throws {
        let box = try Sandbox()
        try box.signUp("alice")
        _ = try box.run(["post", "Kiosk", "--at", "52.5,13.4"])
        let fake = try FakeGPSD(script: [
            .send(FakeGPSD.version), .awaitWatch, .send(FakeGPSD.devices + FakeGPSD.watchEcho),
            .send(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-11-20T10:00:00.000Z","lat":52.5,"lon":13.4,"eph":5.0}"# + "\n"),
        ])
        defer { fake.stop() }
        let watch = try LiveProcess(box, ["nearby", "--watch", "--gpsd", fake.address, "--ndjson"])
        #expect(watch.waitUntil { Self.events($0).contains { $0.event == "added" } }, "\(watch.lines) \(watch.stderr)")
        #expect(watch.isRunning)

        watch.signal(SIGTERM)
        let end = watch.finish(timeout: .seconds(3))
        #expect(end.bySignal && end.status == SIGTERM, "\(end) \(watch.stderr)")
        #expect(watch.stderr.isEmpty, "\(watch.stderr)")
        #expect(fake.waitForClientsToClose(timeout: .seconds(3)))
        let sent = try #require(fake.received.first, "no client connected")
        let on = try #require(sent.range(of: #"?WATCH={"enable":true,"json":true};"#), "\(sent)")
        let off = try #require(sent.range(of: #"?WATCH={"enable":false};"#), "\(sent)")
        #expect(on.upperBound <= off.lowerBound, "\(sent)")
        #expect(sent.hasSuffix(#"?WATCH={"enable":false};"# + "\n"), "the last thing sent: \(sent)")
    }

    /// A stand-in for gpsd: only a fake decides exactly how the bytes are cut into writes.
    @Test("where --gpsd reads reports however TCP cuts them: one TPV in two writes, several reports in one")
    func whereReadsSplitAndMergedReports() throws {
        let box = try Sandbox()

        // One TPV in two writes, 300 ms apart, cut in the middle of the latitude.
        let split = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-11-20T10:00:01.000Z","lat":52.512345678,"lon":13.401234567,"eph":4.5}"#
        let cut = split.range(of: "52.51234")!.upperBound
        let slow = try FakeGPSD(script: [
            .send(FakeGPSD.version), .awaitWatch, .send(FakeGPSD.devices + FakeGPSD.watchEcho),
            .send(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"# + "\n"),
            .send(String(split[..<cut])), .pause(0.3), .send(String(split[cut...]) + "\n"),
        ])
        defer { slow.stop() }
        let one = try box.run(["where", "--gpsd", slow.address, "--json", "--fix-timeout", "5"])
        #expect(one.status == Exit.success, "\(one)")
        let first = try #require(Self.object(one.stdout), "\(one)")
        #expect(first["latitude"] as? Double == 52.512345678 && first["longitude"] as? Double == 13.401234567, "\(one.stdout)")
        #expect(first["accuracyMeters"] as? Double == 4.5 && first["source"] as? String == "gpsd:\(slow.address)", "\(one.stdout)")
        #expect(first["time"] as? String == "2026-11-20T10:00:01.000Z", "\(one.stdout)")

        // VERSION, DEVICES, the WATCH echo, a TPV without fix, a SKY and two fixes in one write:
        // the first fix counts. Here gpsd gives epx/epy but no eph.
        let merged = [
            FakeGPSD.devices, FakeGPSD.watchEcho,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2026-11-20T10:00:01.000Z"}"#,
            #"{"class":"SKY","device":"/dev/ttyUSB0","hdop":1.2,"satellites":[{"PRN":5,"el":40,"az":100,"ss":30,"used":true}]}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":2,"time":"2026-11-20T10:00:02.000Z","lat":-33.8688,"lon":151.2093,"epx":3.5,"epy":6.25}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-11-20T10:00:03.000Z","lat":-33.9,"lon":151.3,"eph":2.0}"#,
        ].map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined()
        let fast = try FakeGPSD(script: [.send(FakeGPSD.version), .awaitWatch, .send(merged)])
        defer { fast.stop() }
        let two = try box.run(["where", "--gpsd", fast.address, "--json", "--fix-timeout", "5"])
        #expect(two.status == Exit.success, "\(two)")
        let second = try #require(Self.object(two.stdout), "\(two)")
        #expect(second["latitude"] as? Double == -33.8688 && second["longitude"] as? Double == 151.2093, "\(two.stdout)")
        #expect(second["accuracyMeters"] as? Double == 6.25, "the larger of epx and epy: \(two.stdout)")
        #expect(second["time"] as? String == "2026-11-20T10:00:02.000Z", "\(two.stdout)")
        #expect(Self.keysAreSorted(two.stdout, second), "\(two.stdout)")

        // Both told gpsd to watch, and to stop watching once they had their fix.
        for fake in [slow, fast] {
            #expect(fake.waitForClientsToClose(timeout: .seconds(3)))
            let sent = fake.received.first ?? ""
            #expect(sent.hasPrefix(#"?WATCH={"enable":true,"json":true};"#) && sent.hasSuffix(#"?WATCH={"enable":false};"# + "\n"), "\(sent)")
        }
    }

    // MARK: - Helpers

    /// A TPV report with a fix, as gpsd 3.22 reported it for a log (its `.chk`).
    struct LoggedFix: CustomStringConvertible {
        let latitude: Double
        let longitude: Double
        let time: String?
        /// `eph`, else the larger of `epx` and `epy`.
        let accuracy: Double?

        var description: String { "\(latitude),\(longitude) \(time ?? "-") ±\(accuracy.map { "\($0)" } ?? "-")" }
    }

    /// The TPV reports with mode >= 2 and a position in `log`'s `.chk`, in order.
    static func loggedFixes(_ log: URL) throws -> [LoggedFix] {
        let data = try Data(contentsOf: URL(fileURLWithPath: log.path + ".chk"))
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line -> LoggedFix? in
            guard line.hasPrefix("{"),
                  let report = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  report["class"] as? String == "TPV", let mode = report["mode"] as? Int, mode >= 2,
                  let latitude = report["lat"] as? Double, let longitude = report["lon"] as? Double else { return nil }
            var accuracy = report["eph"] as? Double
            if accuracy == nil, let x = report["epx"] as? Double, let y = report["epy"] as? Double { accuracy = max(x, y) }
            return LoggedFix(latitude: latitude, longitude: longitude, time: report["time"] as? String, accuracy: accuracy)
        }
    }

    /// `text` as one JSON object, if it is one.
    static func object(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// Whether the top-level keys of a flat JSON object appear in `text` in sorted order.
    static func keysAreSorted(_ text: String, _ object: [String: Any]) -> Bool {
        let offsets = object.keys.sorted().map { key in
            text.range(of: "\"\(key)\":").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
        }
        return !offsets.contains(-1) && offsets == offsets.sorted()
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    struct Event {
        let event: String
        let post: [String: Any]
    }

    /// The NDJSON events printed so far.
    static func events(_ watch: LiveProcess) -> [Event] {
        watch.jsonLines.compactMap { line in
            guard let event = line["event"] as? String, let post = line["post"] as? [String: Any] else { return nil }
            return Event(event: event, post: post)
        }
    }
}
