import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// `GET /serverInfo` (master key only): what Parse Dashboard and other tools ask a Parse Server
/// can do, in its FeaturesRouter's shape, answered for what anywall-server does: the config can
/// be read, set and have parameters deleted; fields can be added to Posts and removed; there are
/// no hooks, cloud code, logs or push, and no class can be added or removed.
struct ServerInfoRoutes {
    func register(on routes: RouterGroup<ParseContext>) {
        routes.get("serverInfo") { _, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            return ParseAnswer.json(Self.answer)
        }
    }

    private static let answer: [String: JSONValue] = {
        func flags(_ pairs: KeyValuePairs<String, Bool>) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, .bool($0.value)) }))
        }
        return [
            // Not a Parse Server version: a semantic version (anywall's, tagged) that a tool comparing
            // versions can read, and that no one takes for Parse Server's.
            "parseServerVersion": .string("\(AnywallVersion.current)+anywall-server"),
            "features": .object([
                "globalConfig": flags(["create": true, "read": true, "update": true, "delete": true]),
                "hooks": flags(["create": false, "read": false, "update": false, "delete": false]),
                "cloudCode": flags(["jobs": false]),
                "logs": flags(["level": false, "size": false, "order": false, "until": false, "from": false]),
                "push": flags(["immediatePush": false, "scheduledPush": false, "storedPushData": false, "pushAudiences": false,
                               "localization": false]),
                "schemas": flags(["addField": true, "removeField": true, "addClass": false, "removeClass": false,
                                  "clearAllDataFromClass": false, "exportClass": false, "editClassLevelPermissions": false,
                                  "editPointerPermissions": false]),
            ]),
        ]
    }()
}
