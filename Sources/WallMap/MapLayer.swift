/// What the dots of the map's background belong to; when several share a cell, the cell is
/// drawn as the one listed first.
public enum MapLayer: Int, CaseIterable, Sendable {
    /// The filter radius: within it posts can be read.
    case filterCircle
    /// How far off the fix may be.
    case accuracyRing
    /// Distance rings at round distances, dashed so they differ from the filter circle without colour.
    case rangeRing
    /// The world's coastline, approximate, on views of 200 km and more.
    case coastline
}
