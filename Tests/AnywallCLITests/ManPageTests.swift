import Foundation
import TestSupport
import Testing

/// The man page committed in docs/ (the reference the README names, readable before any install)
/// against what the binary says now: the generator's page, and every command's --help.
@Suite("The man page")
struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let committed = root.appendingPathComponent("docs/anywall.1")

    /// The page without its date line (`.Dd`), which says when it was generated, not what it says.
    private static func undated(_ page: String) -> String {
        page.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(".Dd ") }.joined(separator: "\n")
    }

    @Test("docs/anywall.1 is what swift-argument-parser's generator makes from the binary now")
    func committedPageIsCurrent() throws {
        let generator = Sandbox.binary.deletingLastPathComponent().appendingPathComponent("generate-manual")
        try #require(FileManager.default.isExecutableFile(atPath: generator.path),
                     "no \(generator.path): build it with 'swift build --product generate-manual' (scripts/test does)")
        let box = try Sandbox()
        let script = """
            "\(generator.path)" "$ANYWALL" --output-directory "$HOME" && awk -f "\(Self.root.path)/scripts/man-sections.awk" "$HOME/anywall.1"
            """
        let generated = try box.shell(script)
        try #require(generated.status == Exit.success, "\(generated)")
        let page = try String(contentsOf: Self.committed, encoding: .utf8)
        let current = Self.undated(page) == Self.undated(generated.stdout)
        #expect(current, "docs/anywall.1 is stale: run scripts/manpage")
    }

    /// Each command's long options in the page: the `.It Fl -name` entries of the list under its
    /// `.It Em NAME` entry, by command path ("" for anywall itself, "settings set").
    static func pageOptions(_ page: String) -> [String: Set<String>] {
        var options: [String: Set<String>] = [:]
        var stack: [String] = []
        var pending: String?
        for line in page.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".Sh "), !options.isEmpty { break }
            if line.hasPrefix(".It Em ") {
                pending = String(line.dropFirst(".It Em ".count))
            } else if line.hasPrefix(".Bl ") {
                let path = stack.last.map { parent in pending.map { parent.isEmpty ? $0 : "\(parent) \($0)" } ?? parent } ?? ""
                stack.append(path)
                options[path, default: []].formUnion([])
                pending = nil
            } else if line == ".El" {
                _ = stack.popLast()
            } else if line.hasPrefix(".It Fl "), let path = stack.last {
                for word in line.split(separator: " ") where word.hasPrefix("-") && word.count > 1 {
                    options[path, default: []].insert("-" + word)
                }
            }
        }
        return options
    }

    /// Sections of `--help` that list no options of the command.
    static let sectionsWithoutOptions: Set = ["EXAMPLES", "ARGUMENTS", "SUBCOMMANDS", "EXIT STATUS", "FILES", "ENVIRONMENT"]

    /// The long options `--help` lists (under OPTIONS, or an option group's own title), from each
    /// entry's own line, not its text.
    static func helpOptions(_ help: String) -> Set<String> {
        var options: Set<String> = []
        var section = ""
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty { section = String(line.prefix { $0 != ":" }) }
            guard !sectionsWithoutOptions.contains(section), line.hasPrefix("  -") else { continue }
            let signature = line.dropFirst(2).components(separatedBy: "  ")[0]
            for word in signature.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("--") {
                options.insert(String(word.prefix { $0 != "=" }))
            }
        }
        return options
    }

    @Test("every command's --help and the man page list the same options")
    func helpMatchesPage() throws {
        let page = try String(contentsOf: Self.committed, encoding: .utf8)
        let documented = Self.pageOptions(page)
        let box = try Sandbox()
        // The commands, as the binary knows them (the tree the page is generated from).
        let dump = try box.run(["--experimental-dump-help"]).json as! [String: Any]
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["commandName"] as? String != "help" {
                walk(sub, path + [sub["commandName"] as! String])
            }
        }
        walk(dump["command"] as! [String: Any], [])
        #expect(paths.count > 15, "\(paths)")
        for path in paths {
            let help = try box.run(path + ["--help"])
            #expect(help.status == Exit.success, "\(path): \(help)")
            let listed = Self.helpOptions(help.stdout)
            #expect(!listed.isEmpty && listed.contains("--help"), "\(path): \(help.stdout)")
            #expect(documented[path.joined(separator: " ")] == listed,
                    "anywall \(path.joined(separator: " ")): --help lists \(listed.sorted()), the man page \(documented[path.joined(separator: " ")]?.sorted() ?? [])")
        }
    }
}
