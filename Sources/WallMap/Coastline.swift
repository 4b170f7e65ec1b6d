import Foundation
import Synchronization
import WallDomain

/// The world's coastline, drawn only where it is honest: Natural Earth's 1:110m lines have a median
/// segment of about 63 km, so a view narrower than `narrowestView` would show lines that miss the
/// real shore by more than the whole city.
enum Coastline {
    private static let lines = GeoLines(wkb: Data(base64Encoded: naturalEarthCoastlineWKB) ?? Data())
    /// The pieces last cut, with the boxes they were cut to: a watch at a still fix redraws the same
    /// view, and reading and clipping the lines again would cost a millisecond a frame.
    private static let lastCut = Mutex<(boxes: [BoundingBox], pieces: [[AreaVertex]])?>(nil)

    /// The coastline's pieces inside `boxes` (`GeoLines.pieces`), reused when the view has not moved.
    static func pieces(within boxes: [BoundingBox]) throws -> [[AreaVertex]] {
        if let last = lastCut.withLock({ $0 }), last.boxes == boxes { return last.pieces }
        let pieces = try lines.pieces(within: boxes)
        lastCut.withLock { $0 = (boxes, pieces) }
        return pieces
    }
    /// Views at least this wide (east to west) get the coastline.
    static let narrowestView = Distance.meters(200_000)
    /// What the map says beside it, so nobody takes it for a survey.
    static func label(in style: MapStyle) -> String {
        style == .ascii ? "coast ~1:110m" : "coast ≈1:110m"
    }
}
