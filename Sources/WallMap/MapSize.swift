/// A map's size in character cells, status line and legend included.
public struct MapSize: Equatable, Sendable, CustomStringConvertible {
    public let columns: Int
    public let rows: Int

    /// The smallest map worth drawing: a circle, a few markers, the legend's first lines.
    public static let minimum = MapSize(columns: 40, rows: 12)
    /// The size of a pipe's frame when nothing says otherwise.
    public static let standard = MapSize(columns: 80, rows: 24)

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// Whether a map fits: at least `minimum` both ways.
    public var isEnoughForMap: Bool { columns >= Self.minimum.columns && rows >= Self.minimum.rows }

    /// `COLSxROWS`, as `--size` takes it.
    public var description: String { "\(columns)x\(rows)" }
}
