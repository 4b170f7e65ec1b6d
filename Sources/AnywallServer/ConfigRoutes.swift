import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// The wall's config: `GET /config` for anyone with the keys, `PUT /config` with the master key.
struct ConfigRoutes {
    let wall: any WallStore

    func register(on routes: RouterGroup<ParseContext>) {
        routes.get("config") { _, _ in
            let params = try await wall.configParams()
            // A new wall has no params at all, as a new Parse Server answers (clients use their defaults).
            var answer: [String: JSONValue] = ["params": .object(params)]
            if !params.isEmpty { answer["masterKeyOnly"] = .object(params.mapValues { _ in .bool(false) }) }
            return ParseAnswer.json(answer)
        }
        routes.put("config") { request, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            let body = try await RequestBody.object(request, context)
            guard case .object(let params)? = body["params"] else {
                throw ParseRefusal(ParseErrorCode.invalidJSON, "config updates must have params")
            }
            for (key, value) in params {
                do {
                    try RemoteConfig.validate(key: key, value: value)
                } catch let error as AnywallError {
                    throw ParseRefusal(ParseErrorCode.validationFailed, error.reason)
                }
            }
            try await wall.setConfigParams(params)
            return ParseAnswer.json(["result": .bool(true)])
        }
    }
}
