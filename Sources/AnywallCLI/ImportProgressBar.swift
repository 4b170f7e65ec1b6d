import EmbeddedStore

/// An import's progress on stderr, shown on a terminal only (see `StatusLine`): a bar and the
/// share of the input read when its size is known, the posts imported and the rate.
final class ImportProgressBar {
    private static let width = 30
    private let line = StatusLine()
    private let started = ContinuousClock.now

    /// Shows where the import is.
    func show(_ progress: ImportProgress) {
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let rate = elapsed > 0 ? Int(Double(progress.outcome.imported) / elapsed) : 0
        var text = ""
        if let size = progress.inputSize, size > 0 {
            let share = min(1, Double(progress.bytesRead) / Double(size))
            let filled = Int(share * Double(Self.width))
            text = "[\(String(repeating: "#", count: filled))\(String(repeating: "-", count: Self.width - filled))] \(Int(share * 100))%  "
        }
        line.show(text + "\(progress.outcome.imported) posts imported, \(rate)/s")
    }

    /// Erases the bar, before other lines or at the end.
    func clear() {
        line.clear()
    }
}
