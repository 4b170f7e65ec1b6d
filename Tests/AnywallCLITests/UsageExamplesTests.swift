import Foundation
import TestSupport
import Testing

/// Each command's examples are written with the command (UsageExamples.swift) and shown by its
/// help; the README shows one of each, and must show nothing the help does not.
@Suite("Usage examples in each command's help")
struct UsageExamplesTests {
    /// One line of a `#### COMMAND` block under README.md's "## Examples".
    struct Example: CustomStringConvertible {
        let command: String
        let comment: String

        var description: String { "\(command)   # \(comment)" }
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The README's examples by command path ("nearby", "settings set").
    static func readmeExamples(_ readme: String) -> [String: [Example]] {
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## Examples") else { return [:] }
        var blocks: [String: [Example]] = [:]
        var command: String?
        var inBlock = false
        for line in lines[(start + 1)...] {
            if !inBlock && line.hasPrefix("## ") { break }
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

    @Test("every command's help ends with its examples, and shows the one the README gives it",
          arguments: try commandPaths())
    func helpShowsExamples(_ path: String) throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let words = path.split(separator: " ").map(String.init)
        let help = try Sandbox().run(["help"] + words)
        #expect(help.status == Exit.success, "\(help)")
        #expect(help.stdout.contains("EXAMPLES:"), "`anywall help \(path)` shows no examples: add them in UsageExamples.swift")
        // A command with subcommands (settings, config) is shown in the README by theirs.
        let examples = Self.readmeExamples(readme).filter { $0.key == path || $0.key.hasPrefix(path + " ") }.flatMap(\.value)
        #expect(!examples.isEmpty, "README.md shows no example of '\(path)': add '#### \(path)' under ## Examples")
        let lines = Set(help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for example in examples where Self.readmeExamples(readme)[path] != nil {
            #expect(lines.contains(example.command) && lines.contains("# \(example.comment)"),
                    "README.md shows \(example), which `anywall help \(path)` does not: examples are written in UsageExamples.swift")
        }
        #expect(try Sandbox().run(words + ["--help"]).stdout == help.stdout)
    }

    @Test("the README shows examples only of commands that exist")
    func readmeNamesRealCommands() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let paths = Set(try Self.commandPaths())
        let shown = Self.readmeExamples(readme)
        #expect(!shown.isEmpty)
        #expect(Set(shown.keys).subtracting(paths).isEmpty, "\(Set(shown.keys).subtracting(paths))")
    }
}
