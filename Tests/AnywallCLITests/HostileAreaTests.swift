import Foundation
import TestSupport
import Testing

/// Areas fuzzing found to kill the process inside GEOS: through the real binary, each is now
/// one line and the input-rejected exit code.
@Suite("Hostile areas")
struct HostileAreaTests {
    @Test("areas that crashed GEOS are refused", arguments: [
        #"{"type":"Polygon","coordinates":[[[],[1,1],[0,0]]]}"#,
        #"{"type":"MultiPolygon","coordinates":[[[[1],[1,1],[0,0]]]]}"#,
    ])
    func refused(_ area: String) throws {
        let box = try Sandbox()
        let run = try box.run(["nearby", "--at", "1,1", "--within", area])
        #expect(run.status == Exit.inputRejected && run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.hasPrefix("anywall: bad GeoJSON") && run.stderr.split(separator: "\n").count == 1, "\(run)")
    }

    @Test("an area file with a NUL in it is refused")
    func nul() throws {
        let box = try Sandbox()
        let file = box.home.appendingPathComponent("area.json")
        try Data((#"{"type":"Polygon","coordinates":[[[],[1,1],[0,0]]]}"# + "\0\0\0").utf8).write(to: file)
        let run = try box.run(["nearby", "--at", "1,1", "--within", "@\(file.path)"])
        #expect(run.status == Exit.inputRejected && run.stderr.contains("NUL"), "\(run)")
    }
}
