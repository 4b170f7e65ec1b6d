import ArgumentParser
import Foundation
import WallDomain
import WallMap

extension AnywallBench {
    /// Draws the radar of `nearby --map` for a fixed scene and reports what one frame costs.
    struct MapDrawing: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "map",
            abstract: "Draw a map frame of N posts and print {\"posts\":N,\"size\":\"WxH\",\"style\":S,\"radius\":D,\"frames\":N,\"p50Micros\":..,...}.")

        @Option(help: "Posts in the scene, spread evenly over three filter radii (a ninth of them within it).") var posts = 200
        @Option(help: "The frame's size, COLSxROWS.") var size = "200x60"
        @Option(help: "braille, blocks or ascii.") var style = "braille"
        @Option(help: "Frames drawn.") var frames = 500
        @Option(help: "The filter radius, e.g. 1km; the posts spread over three times it. From 70km on an 80-column frame the coastline is drawn too.")
        var radius = "1km"

        func run() throws {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, let style = MapStyle(rawValue: style), frames >= 1, posts >= 0 else {
                throw ValidationError("--size COLSxROWS, --style braille|blocks|ascii, --frames >= 1, --posts >= 0")
            }
            let renderer = RadarRenderer(style: style, size: MapSize(columns: parts[0], rows: parts[1]))
            let scene = try Self.scene(posts: posts, filterRadius: try Distance(parsing: radius))
            var samples: [UInt64] = []
            for _ in 0..<frames {
                let start = DispatchTime.now().uptimeNanoseconds
                let frame = renderer.render(scene)
                samples.append(DispatchTime.now().uptimeNanoseconds - start)
                precondition(frame.markers.count + frame.arrows.count > 0 || posts == 0)
            }
            let latency = LatencySummary(nanoseconds: samples)
            print(#"{"posts":\#(posts),"size":"\#(size)","style":"\#(style.rawValue)","radius":"\#(radius)","frames":\#(frames),"#
                + #""p50Micros":\#(latency.p50),"p90Micros":\#(latency.p90),"p99Micros":\#(latency.p99),"minMicros":\#(latency.min)}"#)
        }

        /// Posts spread evenly by a golden-angle spiral over three filter radii around San Francisco's City Hall.
        static func scene(posts count: Int, filterRadius: Distance) throws -> RadarScene {
            let center = try GeoPoint(latitude: 37.7793, longitude: -122.4193)
            let posts = try (0..<count).map { index -> NearbyPost in
                let meters = 3 * filterRadius.meters * sqrt(Double(index) / Double(max(1, count)))
                let angle = Double(index) * 137.508 * .pi / 180
                let point = try GeoPoint(latitude: center.latitude + meters * cos(angle) / 111_195,
                                         longitude: center.longitude + meters * sin(angle) / (111_195 * cos(center.latitude * .pi / 180)))
                return NearbyPost(Post(objectId: "p\(index)", text: "post number \(index)", location: point, author: "bench", createdAt: Date()),
                                  from: center, filterRadius: filterRadius)
            }.sorted { $0.distance < $1.distance }
            return RadarScene(posts: posts, fix: Fix(point: center, source: "fixed"), filterRadius: filterRadius, units: .metric, now: Date())
        }
    }
}
