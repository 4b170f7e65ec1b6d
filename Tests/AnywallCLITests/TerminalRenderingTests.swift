import Foundation
import TestSupport
import Testing

/// The readable table and `--watch` lines as a person sees them: the real binary with its stdout
/// and stderr on a pseudo-terminal of a given width, and the same commands piped.
@Suite("Readable output on a terminal: width, wrapping, colour")
struct TerminalRenderingTests {
    static let here = "37.7793,-122.4193"
    static let longText = "The farmers market has moved to the old harbour for the summer: fresh bread, cheese, honey and strawberries every Saturday from eight."
    /// No spaces to break at: it breaks where the line ends, between characters two columns wide.
    static let wideText = "東京駅の近くで美味しいラーメン屋を見つけました。とても人気があるので、土曜日の朝は早めに行ってください。スープが最高です🍜"
    static let hiddenText = "Can't view post! Get closer."
    static let dim = "\u{1B}[2m", bold = "\u{1B}[1m", reset = "\u{1B}[0m"

    /// alice's long post here, 山田花子's wide one 801 m away, and zed's 5 km away: hidden.
    private func wall() throws -> Sandbox {
        let box = try Sandbox()
        try box.signUp("zed", name: "Zed Farawayname")
        #expect(try box.run(["post", "A secret far away", "--at", "37.8243,-122.4193"]).status == Exit.success)
        try box.signUp("yamada", name: "山田花子")
        #expect(try box.run(["post", Self.wideText, "--at", "37.7865,-122.4193"]).status == Exit.success)
        try box.signUp("alice")
        #expect(try box.run(["post", Self.longText, "--at", Self.here]).status == Exit.success)
        return box
    }

    /// Terminal columns of the texts these tests print: CJK and emoji take two, the rest (ASCII,
    /// "…") one. A rule of the tests' own, so the binary's measure is checked against another.
    /// A character with an emoji modifier (a skin tone) is one glyph of two columns.
    static func columns(_ text: some StringProtocol) -> Int {
        text.reduce(0) { sum, character in
            let wide = character.unicodeScalars.contains {
                (0x3000...0x9FFF).contains($0.value) || (0xFF01...0xFF60).contains($0.value) || (0x1F300...0x1FAFF).contains($0.value)
            }
            return sum + (wide ? 2 : 1)
        }
    }

    static func withoutStyles(_ text: String) -> String {
        text.replacing(/\x1B\[[0-9;]*m/, with: "")
    }

    /// The printed lines grouped by row: a row starts with a line that does not start with a space
    /// (the header is the first row); the lines under it start with spaces.
    static func rows(_ output: String) -> [[String]] {
        var rows: [[String]] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) {
            if withoutStyles(line).hasPrefix(" "), !rows.isEmpty { rows[rows.count - 1].append(line) } else { rows.append([line]) }
        }
        return rows
    }

    /// Where `part` starts in `line`, in terminal columns.
    static func column(of part: String, in line: String) -> Int? {
        line.range(of: part).map { columns(line[..<$0.lowerBound]) }
    }

    /// What `line` shows from terminal column `column` on.
    static func from(column: Int, of line: String) -> Substring {
        var start = line.startIndex
        while start < line.endIndex, columns(line[..<start]) < column { start = line.index(after: start) }
        return line[start...]
    }

    /// What every rendering of the wall must show at `width` columns, whether coloured or not;
    /// `leading` is what stands before the distance (the event of `--changes`).
    private func expectTable(_ output: String, width: Int, leading: String = "") throws {
        let plain = Self.withoutStyles(output)
        for line in plain.split(separator: "\n") {
            #expect(Self.columns(line) <= width, "wider than \(width): \(line)")
        }
        let rows = Self.rows(plain)
        try #require(rows.count == 4, "a header and three posts: \(plain)")
        let header = rows[0][0]
        let stacked = rows[0].count == 2
        #expect(stacked == (width < 60), "the text beside the row at 120 columns, under it at 40: \(plain)")
        let authorColumn = try #require(Self.column(of: "AUTHOR", in: header))
        let ageColumn = try #require(Self.column(of: "AGE", in: header))
        let textColumn: Int
        if stacked {
            #expect(rows[0][1] == "    TEXT")
            textColumn = 4
        } else {
            textColumn = try #require(Self.column(of: "TEXT", in: header))
        }
        for (row, author) in zip(rows[1...2], ["alice", "山田花子"]) {
            let first = row[0]
            #expect(first.hasPrefix(leading) && first.dropFirst(leading.count).firstMatch(of: #/^\d+ (m|km)  /#) != nil,
                    "the distance with its unit: \(first)")
            #expect(Self.column(of: author, in: first) == authorColumn, "aligned author: \(first)")
            let age = try #require(first.firstMatch(of: /just now|\d+ min ago/), "an age: \(first)")
            #expect(Self.columns(first[..<age.range.lowerBound]) == ageColumn, "aligned age: \(first)")
            // Every line of text starts at the text's column, and the lines read back as the text.
            let textLines = stacked ? Array(row.dropFirst()) : row
            #expect(textLines.count >= 2, "the text wraps: \(row)")
            var pieces: [String] = []
            for (i, line) in textLines.enumerated() {
                let text = Self.from(column: textColumn, of: line)
                let before = line[..<text.startIndex]
                #expect(!stacked && i == 0 ? before.hasSuffix("  ") : before.allSatisfy { $0 == " " }, "\(line)")
                #expect(text.first != " ", "under the text's column: \(line)")
                pieces.append(String(text))
            }
            // The long text breaks only at spaces; the wide one, which has none, between characters.
            let text = author == "alice" ? pieces.joined(separator: " ") : pieces.joined()
            #expect(text == (author == "alice" ? Self.longText : Self.wideText), "words intact: \(pieces)")
        }
        let hidden = rows[3].joined()
        #expect(rows[3][0].dropFirst(leading.count).hasPrefix("5 km"), "\(hidden)")
        #expect(hidden.hasSuffix(Self.hiddenText) && !hidden.contains("Zed") && !hidden.contains("secret"), "\(hidden)")
    }

    @Test("at 40 and 120 columns the table fits the terminal, aligned, text wrapped at words; header bold, hidden rows dim",
          arguments: [40, 120])
    func tableOnATerminal(_ width: Int) throws {
        let box = try wall()
        let terminal = try PseudoTerminal()
        terminal.resize(columns: width)
        let run = try terminal.run(box, ["nearby", "--at", Self.here])
        #expect(run.status == Exit.success, "\(run.output)")
        try expectTable(run.output, width: width)
        let rows = Self.rows(run.output)
        #expect(rows[0].allSatisfy { $0.hasPrefix(Self.bold) && $0.hasSuffix(Self.reset) }, "\(rows[0])")
        #expect(rows[3].allSatisfy { $0.hasPrefix(Self.dim) && $0.hasSuffix(Self.reset) }, "every line of a hidden row is dim: \(rows[3])")
        #expect(!rows[1...2].joined().contains("\u{1B}"), "readable rows are plain")
    }

    @Test("NO_COLOR and --no-color: the same table on a terminal, without any escape", arguments: [40, 120])
    func noColour(_ width: Int) throws {
        let box = try wall()
        let terminal = try PseudoTerminal()
        terminal.resize(columns: width)
        for (arguments, environment) in [([], ["NO_COLOR": "1"]), (["--no-color"], [:])] {
            let run = try terminal.run(box, ["nearby", "--at", Self.here] + arguments, environment: environment)
            #expect(run.status == Exit.success, "\(run.output)")
            #expect(!run.output.contains("\u{1B}"), "\(arguments) \(environment): \(run.output.debugDescription)")
            try expectTable(run.output, width: width)
        }
    }

    @Test("piped, the table has no escapes and one line per post; COLUMNS wraps it all the same")
    func piped() throws {
        let box = try wall()
        let run = try box.run(["nearby", "--at", Self.here])
        #expect(run.status == Exit.success, "\(run)")
        #expect(!run.stdout.contains("\u{1B}"))
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines[1].hasSuffix(Self.longText) && lines[2].hasSuffix(Self.wideText), "\(run.stdout)")
        #expect(lines[3].hasSuffix(Self.hiddenText))

        let narrow = try box.run(["nearby", "--at", Self.here], environment: ["COLUMNS": "40"])
        #expect(!narrow.stdout.contains("\u{1B}"))
        try expectTable(narrow.stdout, width: 40)
        #expect(try box.run(["nearby", "--at", Self.here], environment: ["COLUMNS": "wide"]).stdout == run.stdout,
                "a COLUMNS that is not a number is ignored")
    }

    @Test("--changes on a terminal: the event column, the same wrapping and dim hidden rows", arguments: [40, 120])
    func changes(_ width: Int) throws {
        let box = try wall()
        let terminal = try PseudoTerminal()
        terminal.resize(columns: width)
        let run = try terminal.run(box, ["nearby", "--at", Self.here, "--changes"])
        #expect(run.status == Exit.success, "\(run.output)")
        #expect(Self.rows(run.output)[3].allSatisfy { $0.hasPrefix(Self.dim) }, "\(run.output)")
        try expectTable(run.output, width: width, leading: "added  ")
    }

    @Test("a 60-character author is cut with … and leaves every row's text beside it; a skin-toned emoji is two columns")
    func longAuthorAndSkinTone() throws {
        let box = try Sandbox()
        try box.signUp("bart", name: String(repeating: "Bartholomew", count: 5) + "Smith")
        #expect(try box.run(["post", "short and sweet", "--at", Self.here]).status == Exit.success)
        try box.signUp("thumbs", name: "👍🏽 fan")
        #expect(try box.run(["post", "👍🏽👍🏽 nice", "--at", "37.7794,-122.4193"]).status == Exit.success)
        let run = try box.run(["nearby", "--at", Self.here], environment: ["COLUMNS": "100"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "a header and two rows, each one line: \(run.stdout)")
        let textColumn = try #require(Self.column(of: "TEXT", in: lines[0]), "\(run.stdout)")
        #expect(lines[1].contains("BartholomewBartholomew") && lines[1].contains("… "), "\(run.stdout)")
        #expect(Self.from(column: textColumn, of: lines[1]) == "short and sweet", "\(run.stdout)")
        #expect(Self.from(column: textColumn, of: lines[2]) == "👍🏽👍🏽 nice", "\(run.stdout)")
    }

    @Test("--watch lines piped: a 24-hour time in plain ASCII, and columns that line up from one line to the next")
    func watchLinesPiped() throws {
        let box = try wall()
        let track = box.home.appendingPathComponent("here.nmea")
        try NMEATrack.epoch(latitude: 37.7793, longitude: -122.4193, second: 3600 * 4).write(to: track, atomically: true, encoding: .utf8)
        let run = try box.run(["nearby", "--watch", "--nmea", track.path], environment: ["TZ": "UTC"])
        #expect(run.status == Exit.success, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run)")
        #expect(lines.allSatisfy { $0.hasPrefix("14:00:00  added     ") }, "\(run)")
        #expect(run.stdout.unicodeScalars.allSatisfy { $0.isASCII || $0.value > 0x2FFF }, "no narrow no-break space: \(run.stdout.debugDescription)")
        let starts = zip(lines, [Self.longText, Self.wideText, Self.hiddenText]).map { line, text in
            Self.column(of: String(text.prefix(8)), in: line)
        }
        #expect(Set(starts).count == 1 && starts[0] != nil, "the texts start in one column: \(run.stdout)")
    }

    @Test("--watch lines on a terminal fit its width, the text wrapped and hidden posts dim", arguments: [40, 120])
    func watchLines(_ width: Int) throws {
        let box = try wall()
        let track = box.home.appendingPathComponent("here.nmea")
        try NMEATrack.epoch(latitude: 37.7793, longitude: -122.4193, second: 0).write(to: track, atomically: true, encoding: .utf8)
        let terminal = try PseudoTerminal()
        terminal.resize(columns: width)
        let run = try terminal.run(box, ["nearby", "--watch", "--nmea", track.path])
        #expect(run.status == Exit.success, "\(run.output)")
        let plain = Self.withoutStyles(run.output)
        for line in plain.split(separator: "\n") {
            #expect(Self.columns(line) <= width, "wider than \(width): \(line)")
        }
        let rows = Self.rows(run.output)
        #expect(rows.count == 3, "\(plain)")
        #expect(rows.allSatisfy { $0[0].contains(" added ") }, "\(plain)")
        let long = rows.first { $0[0].contains("alice") }!.map(Self.withoutStyles)
        let pieces = (width == 40 ? long.dropFirst() : long[...]).map { $0.split(separator: "  ").last!.trimmingCharacters(in: .whitespaces) }
        #expect(pieces.count >= 2 && pieces.joined(separator: " ") == Self.longText, "\(long)")
        let hidden = rows.first { Self.withoutStyles($0.joined()).contains(Self.hiddenText) }!
        #expect(hidden.allSatisfy { $0.hasPrefix(Self.dim) && $0.hasSuffix(Self.reset) }, "\(hidden)")
    }
}
