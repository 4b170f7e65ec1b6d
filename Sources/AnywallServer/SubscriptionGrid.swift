import WallDomain

/// LiveQuery's subscriptions indexed by the area they can match, so that a change to a post is
/// tested against the subscriptions whose area may hold it, not against every one (Parse Server
/// tests them all). A cell is `cellDegrees` square; an area over `maxCells` cells, and a
/// subscription that asks nothing of the place, is tested on every change.
struct SubscriptionGrid<Key: Hashable> {
    /// About 11 km north-south: a city's filter circle covers a few cells.
    static var cellDegrees: Double { 0.1 }
    static var maxCells: Int { 4096 }

    private struct Cell: Hashable {
        let row: Int
        let column: Int
    }

    private var cells: [Cell: Set<Key>] = [:]
    private var everywhere: Set<Key> = []
    private var cellsOf: [Key: [Cell]] = [:]

    /// Files `key` under the cells of `boxes`; nil: under every place.
    mutating func insert(_ key: Key, boxes: [BoundingBox]?) {
        remove(key)
        guard let boxes, let covered = Self.cells(of: boxes) else {
            everywhere.insert(key)
            return
        }
        for cell in covered { cells[cell, default: []].insert(key) }
        cellsOf[key] = covered
    }

    mutating func remove(_ key: Key) {
        everywhere.remove(key)
        for cell in cellsOf.removeValue(forKey: key) ?? [] {
            cells[cell]?.remove(key)
            if cells[cell]?.isEmpty == true { cells[cell] = nil }
        }
    }

    /// The subscriptions whose area may hold a post at one of `points`, each once.
    func candidates(at points: [GeoPoint]) -> Set<Key> {
        var found = everywhere
        for point in points {
            if let keys = cells[Self.cell(point)] { found.formUnion(keys) }
        }
        return found
    }

    /// The number of subscriptions filed.
    var count: Int { everywhere.count + cellsOf.count }

    private static func cell(_ point: GeoPoint) -> Cell {
        cell(latitude: point.latitude, longitude: point.longitude)
    }

    /// A box's corner may lie on a pole or on the antimeridian, where no `GeoPoint` does.
    private static func cell(latitude: Double, longitude: Double) -> Cell {
        Cell(row: index(latitude + 90, last: Int(180 / cellDegrees) - 1), column: index(longitude + 180, last: Int(360 / cellDegrees) - 1))
    }

    private static func index(_ degrees: Double, last: Int) -> Int {
        min(max(Int((degrees / cellDegrees).rounded(.down)), 0), last)
    }

    /// The cells the boxes cover; nil when they are more than `maxCells`.
    private static func cells(of boxes: [BoundingBox]) -> [Cell]? {
        var covered: Set<Cell> = []
        for box in boxes {
            let low = cell(latitude: box.minLatitude, longitude: box.minLongitude)
            let high = cell(latitude: box.maxLatitude, longitude: box.maxLongitude)
            guard (high.row - low.row + 1) * (high.column - low.column + 1) + covered.count <= maxCells else { return nil }
            for row in low.row...high.row {
                for column in low.column...high.column { covered.insert(Cell(row: row, column: column)) }
            }
        }
        return Array(covered)
    }
}
