/// The points a load into an empty wall adds, in id order, kept for its index build while they
/// number at most `limit` (36 bytes each, their sort included): the build then need not read them back
/// and sort them through SQLite, half of its time. Past the limit they are dropped and the
/// build reads the wall, so memory stays bounded whatever the input's size.
final class LoadedPoints {
    private let limit: Int
    /// Every point the load added, in id order; nil once they were more than the limit.
    private(set) var kept: [PointIndexBuild.Point]? = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps a point the load added (its id above every one before).
    func add(id: Int64, latitude: Double, longitude: Double) {
        guard let count = kept?.count else { return }
        guard count < limit else { return kept = nil }
        kept?.append(PointIndexBuild.Point(id: id, latitude: latitude, longitude: longitude))
    }
}
