/// A cell of the map: its column from the left and its row from the top, both from 0.
public struct CellPosition: Hashable, Sendable, CustomStringConvertible {
    public let column: Int
    public let row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    public var description: String { "(\(column), \(row))" }
}
