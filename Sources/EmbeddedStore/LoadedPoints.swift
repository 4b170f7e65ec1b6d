/// The points a load into an empty wall adds, in id order, kept for its index build while they
/// number at most `limit` (36 bytes each, their sort included): the build then need not read them back
/// and sort them through SQLite, half of its time. Past the limit they are dropped and the
/// build reads the wall, so memory stays bounded whatever the input's size.
final class LoadedPoints {
    private let limit: Int
    private var points: [PointIndexBuild.Point] = []
    private var overflowed = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps a point the load added (its id above every one before).
    func add(id: Int64, latitude: Double, longitude: Double) {
        guard !overflowed else { return }
        guard points.count < limit else {
            overflowed = true
            points = []
            return
        }
        points.append(PointIndexBuild.Point(id: id, latitude: latitude, longitude: longitude))
    }

    /// Every point the load added, in id order; nil when they were more than the limit.
    var kept: [PointIndexBuild.Point]? { overflowed ? nil : points }
}
