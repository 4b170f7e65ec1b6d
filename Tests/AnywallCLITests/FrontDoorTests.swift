import Foundation
import TestSupport
import Testing

/// What a new user types on a first try (issue 32): each mistake gets one line saying what to type.
@Suite("The front door: first tries get answers")
struct FrontDoorTests {
    static let box = try! Sandbox()

    @Test("a misspelled command is named with a suggestion, wherever it is",
          arguments: [(["nearbi", "--at", "1,1"], "unknown command 'nearbi': did you mean 'nearby'?"),
                      (["nearbi"], "unknown command 'nearbi': did you mean 'nearby'?"),
                      (["help", "nearbi"], "unknown command 'nearbi': did you mean 'nearby'?"),
                      (["config", "frobnicate"], "unknown command 'config frobnicate': the commands of 'anywall config' are show, refresh, set, unset, init"),
                      (["settings", "get", "radius"], "unknown command 'settings get': did you mean 'set'? the commands of 'anywall settings' are show, set, unset")])
    func misspelledCommand(_ arguments: [String], _ message: String) throws {
        let run = try Self.box.run(arguments)
        #expect(run.status == Exit.usage, "\(run)")
        #expect(run.stderr.hasPrefix("anywall: \(message)"), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stdout.isEmpty, "\(run)")
    }

    @Test("the commands' own spellings still work: a default subcommand's options, help of a nested command")
    func rightCommands() throws {
        #expect(try Self.box.run(["settings", "--json"]).status == Exit.success)
        #expect(try Self.box.run(["help", "settings", "set"]).stdout.contains("settings set"))
        #expect(try Self.box.run(["where", "--at", "1,1"]).status == Exit.success)
    }

    @Test("the parser's own refusals start as every other error does, in lower case")
    func parserErrorStyle() throws {
        let run = try Self.box.run(["nearby", "--bogus"])
        #expect(run.status == Exit.usage)
        #expect(run.stderr.hasPrefix("anywall: unknown option '--bogus'"), "\(run)")
        #expect(!run.stderr.contains("Error:"), "\(run)")
        #expect(run.stderr.contains("Usage: anywall nearby"), "the usage of the command follows: \(run)")
    }

    /// Failing commands of every kind the suite drives: the parser's refusals (unknown flags,
    /// missing values and arguments, flags that do not go together), commands' own usage errors,
    /// bad input, unreadable files, missing log-ins, no fix.
    static let failures: [[String]] = [
        ["nearby", "--bogus"], ["frobnicate"], ["nearby", "--limit"], ["settings", "set"], ["settings", "set", "radius"],
        ["where", "--at", "1,1", "--nmea", "x"], ["nearby", "--at", "1,1", "--watch", "--changes"], ["where", "--at", "1,1", "--baud", "9600"],
        ["nearby", "--at", "1,1", "--min-move", "5m"], ["post", "hi", "--at", "1,1", "--jsn"], ["login"], ["nearby", "--at", "91,0"],
        ["nearby", "--at", "1,1", "--radius", "far"], ["settings", "set", "colour", "red"], ["import", "/nonexistent"],
        ["whoami"], ["where"], ["config", "set", "postMaxCharacterCount", "lots"], ["help", "nearbi"], ["outbox", "drop"],
    ]

    @Test("one error style everywhere: the first line starts 'anywall: ', the parser's refusals included", arguments: failures)
    func oneErrorStyle(_ arguments: [String]) throws {
        let run = try Self.box.run(arguments, input: "")
        #expect(run.status != Exit.success, "\(run)")
        #expect(run.stderr.hasPrefix("anywall: "), "\(arguments): \(run)")
        #expect(!run.stderr.contains("Error:"), "\(arguments): \(run)")
        if run.status != Exit.usage {
            #expect(run.stderr.split(separator: "\n").count == 1, "one line, without the usage: \(run)")
        }
    }

    @Test("a post's text that starts with '-' is the text", arguments: ["-5 degrees and icy", "-5", "--- icy ---"])
    func textLikeAFlag(_ text: String) throws {
        let box = try Sandbox()
        try box.signUp("alice")
        let run = try box.run(["post", text, "--at", "1,1", "--json"])
        try #require(run.status == Exit.success, "\(run)")
        #expect((run.json as? [String: Any])?["text"] as? String == text, "\(run)")
    }

    @Test("a misspelled flag of post is still a flag, and a text in two words says to quote it")
    func postMistakes() throws {
        let flag = try Self.box.run(["post", "hi", "--at", "1,1", "--jsn"])
        #expect(flag.status == Exit.usage && flag.stderr.contains("--jsn"), "\(flag)")
        let words = try Self.box.run(["post", "hello", "world", "--at", "1,1"])
        #expect(words.status == Exit.usage, "\(words)")
        #expect(words.stderr.hasPrefix("anywall: unexpected argument 'world': a post's text is one argument: quote it"), "\(words)")
        #expect(words.stderr.split(separator: "\n").count == 1, "\(words)")
        let option = try Self.box.run(["post", "-icy", "--at", "1,1"])
        #expect(option.status == Exit.usage && option.stderr.contains("goes after '--'"), "\(option)")
    }

    @Test("coordinates given as two words say to join them with a comma", arguments: [["where"], ["post"], ["post", "hi"]])
    func coordinatesWithASpace(_ command: [String]) throws {
        let run = try Self.box.run(command + ["--at", "37.7793", "-122.4193"])
        #expect(run.status == Exit.inputRejected, "\(run)")
        #expect(run.stderr == "anywall: --at takes one value, LAT,LON, with a comma and no space: --at 37.7793,-122.4193\n", "\(run)")
    }

    @Test("swapped latitude and longitude are named as such")
    func swappedCoordinates() throws {
        let run = try Self.box.run(["where", "--at", "-122.4193,37.7793"])
        #expect(run.status == Exit.inputRejected, "\(run)")
        #expect(run.stderr == "anywall: latitude -122.4193 is out of range: it must be strictly between -90 and 90; "
                + "latitude and longitude swapped? LAT comes first: --at 37.7793,-122.4193\n")
        let box = try Self.box.run(["nearby", "--at", "37.78,-122.42", "--within", "37.77,-122.43,37.79,-122.40"])
        #expect(box.status == Exit.inputRejected && box.stderr.contains("SOUTH -122.43 is not a latitude")
                && box.stderr.contains("swapped?"), "\(box)")
    }
}
