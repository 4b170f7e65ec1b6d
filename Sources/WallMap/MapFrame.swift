import WallDomain

/// A drawn map: the picture as cells, what it places where, the list below it and the status line.
///
/// Plain text throughout: the legend's and status line's lines may be wider than the map, and the
/// printer cuts them to the terminal's width, as only it can measure wide characters.
public struct MapFrame: Sendable {
    public let size: MapSize
    /// The picture, row by row from the top.
    public let grid: [[MapCell]]
    /// Where you are.
    public let center: CellPosition
    /// The ground one cell spans across (a cell is twice as tall as it is wide).
    public let cellWidth: Distance
    /// The posts within the view.
    public let markers: [MapMarker]
    /// The posts beyond it.
    public let arrows: [EdgeArrow]
    /// The cells each background layer lit, whatever was drawn over them.
    public let lit: [MapLayer: Set<CellPosition>]
    /// One line per post listed below the map, nearest first, and a last line for those left out.
    public let legend: [LegendLine]
    /// Radius, shown and hidden counts, the scale, the fix's source (and uncertainty and age).
    public let status: String

    /// The picture's rows as text.
    public var mapLines: [String] {
        grid.map { String($0.map(\.character)) }
    }

    /// The whole frame as plain lines: the picture, the legend, the status line.
    public var lines: [String] {
        mapLines + legend.map(\.text) + [status]
    }
}
