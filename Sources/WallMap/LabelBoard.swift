/// The picture being drawn, and which cells are taken: a post, an arrow or you are never drawn
/// over, and no label overlaps another or those.
struct LabelBoard {
    private(set) var grid: [[MapCell]]
    private var taken: Set<CellPosition> = []
    let columns: Int
    let rows: Int

    init(background: [[MapCell]]) {
        grid = background
        rows = background.count
        columns = background.first?.count ?? 0
    }

    /// Draws a post, an arrow or you; nothing is drawn over it afterwards.
    mutating func fix(_ cell: MapCell, at position: CellPosition) {
        grid[position.row][position.column] = cell
        taken.insert(position)
    }

    /// Writes `text` from the first of `starts` where it fits on the map without touching a taken
    /// cell, and takes its cells; says whether it found room.
    @discardableResult
    mutating func place(_ text: String, at starts: [CellPosition]) -> Bool {
        let characters = Array(text)
        for start in starts {
            let cells = characters.indices.map { CellPosition(column: start.column + $0, row: start.row) }
            guard start.row >= 0, start.row < rows, start.column >= 0, start.column + characters.count <= columns,
                  cells.allSatisfy({ !taken.contains($0) }) else { continue }
            for (cell, character) in zip(cells, characters) {
                grid[cell.row][cell.column] = MapCell(character, .label)
                taken.insert(cell)
            }
            return true
        }
        return false
    }
}
