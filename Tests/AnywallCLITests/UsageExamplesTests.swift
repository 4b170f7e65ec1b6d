import Foundation
import TestSupport
import Testing

/// The README's Usage examples, shown by each command's help through scripts/examples.
@Suite("Usage examples in each command's help")
struct UsageExamplesTests {
    /// One line of a `#### COMMAND` block under README.md's "## Usage" > "### Examples".
    struct Example: CustomStringConvertible {
        let command: String
        let comment: String

        var description: String { "\(command)   # \(comment)" }
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The README's examples by command path ("nearby", "settings set"), read here rather than from
    /// the generated file, so that a generator that drops or mangles one is caught.
    static func readmeExamples(_ readme: String) -> [String: [Example]] {
        let lines = readme.components(separatedBy: "\n")
        guard let usage = lines.firstIndex(of: "## Usage"),
              let start = lines[usage...].firstIndex(of: "### Examples") else { return [:] }
        var blocks: [String: [Example]] = [:]
        var command: String?
        var inBlock = false
        for line in lines[(start + 1)...] {
            if !inBlock && (line.hasPrefix("## ") || line.hasPrefix("### ")) { break }
            if line.hasPrefix("#### ") {
                command = String(line.dropFirst(5))
            } else if line == "```sh" || line == "```" {
                inBlock = line == "```sh"
            } else if inBlock, let command, let match = line.firstMatch(of: /^(\S.*?)\s+#\s+(\S.*)$/) {
                blocks[command, default: []].append(Example(command: String(match.1), comment: String(match.2)))
            }
        }
        return blocks
    }

    /// Every command and subcommand, as the binary describes itself (the help command aside).
    static func commandPaths() throws -> [String] {
        let dump = try Sandbox().run(["--experimental-dump-help"])
        guard let root = (dump.json as? [String: Any])?["command"] as? [String: Any] else {
            throw HelperFailure(description: "--experimental-dump-help gave no command: \(dump)")
        }
        func paths(_ command: [String: Any], _ prefix: [String]) -> [String] {
            ((command["subcommands"] as? [[String: Any]]) ?? []).flatMap { sub -> [String] in
                guard let name = sub["commandName"] as? String, name != "help" else { return [] }
                return [(prefix + [name]).joined(separator: " ")] + paths(sub, prefix + [name])
            }
        }
        return paths(root, [])
    }

    @Test("`help COMMAND` and `COMMAND --help` show every example the README gives the command",
          arguments: try commandPaths())
    func helpShowsExamples(_ path: String) throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        // A command shows its own examples and those of its subcommands.
        let examples = Self.readmeExamples(readme)
            .filter { $0.key == path || $0.key.hasPrefix(path + " ") }
            .flatMap(\.value)
        #expect(!examples.isEmpty, "README.md has no examples for '\(path)': add '#### \(path)' under ### Examples")
        let words = path.split(separator: " ").map(String.init)
        let help = try Sandbox().run(["help"] + words)
        #expect(help.status == Exit.success, "\(help)")
        let lines = Set(help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for example in examples {
            #expect(lines.contains(example.command) && lines.contains("# \(example.comment)"),
                    "`anywall help \(path)` does not show \(example): run scripts/examples")
        }
        #expect(try Sandbox().run(words + ["--help"]).stdout == help.stdout)
    }

    @Test("The generated Swift file is what scripts/examples makes of the README now")
    func generatedFileIsCurrent() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Sandbox().shell("'\(Self.root.path)/scripts/examples' --output '\(output.path)'")
        #expect(run.status == 0, "\(run)")
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/AnywallCLI/UsageExamples.swift"), encoding: .utf8)
        #expect(try String(contentsOf: output, encoding: .utf8) == committed,
                "Sources/AnywallCLI/UsageExamples.swift is stale: run scripts/examples")
    }

    @Test("scripts/examples fails when a command has no examples in the README", arguments: ["passwd", "config refresh"])
    func generatorRefusesMissingExamples(_ path: String) throws {
        // A copy of what the generator reads, with the command's block taken out of the README.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for part in ["scripts/examples", "Sources/AnywallCLI"] {
            let target = copy.appendingPathComponent(part)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.root.appendingPathComponent(part), to: target)
        }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let heading = try #require(readme.range(of: "#### \(path)\n"))
        let blockEnd = try #require(readme.range(of: "```\n", range: heading.upperBound..<readme.endIndex))
        try readme.replacingCharacters(in: heading.lowerBound..<blockEnd.upperBound, with: "")
            .write(to: copy.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)

        let run = try Sandbox().shell("'\(copy.path)/scripts/examples'")
        #expect(run.status != 0)
        #expect(run.stderr.contains("README.md has no examples for '\(path)'"), "\(run)")
    }
}
