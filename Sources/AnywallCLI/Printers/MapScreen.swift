import Foundation
import WallDomain
import WallMap

/// `nearby --watch --map` on a terminal: the map on the alternate screen, redrawn in place when
/// you move, the wall changes or the terminal is resized (SIGWINCH wakes the watch loop), never cleared
/// whole: cursor home, each row overwritten and erased to its end, all in one DEC synchronized
/// update (mode 2026), so a terminal shows no half-drawn frame and no flicker.
final class MapScreen: EventStreamPrinter {
    private let style: MapStyle
    private let units: UnitSystem
    private let color: Bool
    private let filterRadius: Distance
    /// The size the terminal had when last drawn, to redraw when it changes.
    private var size: MapSize?
    /// The frame last written: a fix at the same place, or an event that changes nothing on the
    /// map, writes nothing.
    private var shown = ""
    private var fix: Fix?
    /// The posts as the events left them, by objectId.
    private var posts: [String: NearbyPost] = [:]

    static let enter = "\u{1B}[?1049h\u{1B}[?25l"
    static let leave = "\u{1B}[?25h\u{1B}[?1049l"

    init(style: MapStyle, units: UnitSystem, color: Bool, filterRadius: Distance) {
        self.style = style
        self.units = units
        self.color = color
        self.filterRadius = filterRadius
    }

    var opening: String { Self.enter }
    var closing: String { Self.leave }

    func render(_ events: [ChangeEvent]) -> String {
        for event in events {
            if event.kind == .removed { posts[event.post.objectId] = nil } else { posts[event.post.objectId] = event.post }
        }
        return frame()
    }

    func render(movedTo fix: Fix) -> String {
        self.fix = fix
        posts = posts.mapValues { $0.seen(from: fix.point, filterRadius: filterRadius) }
        return frame()
    }

    func renderIfResized() -> String {
        Terminal.windowSize() == size ? "" : frame()
    }

    private func frame() -> String {
        guard let fix, let size = Terminal.windowSize() else { return "" }
        self.size = size
        var lines: [String]
        if size.isEnoughForMap {
            let nearestFirst = posts.values.sorted { ($0.distance, $0.objectId) < ($1.distance, $1.objectId) }
            let printer = MapPrinter(renderer: RadarRenderer(style: style, size: size), units: units, color: color)
            lines = printer.render(nearestFirst, fix: fix, filterRadius: filterRadius).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        } else {
            lines = ["terminal too small (need \(MapSize.minimum))"]
        }
        // Home, each row then erase to its end, erase below the last row: the screen is overwritten, never cleared first.
        let frame = "\u{1B}[?2026h\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J\u{1B}[?2026l"
        guard frame != shown else { return "" }
        shown = frame
        return frame
    }
}
