/// One account's vote on a post: up, down, or `none` to withdraw it.
public enum Vote: String, CaseIterable, Sendable, Codable {
    case up, down, none

    /// What the vote adds to the post's score.
    public var value: Int {
        switch self {
        case .up: return 1
        case .down: return -1
        case .none: return 0
        }
    }

    /// The vote a stored value (1 or -1) stands for; nil for any other.
    public init?(value: Int) {
        switch value {
        case 1: self = .up
        case -1: self = .down
        default: return nil
        }
    }

    /// The vote named `text` (`up`, `down`, `none`), or a one-line refusal naming the choices.
    public static func parsed(_ text: String) throws(AnywallError) -> Vote {
        guard let vote = Vote(rawValue: text) else {
            throw .inputRejected("'\(text)' is not a vote: it is up, down or none")
        }
        return vote
    }
}
