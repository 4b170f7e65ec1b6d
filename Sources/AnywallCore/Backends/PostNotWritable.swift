/// The post does not exist, or the session's user may not change it (only its author may).
/// One error for both, as Parse answers both: a caller learns nothing of posts it cannot write.
public struct PostNotWritable: Error, Equatable, Sendable {
    public let objectId: String

    public init(objectId: String) {
        self.objectId = objectId
    }
}
