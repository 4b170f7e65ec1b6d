import Foundation

/// One account's report of a post: seen by its reporter and the moderators, nobody else.
public struct Report: Equatable, Sendable {
    /// The reporter's username.
    public let reporter: String
    public let reason: ReportReason
    public let note: String?
    public let createdAt: Date

    public init(reporter: String, reason: ReportReason, note: String?, createdAt: Date) {
        self.reporter = reporter
        self.reason = reason
        self.note = note
        self.createdAt = createdAt
    }
}
