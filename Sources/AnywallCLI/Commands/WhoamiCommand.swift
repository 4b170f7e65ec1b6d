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
        commandName: "whoami", abstract: "Show who is logged in, and on which wall.",
        discussion: UsageExamples.whoami)

    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    private struct Output: Encodable {
        let objectId: String
        let username: String
        let name: String?
        let backend: String

        // `"name":null` when the user has none, rather than no key.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(objectId, forKey: .objectId)
            try container.encode(username, forKey: .username)
            try container.encode(name, forKey: .name)
            try container.encode(backend, forKey: .backend)
        }

        private enum CodingKeys: String, CodingKey { case objectId, username, name, backend }
    }

    func run() throws {
        let context = try CommandContext(store: store)
        let wall = try context.openBackendSendingOutbox()
        let user = try context.withSession(on: wall) { try wall.currentUser($0) }
        if json.json {
            Terminal.output(JSONText.encode(Output(objectId: user.objectId, username: user.username,
                                                   name: user.name, backend: wall.identity)) + "\n")
        } else {
            let name = user.name.map { " (\($0))" } ?? ""
            Terminal.output(Terminal.inert("\(user.username)\(name) on \(wall.description)") + "\n")
        }
    }
}
