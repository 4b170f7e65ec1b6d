import Foundation

/// The wall's community rules, the same on every backend and in both of the server's stores: who
/// may reply, vote and report, and when the community's votes and reports remove a post. The
/// stores keep the rows and counters; what the rules decide is decided here.
public struct CommunityRules: Equatable, Sendable {
    public static let hideScoreKey = "hideScore"
    public static let reportLimitKey = "reportLimit"
    /// Yik Yak's: a post voted down to -5 is gone.
    public static let defaultHideScore = -5
    public static let defaultReportLimit = 3

    /// A post whose score is at or below it is removed.
    public let hideScore: Int
    /// A post this many accounts reported is removed.
    public let reportLimit: Int
    /// How close to a post one must stand to reply, vote or report: the widest filter radius a
    /// reader of this wall may choose, the farthest its text shows. (The CLI holds its user to
    /// the radius they chose, before it asks.)
    public let reach: Distance

    /// Farther than any reach: a server's client, whose own radius it does not know, is held to
    /// the wall's `reach` alone.
    public static let anyDistance = Distance.kilometers(40_075)

    public init(config: RemoteConfig) {
        hideScore = Self.integer(config.params[Self.hideScoreKey], in: -1_000_000...0) ?? Self.defaultHideScore
        reportLimit = Self.integer(config.params[Self.reportLimitKey], in: 1...1_000_000) ?? Self.defaultReportLimit
        reach = FilterRadius.choices(in: config).max() ?? FilterRadius.defaultRadius
    }

    /// Why a post is removed once its counters are these, nil when it stays up. A moderator's
    /// removal stands; a post a moderator restored stays up whatever the community does after;
    /// a removal by the community is not undone by the community.
    public func removal(score: Int, reportCount: Int, current: PostRemoval?, restored: Bool) -> PostRemoval? {
        if current == .moderator { return .moderator }
        if restored { return nil }
        if let current { return current }
        if score <= hideScore { return .votes }
        if reportCount >= reportLimit { return .reports }
        return nil
    }

    /// Refuses a reply, vote or report from `place` when the thread's post at `post` is farther
    /// than `radius` (the reader's filter radius; the wall's `reach` on the wall's side).
    public static func checkReach(from place: GeoPoint, to post: GeoPoint, radius: Distance) throws(AnywallError) {
        let distance = place.distance(to: post)
        guard distance <= radius else {
            throw .inputRejected("the post is \(distance) away, beyond the filter radius \(radius): come closer to reply, vote or report")
        }
    }

    /// Refuses a vote by the post's own author.
    public static func checkVoter(_ voterId: String, author authorId: String?) throws(AnywallError) {
        guard voterId != authorId else { throw .inputRejected("you cannot vote on your own post") }
    }

    /// Refuses a report by the post's own author.
    public static func checkReporter(_ reporterId: String, author authorId: String?) throws(AnywallError) {
        guard reporterId != authorId else { throw .inputRejected("you cannot report your own post") }
    }

    /// Refuses a reply to a reply: a thread is one level deep.
    public static func checkReplyTarget(_ objectId: String, parent: String?) throws(AnywallError) {
        guard parent == nil else {
            throw .inputRejected("\(objectId) is a reply: reply to its thread's post \(parent!) instead")
        }
    }

    /// Refuses values of the rules' config keys that the rules could not use.
    public static func validate(key: String, value: JSONValue) throws(AnywallError) {
        switch key {
        case hideScoreKey where integer(value, in: -1_000_000...0) == nil:
            throw .inputRejected("\(key) must be a whole number from -1000000 to 0, e.g. -5")
        case reportLimitKey where integer(value, in: 1...1_000_000) == nil:
            throw .inputRejected("\(key) must be a whole number from 1 to 1000000, e.g. 3")
        default:
            break
        }
    }

    private static func integer(_ value: JSONValue?, in range: ClosedRange<Int>) -> Int? {
        guard let number = value?.number, number == number.rounded(),
              number >= Double(range.lowerBound), number <= Double(range.upperBound) else { return nil }
        return Int(number)
    }
}
