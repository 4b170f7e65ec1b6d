import Foundation
import Testing

@Suite("Bad input: one line, its exit code, no usage text")
struct BadInputTests {
    static let box = try! Sandbox()

    @Test("coordinates outside Parse's open ranges, NaN and text are refused",
          arguments: ["90,0", "-90,0", "0,180", "0,-180", "NaN,0", "0,nan", "abc", "12", "1,2,3", "north,east", "1e999,0"])
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
                      ["--radius", "2km", "--search-distance", "1km"], ["--fix-timeout", "-3"]])
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
                == "anywall: radius 5 km is not one of the choices: 250 ft, 2000 ft, 1000 m, 5000 ft\n")
        #expect(try Self.box.run(["settings", "set", "colour", "red"]).stderr
                == "anywall: unknown setting 'colour': the settings are radius, units, location, format\n")
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

    @Test("a missing import file has its own exit code")
    func missingFile() throws {
        let run = try Self.box.run(["import", "/nonexistent/posts.json"])
        #expect(run.status == Exit.fileUnreadable && run.stderr.contains("/nonexistent/posts.json"), "\(run)")
    }
}
