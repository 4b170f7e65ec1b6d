import Foundation
import LocalState
import ParseClient
import WallDomain

/// How `login --facebook` and `link --facebook` come to a Facebook identity: the token the user
/// gave, or one from the device login; then the Graph API's `/me` for whose it is and their name.
struct FacebookSignIn {
    let context: CommandContext
    let wall: WallBackend

    /// The environment variable naming the Graph API (tests point it at a stand-in).
    static let graphURLVariable = "ANYWALL_FACEBOOK_GRAPH_URL"
    /// How long a token given by the user is taken to last: Facebook does not say without the app's
    /// secret, and a long-lived user token lasts 60 days (Parse Server does not read it).
    static let givenTokenLifetime: TimeInterval = 60 * 86_400

    /// The identity and the Facebook name of its user.
    func identity(_ options: FacebookLoginOptions) throws -> (identity: FacebookIdentity, name: String?) {
        let graph = try FacebookGraph(baseURL: context.environment[Self.graphURLVariable].flatMap { $0.isEmpty ? nil : $0 } ?? FacebookGraph.defaultURL,
                                      timeouts: try context.preferences().timeouts)
        let accessToken: String
        let lifetime: TimeInterval
        if let given = try options.readToken() {
            (accessToken, lifetime) = (given, Self.givenTokenLifetime)
        } else {
            let app = try FacebookApp(settings: context.settings) { context.config(for: wall) }
            let approved = try FacebookDeviceLogin(graph: graph, app: app, json: options.json).run()
            (accessToken, lifetime) = (approved.accessToken, approved.expiresIn > 0 ? TimeInterval(approved.expiresIn) : Self.givenTokenLifetime)
        }
        let me = try graph.me(accessToken: accessToken)
        return (FacebookIdentity(id: me.id, accessToken: accessToken, expirationDate: Date().addingTimeInterval(lifetime)), me.name)
    }
}
