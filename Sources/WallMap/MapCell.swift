/// One character cell of a drawn map, with what it shows, so that a printer can colour it and a
/// test can read the picture without parsing glyphs.
public struct MapCell: Equatable, Sendable {
    /// What a cell shows.
    public enum Kind: Equatable, Sendable {
        case empty
        case background(MapLayer)
        case user
        /// A readable post's key (or a crowd led by one).
        case post
        /// Posts beyond the filter radius only.
        case hiddenPost
        case arrow
        case label
    }

    public var character: Character
    public var kind: Kind

    public init(_ character: Character, _ kind: Kind) {
        self.character = character
        self.kind = kind
    }

    static let empty = MapCell(" ", .empty)
}
