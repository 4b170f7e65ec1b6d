import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct WhoamiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami", abstract: "Show who is logged in, on which wall, and their karma.",
        discussion: UsageExamples.whoami)

    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    private struct Output: Encodable {
        let objectId: String
        let username: String
        let name: String?
        let backend: String
        /// The sum of the scores of the user's posts and replies; nil on a wall without votes.
        let karma: Int?

        // `"name":null` when the user has none, rather than no key.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(objectId, forKey: .objectId)
            try container.encode(username, forKey: .username)
            try container.encode(name, forKey: .name)
            try container.encode(backend, forKey: .backend)
            try container.encode(karma, forKey: .karma)
        }

        private enum CodingKeys: String, CodingKey { case objectId, username, name, backend, karma }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openBackendSendingOutbox()
        // Whether the account is anonymous is the session's to know: a Parse user record does not say.
        let (user, karma, anonymous) = try context.withSession(on: wall) { session in
            (try wall.currentUser(session), try (wall as? SocialWall)?.karma(session), session.user.isAnonymous)
        }
        if json.json {
            Terminal.output(JSONText.encode(Output(objectId: user.objectId, username: user.username,
                                                   name: user.name, backend: wall.identity, karma: karma)) + "\n")
        } else {
            let name = user.name.map { " (\($0))" } ?? (anonymous ? " (anonymous)" : "")
            let standing = karma.map { ", karma \($0)" } ?? ""
            Terminal.output(Terminal.inert("\(user.username)\(name) on \(wall.description)\(standing)") + "\n")
        }
    }
}
