import AnywallSupport
import Hummingbird
import ParseWire
import WallDomain

/// The wall's config: `GET /config` for anyone with the keys (parameters marked master-key-only
/// for the master key alone), `PUT /config` with the master key (a parameter set to
/// `{"__op":"Delete"}` is removed; `masterKeyOnly` marks those only the master key reads).
struct ConfigRoutes {
    let wall: any WallStore

    func register(on routes: RouterGroup<ParseContext>) {
        routes.get("config") { _, context in
            var params = try await wall.configParams()
            let hidden = try await wall.masterKeyOnlyParams()
            if !context.caller.isMaster { params = params.filter { !hidden.contains($0.key) } }
            // A new wall has no params at all, as a new Parse Server answers (clients use their defaults).
            var answer: [String: JSONValue] = ["params": .object(params)]
            if !params.isEmpty { answer["masterKeyOnly"] = .object(Dictionary(uniqueKeysWithValues: params.keys.map { ($0, .bool(hidden.contains($0))) })) }
            return ParseAnswer.json(answer)
        }
        routes.put("config") { request, context in
            guard context.caller.isMaster else { throw ParseRefusal.masterKeyRequired }
            let body = try await RequestBody.object(request, context)
            guard case .object(let params)? = body["params"] else {
                throw ParseRefusal(ParseErrorCode.invalidJSON, "config updates must have params")
            }
            var values: [String: JSONValue] = [:]
            var deleting: Set<String> = []
            for (key, value) in params {
                // `{"__op":"Delete"}` removes the parameter, as Parse Server's config update does.
                if case .object(let operation) = value, operation["__op"] == .string("Delete") {
                    deleting.insert(key)
                    continue
                }
                do {
                    try RemoteConfig.validate(key: key, value: value)
                } catch let error as AnywallError {
                    throw ParseRefusal(ParseErrorCode.validationFailed, error.reason)
                }
                values[key] = value
            }
            // Every parameter written is master-key-only when the update says so, and readable by all otherwise, as Parse Server keeps it.
            let masterKeyOnly = body["masterKeyOnly"]?.fields ?? [:]
            try await wall.setConfigParams(values, deleting: deleting,
                                           masterKeyOnly: Dictionary(uniqueKeysWithValues: values.keys.map { ($0, masterKeyOnly[$0] == .bool(true)) }))
            return ParseAnswer.json(["result": .bool(true)])
        }
    }
}
