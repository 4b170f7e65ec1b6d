import Foundation
import TestSupport
import Testing

@Suite("Bad input: one line, its exit code, no usage text")
struct BadInputTests {
    static let box = try! Sandbox()

    @Test("coordinates outside Parse's open ranges, NaN and text are refused",
          arguments: ["90,0", "-90,0", "0,180", "0,-180", "NaN,0", "0,nan", "abc", "12", "1,2,3", "north,east", "1e999,0",
                      "0x10,0", "1,0x1p4"])
    func coordinates(_ at: String) throws {
        for command in [["nearby"], ["where"], ["post", "hi"]] {
            let run = try Self.box.run(command + ["--at", at])
            #expect(run.status == Exit.inputRejected, "\(command) --at \(at): \(run)")
            #expect(run.stderr.hasPrefix("anywall: ") && run.stderr.split(separator: "\n").count == 1, "\(run)")
            #expect(!run.stderr.contains("Usage"))
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("bad distances, limits and radius beyond the search distance are refused",
          arguments: [["--radius", "5 parsecs"], ["--radius", "-1km"], ["--radius", "0"], ["--search-distance", "far"],
                      ["--limit", "0"], ["--limit", "1001"], ["--limit", "ten"], ["--radius", "200km"],
                      ["--radius", "2km", "--search-distance", "1km"], ["--fix-timeout", "-3"], ["--fix-timeout", "1e300"],
                      ["--fix-timeout", "nan"], ["--search-distance", "1e308km"]])
    func options(_ flags: [String]) throws {
        let run = try Self.box.run(["nearby", "--at", "1,2"] + flags)
        #expect(run.status == Exit.inputRejected, "\(flags): \(run)")
        #expect(run.stderr.split(separator: "\n").count == 1 && !run.stderr.contains("Usage"), "\(run)")
    }

    @Test("the exact messages for the documented cases")
    func messages() throws {
        #expect(try Self.box.run(["nearby", "--at", "90,0"]).stderr
                == "anywall: latitude 90.0 is out of range: it must be strictly between -90 and 90\n")
        #expect(try Self.box.run(["nearby", "--at", "0,-180"]).stderr
                == "anywall: longitude -180.0 is out of range: it must be strictly between -180 and 180\n")
        #expect(try Self.box.run(["nearby", "--at", "x,1"]).stderr
                == "anywall: bad coordinates 'x,1': latitude 'x' is not a number\n")
        #expect(try Self.box.run(["settings", "set", "radius", "5km"]).stderr
                == "anywall: radius 5 km is not one of the choices: 250 ft, 2000 ft, 1000 m, 5000 ft; for any other radius give "
                + "--radius 5km (or ANYWALL_RADIUS=5km), or on a wall you administer: anywall config set availableFilterDistances "
                + "'[250,2000,5000,16404.2]'\n")
        #expect(try Self.box.run(["settings", "set", "colour", "red"]).stderr
                == "anywall: unknown setting 'colour': the settings are radius, units, location, format, server, app-id, rest-key, live-query-url, timeout, facebook-app-id, facebook-client-token\n")
    }

    @Test("a negative latitude after --at is a value, not a flag")
    func negativeValue() throws {
        #expect(try Self.box.run(["where", "--at", "-33.87,151.21"]).status == Exit.success)
    }

    @Test("unknown flags and commands are usage errors")
    func usage() throws {
        let run = try Self.box.run(["nearby", "--bogus"])
        #expect(run.status == Exit.usage)
        #expect(try Self.box.run(["frobnicate"]).status == Exit.usage)
    }

    @Test("flags that do not go together are usage errors, whichever part of the command finds them",
          arguments: [["where", "--at", "1,1", "--baud", "9600"], ["nearby", "--at", "1,1", "--min-move", "5m"],
                      ["nearby", "--at", "1,1", "--watch", "--changes"]])
    func flagsApart(_ arguments: [String]) throws {
        let run = try Self.box.run(arguments)
        #expect(run.status == Exit.usage, "\(arguments): \(run)")
    }

    @Test("what a command misses off a terminal is a usage error in one line, without the root command's usage",
          arguments: [["login"], ["login", "--username", "ann"], ["signup", "--username", "ann"],
                      ["login", "--username", "ann", "--password-stdin", "--password-file", "/dev/null"]])
    func missingOffTerminal(_ arguments: [String]) throws {
        let run = try Self.box.run(arguments, input: "")
        #expect(run.status == Exit.usage, "\(arguments): \(run)")
        #expect(run.stderr.hasPrefix("anywall: ") && run.stderr.split(separator: "\n").count == 1 && !run.stderr.contains("Usage"), "\(run)")
    }

    @Test("a missing or unreadable import file has its own exit code", arguments: ["/nonexistent/posts.json", "/tmp"])
    func unreadableFile(_ path: String) throws {
        let run = try Self.box.run(["import", path])
        #expect(run.status == Exit.fileUnreadable && run.stderr.hasPrefix("anywall: cannot read \(path)"), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("a folder where a file is read says so, in the system's words, for every file a command reads",
          arguments: [["import", "/tmp"], ["nearby", "--at", "1,1", "--within", "@/tmp"], ["login", "--username", "a", "--password-file", "/tmp"]])
    func folderForFile(_ arguments: [String]) throws {
        let run = try Self.box.run(arguments)
        #expect(run.status == Exit.fileUnreadable && run.stderr == "anywall: cannot read /tmp: Is a directory\n", "\(arguments): \(run)")
    }

    @Test("post text with terminal control characters, or endless stdin, is refused")
    func postInput() throws {
        let box = try Sandbox()
        try box.signUp("eve")
        let escape = try box.run(["post", "hi\u{1B}]0;pwned\u{07}", "--at", "1,2"])
        #expect(escape.status == Exit.inputRejected && escape.stderr.contains("control characters"), "\(escape)")
        let huge = try box.run(["post", "-", "--at", "1,2"], input: String(repeating: "y\n", count: 40_000))
        #expect(huge.status == Exit.inputRejected && huge.stderr.contains("more than 64 KiB"), "\(huge)")
    }

    @Test("a text argument that starts with '-' is given after --")
    func dashText() throws {
        let box = try Sandbox()
        try box.signUp("fay")
        let run = try box.run(["post", "--at", "1,2", "--", "-5 degrees, icy"])
        #expect(run.status == Exit.success, "\(run)")
        #expect(try box.run(["nearby", "--at", "1,2", "--json"]).stdout.contains("-5 degrees, icy"))
    }
}
