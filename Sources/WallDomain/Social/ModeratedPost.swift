/// A post in the moderators' queue: removed, or reported, with its reports.
public struct ModeratedPost: Equatable, Sendable {
    public let post: Post
    public let reports: [Report]

    public init(post: Post, reports: [Report]) {
        self.post = post
        self.reports = reports
    }
}
