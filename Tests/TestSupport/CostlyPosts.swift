import AnywallSupport
import EmbeddedStore
import Foundation

/// Posts that make a `$regex` slow without any one match being too costly, for the tests of a
/// find's time limit.
package enum CostlyPosts {
    /// A pattern ICU's engine tries about 2^17 ways on each of these posts before it fails: well
    /// under its limit on one match, seconds over a few thousand posts.
    package static let pattern = "^(a|a)*$"

    /// Loads `count` posts into `wall`: 17 a's, "!" and "post N", at 1°N 2°E.
    @discardableResult
    package static func load(_ count: Int, into wall: EmbeddedWall) throws -> EmbeddedWall {
        let lines = (0..<count).map { i in
            #"{"objectId":"p\#(i)","text":"\#(String(repeating: "a", count: 17))! post \#(i)","location":{"latitude":1,"longitude":2}}"#
        }
        let file = wall.file.deletingLastPathComponent().appendingPathComponent("costly-posts.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        _ = try PostImport(reader: PostImportReader(lines: try LineReader(path: file.path)), wall: wall, batchSize: 1_000).run { _ in }
        return wall
    }
}
