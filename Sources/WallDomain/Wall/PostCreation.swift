/// One request to leave a post: what to post, whose session asks, and the request id that makes
/// a retry safe.
public struct PostCreation: Sendable {
    public let draft: PostDraft
    /// The session token of the author.
    public let token: String
    /// The client's id for this request (`X-Parse-Request-Id`); nil when it sent none.
    public let requestId: String?

    public init(draft: PostDraft, token: String, requestId: String?) {
        self.draft = draft
        self.token = token
        self.requestId = requestId
    }
}
