import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct VoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vote", abstract: "Vote a post up or down (none withdraws your vote).",
        discussion: """
            One vote per account per post: voting again replaces your vote. You must stand within your \
            filter radius of the post (of its thread's post, for a reply); your own posts take no vote \
            from you. A post voted down to the wall's hideScore (default -5) is removed for everyone \
            but its author and the moderators. Prints the post's score after your vote.

            \(UsageExamples.vote)
            """)

    @Argument(help: ArgumentHelp("The objectId of the post or reply.", valueName: "POST_ID"))
    var postId: String
    @Argument(help: ArgumentHelp("up, down, or none to withdraw your vote.", valueName: "VOTE"),
              completion: .list(Vote.allCases.map(\.rawValue)))
    var vote: String
    @OptionGroup var location: LocationOptions
    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let vote = try Vote.parsed(self.vote)
        let (_, fix) = try location.fix(context.preferences())
        let radius = try context.filterRadius()
        let wall = try context.openSocialWall(for: "vote")
        let post = try context.withSession(on: wall) { session in
            try wall.vote(vote, on: postId, from: fix.point, radius: radius, session: session)
        }
        if json.json {
            Terminal.output(JSONText.encode(NearbyPost(post, from: fix.point, filterRadius: radius)) + "\n")
        } else {
            Terminal.output("score \(post.score)" + (post.myVote.map { " (your vote: \($0.rawValue))" } ?? "") + "\n")
        }
    }
}
