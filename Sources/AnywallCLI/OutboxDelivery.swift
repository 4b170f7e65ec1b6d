import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation
/// Sends the posts waiting in the outbox for one wall and user, oldest first, each with its own
/// request id; stops at the first that cannot be sent, so the order is kept.
public struct OutboxDelivery {
    /// What became of one waiting post.
    public enum Outcome: Sendable {
        /// Sent now; `objectId` is nil when the server had it already from an earlier try.
        case delivered(OutboxEntry, objectId: String?)
        /// Refused for good; kept in the rejected file.
        case rejected(OutboxEntry, reason: String)
    }

    public let outbox: Outbox
    public let backend: WallBackend

    public init(outbox: Outbox, backend: WallBackend) {
        self.outbox = outbox
        self.backend = backend
    }

    /// Sends the waiting posts `session`'s user wrote for this wall. Returns what was done, and the
    /// error that stopped it (out of reach, session refused), if any: those posts keep waiting.
    public func run(session: Session) throws -> (outcomes: [Outcome], stoppedBy: AnywallError?) {
        try outbox.locked { contents in
            var outcomes: [Outcome] = []
            while let entry = contents.waiting.first(where: { $0.backend == backend.identity && $0.user.objectId == session.user.objectId }) {
                do {
                    let post = try backend.createPost(text: entry.text, at: entry.location, session: session, requestId: entry.requestId)
                    outcomes.append(.delivered(entry, objectId: post.objectId))
                } catch AnywallError.duplicateRequest {
                    outcomes.append(.delivered(entry, objectId: nil))
                } catch let error as AnywallError {
                    guard !error.keepsPostWaiting else { return (outcomes, error) }
                    try contents.setAside(entry, reason: error.wording)
                    outcomes.append(.rejected(entry, reason: error.wording))
                    continue
                }
                // Written now: a delivery killed after this resends nothing it has sent.
                try contents.remove(entry)
            }
            return (outcomes, nil)
        }
    }

    /// How many posts wait for this wall, whoever wrote them.
    public func waiting() throws -> [OutboxEntry] {
        try outbox.locked { contents in contents.waiting.filter { $0.backend == backend.identity } }
    }
}
