/// One request to leave a post: what to post, who leaves it, and the request id that makes a
/// retry safe.
public struct PostCreation: Sendable {
    public let draft: PostDraft
    /// A user's session, whose user is the post's author; or the master key alone, which leaves a
    /// post without an author, as Parse's master key may.
    public let writer: PostWriter
    /// The client's id for this request (`X-Parse-Request-Id`); nil when it sent none.
    public let requestId: String?

    public init(draft: PostDraft, by writer: PostWriter, requestId: String?) {
        self.draft = draft
        self.writer = writer
        self.requestId = requestId
    }
}
