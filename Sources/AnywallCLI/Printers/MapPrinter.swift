import Foundation
import WallDomain
import WallMap

/// Prints a map frame: the picture, the legend and the status line, each line cut to the frame's
/// width so nothing wraps; in colour only where the reader has colour, and then by cell kind.
struct MapPrinter {
    let renderer: RadarRenderer
    let units: UnitSystem
    let color: Bool

    /// The posts around `fix` as one frame.
    func render(_ posts: [NearbyPost], fix: Fix, filterRadius: Distance, now: Date = Date()) -> String {
        render(renderer.render(RadarScene(posts: posts, fix: fix, filterRadius: filterRadius, units: units, now: now)))
    }

    func render(_ frame: MapFrame) -> String {
        var out = ""
        for row in frame.grid {
            out += color ? colored(row) : String(row.map(\.character))
            out += "\n"
        }
        for line in frame.legend {
            let cut = String(DisplayWidth.split(Substring(line.text), fitting: frame.size.columns).head)
            out += (color && line.hidden ? TextStyle.dim.apply(to: cut) : cut) + "\n"
        }
        let status = String(DisplayWidth.split(Substring(frame.status), fitting: frame.size.columns).head)
        return out + (color ? TextStyle.bold.apply(to: status) : status) + "\n"
    }

    /// A row with one style per run of cells of the same kind.
    private func colored(_ row: [MapCell]) -> String {
        var out = "", run = "", style: TextStyle?
        func flush() {
            out += style.map { $0.apply(to: run) } ?? run
            run = ""
        }
        for cell in row {
            let next = Self.style(of: cell.kind)
            if next != style { flush(); style = next }
            run.append(cell.character)
        }
        flush()
        return out
    }

    private static func style(of kind: MapCell.Kind) -> TextStyle? {
        switch kind {
        case .user, .post, .arrow: return .bold
        case .hiddenPost, .background(.rangeRing): return .dim
        case .background(.filterCircle): return .cyan
        case .background(.accuracyRing): return .yellow
        case .empty, .label, .background(.coastline): return nil
        }
    }
}
