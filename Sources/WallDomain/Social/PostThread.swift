/// A post and a page of its replies, oldest first.
public struct PostThread: Equatable, Sendable {
    public let post: Post
    /// The page asked for, oldest first; `post.replyCount` says how many there are in all.
    public let replies: [Post]

    public init(post: Post, replies: [Post]) {
        self.post = post
        self.replies = replies
    }
}
