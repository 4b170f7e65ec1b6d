import Foundation
import Testing
import TestSupport
import WallDomain
import WallMap

/// The radar against an independent computation: markers where the haversine distance and bearing
/// put them, you in the centre, the filter circle round and whole, every post accounted for.
@Suite("The radar puts everything where the sphere says")
struct RadarOracleTests {
    /// A city, 60°N (where forgetting cos(latitude) halves every east-west distance), and Fiji across the antimeridian.
    static let places: [(name: String, latitude: Double, longitude: Double)] = [
        ("San Francisco", 37.7793, -122.4193), ("Helsinki, 60°N", 60.1699, 24.9384), ("Fiji, on the antimeridian", -16.5, 179.9995),
    ]
    static let radius = Distance.meters(1000)

    /// Posts all round at 0.2 to 1.3 times the radius: the farther ones hidden.
    static func scene(at place: (name: String, latitude: Double, longitude: Double)) throws -> RadarScene {
        let fix = try GeoPoint(latitude: place.latitude, longitude: place.longitude)
        var posts: [Post] = []
        for (index, bearing) in stride(from: 7.0, to: 360, by: 29).enumerated() {
            let meters = radius.meters * (0.2 + 0.1 * Double(index))
            posts.append(Post(objectId: "p\(index)", text: "post \(index)", location: try fix.moved(.meters(meters), bearing: bearing),
                              author: "alice", createdAt: Date(timeIntervalSince1970: 0)))
        }
        posts.sort { $0.location.distance(to: fix) < $1.location.distance(to: fix) }
        return RadarScene(posts: posts.seen(from: fix, filterRadius: radius), fix: Fix(point: fix, source: "fixed"),
                          filterRadius: radius, units: .metric, now: Date(timeIntervalSince1970: 0))
    }

    static let sizes = [MapSize(columns: 80, rows: 24), MapSize(columns: 200, rows: 60), MapSize(columns: 40, rows: 12)]

    @Test("each post's marker is within a cell of where the haversine distance and bearing put it",
          arguments: places, MapStyle.allCases)
    func markersWhereTheOracleSays(place: (name: String, latitude: Double, longitude: Double), style: MapStyle) throws {
        let scene = try Self.scene(at: place)
        for size in Self.sizes {
            let frame = RadarRenderer(style: style, size: size).render(scene)
            for marker in frame.markers {
                for index in marker.posts {
                    let expected = GreatCircleOracle.cell(of: scene.posts[index].location, from: scene.fix.point, in: frame)
                    #expect(abs(expected.column - marker.cell.column) <= 1 && abs(expected.row - marker.cell.row) <= 1,
                            "\(place.name) \(size): post \(index) at \(marker.cell), the oracle says \(expected)")
                }
                if marker.cell != frame.center {
                    let cell = frame.grid[marker.cell.row][marker.cell.column]
                    #expect(cell.kind == .post || cell.kind == .hiddenPost, "\(place.name) \(size): \(cell) at \(marker.cell)")
                }
            }
            #expect(!frame.markers.isEmpty)
        }
    }

    @Test("you are in the centre cell of the map", arguments: places, MapStyle.allCases)
    func userInTheCentre(place: (name: String, latitude: Double, longitude: Double), style: MapStyle) throws {
        for size in Self.sizes {
            let frame = RadarRenderer(style: style, size: size).render(try Self.scene(at: place))
            #expect(frame.center == CellPosition(column: size.columns / 2, row: frame.grid.count / 2))
            #expect(frame.grid[frame.center.row][frame.center.column] == MapCell("@", .user))
            #expect(frame.grid.flatMap { $0 }.filter { $0.kind == .user }.count == 1)
        }
    }

    @Test("the filter circle lies within a cell of its radius, is 8-connected, and every bearing is lit",
          arguments: places, MapStyle.allCases)
    func filterCircle(place: (name: String, latitude: Double, longitude: Double), style: MapStyle) throws {
        for size in Self.sizes {
            let frame = RadarRenderer(style: style, size: size).render(try Self.scene(at: place))
            let lit = frame.lit[.filterCircle] ?? []
            let width = frame.cellWidth.meters
            for cell in lit {
                let east = (Double(cell.column) - Double(frame.center.column)) * width
                let north = (Double(frame.center.row) - Double(cell.row)) * 2 * width
                // One cell: the taller of its sides.
                #expect(abs(hypot(east, north) - Self.radius.meters) <= 2 * width, "\(place.name) \(size) \(style): \(cell) off the circle")
            }
            #expect(Self.components(lit) == 1, "\(place.name) \(size) \(style): the circle is broken")
            for bearing in 0..<360 {
                let (x, y) = GreatCircleOracle.position(meters: Self.radius.meters, bearing: Double(bearing), in: frame)
                let column = Int(x.rounded(.down)), row = Int(y.rounded(.down))
                #expect(lit.contains { abs($0.column - column) <= 1 && abs($0.row - row) <= 1 },
                        "\(place.name) \(size) \(style): nothing lit at bearing \(bearing)")
            }
        }
    }

    @Test("every post is drawn once: as a marker in the view or counted in an edge arrow", arguments: places)
    func everyPostCounted(place: (name: String, latitude: Double, longitude: Double)) throws {
        var scene = try Self.scene(at: place)
        let fix = scene.fix.point
        // Three far to the east, one far north, one crowding a post's cell.
        for (meters, bearing) in [(5000.0, 90.0), (6000, 91), (50_000, 88), (7000, 0)] {
            scene.posts.append(NearbyPost(Post(objectId: "far\(meters)", text: "far", location: try fix.moved(.meters(meters), bearing: bearing),
                                               author: nil, createdAt: Date()), from: fix, filterRadius: Self.radius))
        }
        scene.posts.append(NearbyPost(Post(objectId: "twin", text: "twin", location: scene.posts[0].location, author: nil, createdAt: Date()),
                                      from: fix, filterRadius: Self.radius))
        for style in MapStyle.allCases {
            for size in Self.sizes {
                let frame = RadarRenderer(style: style, size: size).render(scene)
                let drawn = frame.markers.flatMap(\.posts) + frame.arrows.flatMap(\.posts)
                #expect(drawn.count == scene.posts.count && Set(drawn).count == scene.posts.count, "\(place.name) \(size) \(style)")
                #expect(frame.markers.contains { $0.posts.count == 2 }, "the twin shares a cell")
            }
        }
    }

    @Test("posts east beyond the view are arrows on the right edge, counted, with the nearest distance", arguments: places)
    func offViewArrowsOnTheRightEdge(place: (name: String, latitude: Double, longitude: Double)) throws {
        let fix = try GeoPoint(latitude: place.latitude, longitude: place.longitude)
        let posts = try [20_000.0, 30_000].map { meters in
            NearbyPost(Post(objectId: "e\(meters)", text: "east", location: try fix.moved(.meters(meters), bearing: 90), author: nil,
                            createdAt: Date()), from: fix, filterRadius: Self.radius)
        }
        let scene = RadarScene(posts: posts, fix: Fix(point: fix, source: "fixed"), filterRadius: Self.radius, units: .metric, now: Date())
        for style in MapStyle.allCases {
            let size = MapSize(columns: 80, rows: 24)
            let frame = RadarRenderer(style: style, size: size).render(scene)
            #expect(frame.markers.isEmpty)
            #expect(frame.arrows.count == 1, "\(frame.arrows)")
            let arrow = try #require(frame.arrows.first)
            #expect(arrow.cell.column == size.columns - 1 && arrow.direction == .east && arrow.posts.count == 2)
            #expect(abs(arrow.cell.row - frame.center.row) <= 1)
            #expect(arrow.nearest == posts[0].distance)
            #expect(frame.grid[arrow.cell.row][arrow.cell.column].kind == .arrow)
            #expect(frame.mapLines[arrow.cell.row].contains("2 20km"), "\(frame.mapLines.joined(separator: "\n"))")
        }
    }

    @Test("the fix's uncertainty is a ring at its radius, when it is wider than a cell, and the status line says it")
    func accuracyRing() throws {
        var scene = try Self.scene(at: Self.places[1])
        scene.fix = Fix(point: scene.fix.point, source: "gpsd:localhost:2947", time: scene.now.addingTimeInterval(-3), accuracy: .meters(300))
        let frame = RadarRenderer(style: .braille, size: MapSize(columns: 80, rows: 24)).render(scene)
        let ring = frame.lit[.accuracyRing] ?? []
        #expect(!ring.isEmpty && Self.components(ring) == 1)
        let width = frame.cellWidth.meters
        for cell in ring {
            let east = (Double(cell.column) - Double(frame.center.column)) * width
            let north = (Double(frame.center.row) - Double(cell.row)) * 2 * width
            #expect(abs(hypot(east, north) - 300) <= 2 * width, "\(cell) off the 300 m ring")
        }
        #expect(frame.status.hasSuffix("gpsd:localhost:2947 ±300m 3s ago"), "\(frame.status)")
        scene.fix = Fix(point: scene.fix.point, source: "fixed", accuracy: .meters(5))
        #expect(RadarRenderer(style: .braille, size: MapSize(columns: 80, rows: 24)).render(scene).lit[.accuracyRing]?.isEmpty == true,
                "a ring inside your own cell is not drawn")
    }

    /// How many 8-connected pieces the cells make.
    static func components(_ cells: Set<CellPosition>) -> Int {
        var unseen = cells, pieces = 0
        while let start = unseen.first {
            pieces += 1
            var queue = [start]
            unseen.remove(start)
            while let cell = queue.popLast() {
                for dx in -1...1 {
                    for dy in -1...1 {
                        let next = CellPosition(column: cell.column + dx, row: cell.row + dy)
                        if unseen.remove(next) != nil { queue.append(next) }
                    }
                }
            }
        }
        return pieces
    }
}
