import Foundation

/// How far each user's activity feed has been read, per wall: `anywall activity` shows what
/// came after, as `nearby --changes` shows what changed since its last run.
public struct ActivityMarks: Sendable {
    private let store: KeyedFileStore

    /// Marks kept in `directory` (beside the saved results of `--changes`).
    public init(directory: URL) {
        store = KeyedFileStore(directory: directory, prefix: "activity-")
    }

    private struct Mark: Codable {
        let shownUntil: Date
    }

    /// The time of the newest entry shown to `user` on `backend`, nil when none was.
    public func shownUntil(backend: String, user: String) -> Date? {
        store.load(Mark.self, key: KeyedFileStore.key([backend, user]))?.shownUntil
    }

    /// Remembers that `user` has seen the entries up to `time`.
    public func markShown(until time: Date, backend: String, user: String) throws {
        try store.save(Mark(shownUntil: time), key: KeyedFileStore.key([backend, user]))
    }
}
