import Foundation

/// The map's background as dots finer than cells (the style's 2x4, 2x2 or 1x1 per cell), in
/// layers: lines and ellipses drawn with Bresenham steps, so every outline is 8-connected.
struct DotCanvas {
    let style: MapStyle
    let columns: Int
    let rows: Int
    /// Per layer (by its raw value), each cell's mask of lit dots.
    private var masks: [[UInt8]]

    init(style: MapStyle, columns: Int, rows: Int) {
        self.style = style
        self.columns = columns
        self.rows = rows
        masks = Array(repeating: Array(repeating: 0, count: columns * rows), count: MapLayer.allCases.count)
    }

    var dotColumns: Int { columns * style.dotsAcross }
    var dotRows: Int { rows * style.dotsDown }

    /// Lights a dot; dots off the canvas are ignored, so shapes may run past its edges.
    mutating func set(_ x: Int, _ y: Int, _ layer: MapLayer) {
        guard x >= 0, y >= 0, x < dotColumns, y < dotRows else { return }
        let index = (y / style.dotsDown) * columns + x / style.dotsAcross
        masks[layer.rawValue][index] |= style.bit(across: x % style.dotsAcross, down: y % style.dotsDown)
    }

    /// A straight line of dots from one dot to another, ends included.
    mutating func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), _ layer: MapLayer) {
        var (x, y) = a
        let dx = abs(b.x - a.x), dy = -abs(b.y - a.y)
        let sx = a.x < b.x ? 1 : -1, sy = a.y < b.y ? 1 : -1
        var error = dx + dy
        while true {
            set(x, y, layer)
            if x == b.x && y == b.y { return }
            let doubled = 2 * error
            if doubled >= dy { error += dy; x += sx }
            if doubled <= dx { error += dx; y += sy }
        }
    }

    /// An ellipse around (`cx`, `cy`) with radii in dots, solid or in dashes.
    mutating func ellipse(cx: Double, cy: Double, rx: Double, ry: Double, dashed: Bool, _ layer: MapLayer) {
        // Enough steps that neighbouring points are about a dot apart; the lines join any gap.
        let steps = max(16, Int((2 * .pi * max(rx, ry)).rounded(.up)))
        func point(_ i: Int) -> (x: Int, y: Int) {
            let angle = Double(i) / Double(steps) * 2 * .pi
            return (Int((cx + rx * sin(angle)).rounded(.down)), Int((cy - ry * cos(angle)).rounded(.down)))
        }
        for i in 0..<steps where !dashed || i % 4 < 2 {
            line(from: point(i), to: point(i + 1), layer)
        }
    }

    /// The cells any dot of `layer` lit.
    func cells(of layer: MapLayer) -> Set<CellPosition> {
        var found: Set<CellPosition> = []
        for (index, bits) in masks[layer.rawValue].enumerated() where bits != 0 {
            found.insert(CellPosition(column: index % columns, row: index / columns))
        }
        return found
    }

    /// The cell at `position` as the background draws it: the union of its layers' dots, drawn as its first layer.
    func cell(at position: CellPosition) -> MapCell {
        let index = position.row * columns + position.column
        var union: UInt8 = 0
        var first: MapLayer?
        for layer in MapLayer.allCases {
            let bits = masks[layer.rawValue][index]
            guard bits != 0 else { continue }
            union |= bits
            first = first ?? layer
        }
        guard let first else { return .empty }
        return MapCell(style.glyph(mask: union, layer: first), .background(first))
    }
}
