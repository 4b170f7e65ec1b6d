import Foundation
import Testing

/// Frames kept as plain text under fixtures/map, compared byte for byte. Run the tests with
/// `ANYWALL_UPDATE_GOLDEN=1` to write what the binary draws now instead, then read the diff.
enum GoldenFrame {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/map")

    static func check(_ name: String, _ frame: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["ANYWALL_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try frame.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        let first = zip(expected.split(separator: "\n", omittingEmptySubsequences: false), frame.split(separator: "\n", omittingEmptySubsequences: false))
            .enumerated().first { $0.element.0 != $0.element.1 }
        #expect(frame == expected, "\(name).txt differs\(first.map { " from line \($0.offset + 1):\n  kept: \($0.element.0)\n  now:  \($0.element.1)" } ?? "") (ANYWALL_UPDATE_GOLDEN=1 rewrites it)",
                sourceLocation: sourceLocation)
    }
}
