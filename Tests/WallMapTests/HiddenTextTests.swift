import Foundation
import Testing
import TestSupport
import WallDomain
import WallMap

/// A hidden post's text never reaches a frame: every line of every frame is searched for it.
@Suite("No frame shows a hidden post's text")
struct HiddenTextTests {
    static let secret = "vault code 7741"

    @Test("in every style and size, walking away from a post that was readable, no frame holds its text")
    func everyFrame() throws {
        let start = try GeoPoint(latitude: 52.52, longitude: 13.405)
        let post = Post(objectId: "s", text: Self.secret, location: try start.moved(.meters(100), bearing: 45), author: "mallory",
                        createdAt: Date(timeIntervalSince1970: 0))
        let near = Post(objectId: "n", text: "Hello Berlin", location: try start.moved(.meters(50), bearing: 200), author: "alice",
                        createdAt: Date(timeIntervalSince1970: 0))
        let radius = Distance.meters(300)
        var seen = [post, near].seen(from: start, filterRadius: radius)
        var frames = 0, readable = 0
        // Walking south-west: the secret is readable at first, then hidden; each step is seen again, as --watch does.
        for step in 0..<12 {
            let here = try start.moved(.meters(Double(step) * 60), bearing: 225)
            seen = seen.map { $0.seen(from: here, filterRadius: radius) }
            let scene = RadarScene(posts: seen, fix: Fix(point: here, source: "nmea:track"), filterRadius: radius, units: .metric,
                                   now: Date(timeIntervalSince1970: 0))
            for style in MapStyle.allCases {
                for size in [MapSize(columns: 40, rows: 12), MapSize(columns: 80, rows: 24), MapSize(columns: 200, rows: 60)] {
                    let text = RadarRenderer(style: style, size: size).render(scene).lines.joined(separator: "\n")
                    frames += 1
                    if seen[0].visible {
                        readable += 1
                        #expect(text.contains(Self.secret), "while readable the text is listed")
                    } else {
                        #expect(!text.contains("vault") && !text.contains("7741") && !text.contains("mallory"), "step \(step) \(style) \(size):\n\(text)")
                    }
                }
            }
        }
        #expect(frames == 12 * 9 && readable > 0 && readable < frames, "both sides of the radius were drawn")
    }
}
