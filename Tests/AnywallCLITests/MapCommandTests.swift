import Foundation
import Testing
import TestSupport
import WallDomain

/// `nearby --map` as the real binary draws it: one plain frame on a pipe, golden frames for each
/// style, and refusals in one line.
@Suite("nearby --map")
struct MapCommandTests {
    static let here = "37.7793,-122.4193"
    /// What only hidden posts say: no frame may show any of it.
    static let secretWords = ["vault", "7741", "garden", "mallory"]

    /// Three readable posts around you, two beyond the 1 km filter radius, one far to the east.
    static func wall(crowded: Bool = false) throws -> Sandbox {
        let box = try Sandbox(.embedded)
        try box.signUp("alice")
        let center = try GeoPoint(parsing: here)
        var posts: [(String, Double, Double)] = [
            ("Free coffee at the corner", 180, 45), ("Road closed at the bridge", 600, 180), ("Street fair on Saturday", 400, 270),
            ("Lost cat, answers to Tom", 850, 330), ("Ferry leaves at 6", 12_000, 95),
        ]
        if crowded { posts += [("Bench one", 300, 120), ("Bench two", 302, 120), ("Bench three", 304, 120)] }
        for (text, meters, bearing) in posts {
            let point = try center.moved(.meters(meters), bearing: bearing)
            try post(box, text, at: point)
        }
        try box.signUp("mallory")
        try post(box, "The vault code is 7741", at: try center.moved(.meters(1800), bearing: 80))
        try post(box, "Secret garden key under the mat", at: try center.moved(.meters(2600), bearing: 10))
        return box
    }

    private static func post(_ box: Sandbox, _ text: String, at point: GeoPoint) throws {
        let run = try box.run(["post", text, "--at", "\(point.latitude),\(point.longitude)"])
        precondition(run.status == Exit.success, "\(run)")
    }

    private func map(_ box: Sandbox, _ extra: [String] = [], environment: [String: String] = [:]) throws -> Sandbox.Run {
        try box.run(["nearby", "--at", Self.here, "--map"] + extra, environment: environment)
    }

    @Test("piped: one frame of 80x24 without escapes, every line within the width, posts by key, hidden ones without text")
    func pipedFrame() throws {
        let box = try Self.wall()
        let run = try map(box)
        #expect(run.status == Exit.success, "\(run)")
        #expect(!run.stdout.contains("\u{1B}"))
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 24, "\(run.stdout)")
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(run.stdout.contains("Free coffee at the corner") && run.stdout.contains("Can't view post! Get closer."))
        #expect(lines.last?.hasPrefix("radius 1 km · 4 shown, 3 hidden · 1 col = 102 m · fixed") == true, "\(lines.last ?? "")")
        try GoldenFrame.check("city", run.stdout)
    }

    @Test("the size comes from --size, else COLUMNS and LINES")
    func sizes() throws {
        let box = try Self.wall()
        for (extra, environment, columns, rows) in [([String](), ["COLUMNS": "120", "LINES": "40"], 120, 40),
                                                     (["--size", "40x12"], ["COLUMNS": "120"], 40, 12),
                                                     (["--size", "200x60"], [:], 200, 60)] {
            let run = try map(box, extra, environment: environment)
            #expect(run.status == Exit.success, "\(run)")
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == rows && lines.allSatisfy { $0.count <= columns }, "\(extra) \(environment):\n\(run.stdout)")
        }
    }

    @Test("golden frames: hidden posts, a crowded cell, ascii, blocks, TERM=dumb, a 500 km view with the coastline")
    func goldenFrames() throws {
        let box = try Self.wall()
        let wide = try map(box, ["--radius", "170km", "--search-distance", "500km"]).stdout
        #expect(wide.contains("coast ≈1:110m") && wide.contains("1 col = 17.3 km"), "\(wide)")
        try GoldenFrame.check("coast", wide)
        try GoldenFrame.check("hidden", try map(box, ["--radius", "500m"]).stdout)
        try GoldenFrame.check("ascii", try map(box, ["--map-style", "ascii"]).stdout)
        try GoldenFrame.check("blocks", try map(box, ["--map-style", "blocks"]).stdout)
        #expect(try map(box, environment: ["TERM": "dumb"]).stdout == (try map(box, ["--map-style", "ascii"]).stdout))
        let crowded = try Self.wall(crowded: true)
        let frame = try map(crowded).stdout
        #expect(frame.contains("+2"), "three posts in one cell are counted:\n\(frame)")
        try GoldenFrame.check("crowded", frame)
    }

    @Test("on a terminal with NO_COLOR: no escapes, and the styles still differ by glyph")
    func noColor() throws {
        let box = try Self.wall()
        var frames: [String] = []
        for style in ["braille", "blocks", "ascii"] {
            let terminal = try PseudoTerminal()
            let (status, output) = try terminal.run(box, ["nearby", "--at", Self.here, "--map", "--map-style", style, "--size", "80x24"],
                                                    environment: ["NO_COLOR": "1"])
            #expect(status == Exit.success, "\(output)")
            #expect(!output.contains("\u{1B}"), "\(output)")
            frames.append(output)
        }
        #expect(Set(frames).count == 3)
        try GoldenFrame.check("no-color", frames[0])
    }

    @Test("no frame, in any style, size or radius, holds a hidden post's text")
    func hiddenTextInNoFrame() throws {
        let box = try Self.wall()
        var frames = 0
        for style in ["braille", "blocks", "ascii"] {
            for size in ["40x12", "80x24", "200x60"] {
                for radius in ["100m", "500m", "1km", "1500m"] {
                    let run = try map(box, ["--map-style", style, "--size", size, "--radius", radius])
                    #expect(run.status == Exit.success, "\(run)")
                    for word in Self.secretWords {
                        #expect(!run.stdout.lowercased().contains(word), "\(style) \(size) \(radius) shows '\(word)':\n\(run.stdout)")
                    }
                    frames += 1
                }
            }
        }
        // Within 3 km the secrets are readable: the search above would have found them.
        #expect(try map(box, ["--radius", "3km"]).stdout.contains("vault"))
        #expect(frames == 36)
    }

    @Test("refused: --watch --map on a pipe, a bad or small --size, a bad style (one line); --map with --json, --map-style alone (usage)")
    func refusals() throws {
        let box = try Self.wall()
        let cases: [([String], Int32, String)] = [
            (["--watch", "--map"], Exit.usage, "--ndjson"),
            (["--map", "--size", "30x10"], Exit.inputRejected, "40x12"),
            (["--map", "--size", "wide"], Exit.inputRejected, "COLSxROWS"),
            (["--map", "--map-style", "oil"], Exit.inputRejected, "braille, blocks, ascii"),
            (["--map", "--json"], Exit.usage, "--json"),
            (["--map-style", "ascii"], Exit.usage, "--map"),
        ]
        for (arguments, status, words) in cases {
            let run = try box.run(["nearby", "--at", Self.here] + arguments)
            #expect(run.status == status, "\(arguments): \(run)")
            // Flags that do not go together are usage errors: the parser adds the usage text below the line.
            let lines = run.stderr.split(separator: "\n")
            #expect((status == Exit.usage && !arguments.contains("--watch") || lines.count == 1) && lines.first?.contains(words) == true,
                    "\(arguments): \(run)")
        }
        let small = try box.run(["nearby", "--at", Self.here, "--map"], environment: ["COLUMNS": "30"])
        #expect(small.status == Exit.inputRejected && small.stderr == "anywall: terminal too small (need 40x12)\n", "\(small)")
    }
}
