import Foundation
import Testing
import WallDomain
import WallMap

/// The coastline against Natural Earth's own vertices, laid out by the haversine oracle: drawn where
/// the sphere puts them on wide views, across the antimeridian too, and never on city views.
@Suite("The coastline is drawn where Natural Earth puts it, and only on wide views")
struct CoastlineTests {
    /// Ireland's whole outline in ne_110m_coastline, copied from the GeoJSON (not through the embedded WKB).
    static let ireland: [(latitude: Double, longitude: Double)] = [
        (53.867565, -6.197885), (53.15319, -6.032985), (52.260118, -6.788857), (51.669301, -8.561617), (51.820455, -9.977086),
        (52.864629, -9.166283), (53.881363, -9.688525), (54.664519, -8.327987), (55.131622, -7.572168), (55.17286, -6.733847),
        (54.554603, -5.661949),
    ]
    /// Fiji's vertices on both sides of 180°, from the same file.
    static let fiji: [(latitude: Double, longitude: Double)] = [
        (-16.020882, -179.793309), (-16.501783, -179.917359), (-16.801354, 179.364143), (-17.012042, 178.725059),
        (-17.50481, 178.12557), (-18.28799, 177.93266),
    ]

    static func frame(at latitude: Double, _ longitude: Double, radius: Distance, size: MapSize = MapSize(columns: 80, rows: 24),
                      style: MapStyle = .braille) throws -> (MapFrame, GeoPoint) {
        let fix = try GeoPoint(latitude: latitude, longitude: longitude)
        let scene = RadarScene(posts: [], fix: Fix(point: fix, source: "fixed"), filterRadius: radius, units: .metric,
                               now: Date(timeIntervalSince1970: 0))
        return (RadarRenderer(style: style, size: size).render(scene), fix)
    }

    /// Whether a coastline cell lies within two cells of where the oracle puts each vertex that falls inside the map.
    /// Two, not one as for posts: over 250 km the map's local projection (cos of the centre's latitude)
    /// drifts from the sphere by up to 4 % of the distance, which is more than a cell on a 200-column map.
    static func expectDrawn(_ vertices: [(latitude: Double, longitude: Double)], in frame: MapFrame, from fix: GeoPoint) throws {
        let coast = frame.lit[.coastline] ?? []
        var checked = 0
        for vertex in vertices {
            let cell = GreatCircleOracle.cell(of: try GeoPoint(latitude: vertex.latitude, longitude: vertex.longitude), from: fix, in: frame)
            guard cell.column >= 1, cell.column < frame.size.columns - 1, cell.row >= 1, cell.row < frame.grid.count - 1 else { continue }
            checked += 1
            let near = coast.contains { abs($0.column - cell.column) <= 2 && abs($0.row - cell.row) <= 2 }
            #expect(near, "no coastline within two cells of \(vertex), oracle cell \(cell)")
        }
        #expect(checked >= 4, "too few vertices in view to judge: \(checked)")
    }

    @Test("a 500 km view of Ireland draws its coast through every vertex in view, in each style and size",
          arguments: MapStyle.allCases, [MapSize(columns: 80, rows: 24), MapSize(columns: 200, rows: 60)])
    func ireland(style: MapStyle, size: MapSize) throws {
        let (frame, fix) = try Self.frame(at: 53.35, -7.7, radius: .meters(170_000), size: size, style: style)
        #expect(Double(frame.size.columns) * frame.cellWidth.meters >= 200_000)
        try Self.expectDrawn(Self.ireland, in: frame, from: fix)
        let text = frame.grid.map { String($0.map(\.character)) }.joined(separator: "\n")
        #expect(text.contains(style == .ascii ? "coast ~1:110m" : "coast ≈1:110m"), "the coast is labelled approximate:\n\(text)")
    }

    @Test("across the antimeridian the coast is drawn on both sides of 180°")
    func antimeridian() throws {
        let (frame, fix) = try Self.frame(at: -16.5, 179.9995, radius: .meters(170_000))
        try Self.expectDrawn(Self.fiji, in: frame, from: fix)
        let coast = frame.lit[.coastline] ?? []
        #expect(coast.contains { $0.column > frame.center.column } && coast.contains { $0.column < frame.center.column })
    }

    @Test("views narrower than 200 km, and a city, have no coastline and no label")
    func narrowViews() throws {
        for radius in [Distance.meters(1000), .meters(30_000)] {
            let (frame, _) = try Self.frame(at: 53.35, -6.26, radius: radius)
            #expect(Double(frame.size.columns) * frame.cellWidth.meters < 200_000)
            #expect(frame.lit[.coastline]?.isEmpty != false, "\(radius)")
            #expect(!frame.grid.joined().contains { $0.character == "≈" })
        }
    }

    @Test("open ocean: a wide view with no coast in it lights nothing")
    func openOcean() throws {
        let (frame, _) = try Self.frame(at: 0, -140, radius: .meters(170_000))
        #expect(frame.lit[.coastline]?.isEmpty != false)
    }
}
