/// How a map is drawn in text: how many dots each cell holds, and the glyphs for them.
///
/// Braille packs 2x4 dots in a cell, blocks 2x2 quadrants, ASCII one dot per cell; the three
/// differ by glyph alone, so they stay apart without colour (NO_COLOR).
public enum MapStyle: String, CaseIterable, Sendable {
    case braille
    case blocks
    case ascii

    /// Dots across one cell.
    public var dotsAcross: Int {
        switch self {
        case .braille, .blocks: return 2
        case .ascii: return 1
        }
    }

    /// Dots down one cell.
    public var dotsDown: Int {
        switch self {
        case .braille: return 4
        case .blocks: return 2
        case .ascii: return 1
        }
    }

    /// The bit of dot (`across`, `down`) within a cell's mask.
    func bit(across: Int, down: Int) -> UInt8 {
        switch self {
        // Unicode's braille numbering: dots 1-3 and 7 down the left column, 4-6 and 8 down the right.
        case .braille: return down == 3 ? UInt8(64) << across : UInt8(1) << (down + 3 * across)
        case .blocks: return UInt8(1) << (down * 2 + across)
        case .ascii: return 1
        }
    }

    /// The glyph of a cell whose lit dots are `mask`, the most telling of them drawn for `layer`.
    func glyph(mask: UInt8, layer: MapLayer) -> Character {
        switch self {
        case .braille:
            return Character(Unicode.Scalar(0x2800 + UInt32(mask))!)
        case .blocks:
            return Self.quadrants[Int(mask & 15)]
        case .ascii:
            switch layer {
            case .filterCircle: return "*"
            case .accuracyRing: return ":"
            case .rangeRing: return "."
            case .coastline: return "~"
            }
        }
    }

    /// The 16 quadrant glyphs, indexed by mask (bit 0 top left, 1 top right, 2 bottom left, 3 bottom right).
    private static let quadrants: [Character] = [" ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█"]

    /// You, at the centre.
    var user: Character { "@" }
    /// A post beyond the filter radius.
    var hiddenPost: Character { self == .ascii ? "o" : "•" }
    /// A readable post beyond the 35 keys.
    var unkeyedPost: Character { "*" }
    /// The arrow pointing towards `point` at the view's edge.
    func arrow(_ point: CompassPoint) -> Character {
        let index = CompassPoint.allCases.firstIndex(of: point)!
        return (self == .ascii ? Array("^/>\\v/<\\") : Array("↑↗→↘↓↙←↖"))[index]
    }
    /// The scale bar's ends and body.
    var scaleBar: (end: Character, body: Character, start: Character) {
        self == .ascii ? ("|", "-", "|") : ("┤", "─", "├")
    }
}
