import Foundation
import WallDomain

/// A message a LiveQuery client sends, read as Parse Server reads it (its RequestSchema, checked
/// by tv4): an unknown `op` or property, a missing one or one of another type is refused with
/// code 1 and tv4's words. Text that is not JSON is nil: Parse Server drops it without a word.
/// anywall-server's own additions to `subscribe` and `update`, which stock clients never send,
/// are `since` (a seq: replay what came after it) and `snapshot` (first the current matches).
enum LiveQueryRequest: Equatable {
    case connect(Connect)
    case subscribe(Subscribe)
    /// Parse's `update`: the subscription `requestId` replaced, answered as a new one.
    case update(Subscribe)
    case unsubscribe(requestId: Double)

    struct Connect: Equatable {
        var applicationId = ""
        /// The keys a client may present; `_validateKeys` accepts any that matches.
        var keys: [String: String] = [:]
        var sessionToken: String?
        var installationId: String?
    }

    struct Subscribe: Equatable {
        /// A JavaScript number, echoed as it came.
        var requestId: Double = 0
        var className = ""
        var whereJSON: [String: JSONValue] = [:]
        var keys: [String]?
        var watch: [String]?
        var sessionToken: String?
        var since: Int64?
        var snapshot = false
    }

    /// The keys `connect` may carry beside the application id.
    static let keyNames = ["javascriptKey", "masterKey", "clientKey", "windowsKey", "restAPIKey"]

    static func read(_ text: String) throws(LiveQueryRefusal) -> LiveQueryRequest? {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        guard case .object(let message) = value else { throw .schema("Invalid type: \(typeName(value)) (expected object)") }
        guard let op = message["op"] else { throw .schema("Missing required property: op") }
        guard case .string(let name) = op else { throw .schema("Invalid type: \(typeName(op)) (expected string)") }
        switch name {
        case "connect": return .connect(try connect(message))
        case "subscribe": return .subscribe(try subscribe(message))
        case "update": return .update(try subscribe(message))
        case "unsubscribe":
            try allow(message, ["op", "requestId"], required: ["op", "requestId"])
            return .unsubscribe(requestId: try number(message["requestId"]!))
        default: throw .schema("No enum match for: \(String(decoding: (try? JSONEncoder().encode(op)) ?? Data(), as: UTF8.self))")
        }
    }

    private static func connect(_ message: [String: JSONValue]) throws(LiveQueryRefusal) -> Connect {
        try allow(message, ["op", "applicationId", "sessionToken", "installationId"] + keyNames, required: ["op", "applicationId"])
        var connect = Connect()
        for (name, value) in message where name != "op" {
            let text = try string(value)
            switch name {
            case "applicationId": connect.applicationId = text
            case "sessionToken": connect.sessionToken = text
            case "installationId": connect.installationId = text
            default: connect.keys[name] = text
            }
        }
        return connect
    }

    private static func subscribe(_ message: [String: JSONValue]) throws(LiveQueryRefusal) -> Subscribe {
        try allow(message, ["op", "requestId", "query", "sessionToken", "since", "snapshot"], required: ["op", "requestId", "query"])
        var subscribe = Subscribe()
        subscribe.requestId = try number(message["requestId"]!)
        if let token = message["sessionToken"] { subscribe.sessionToken = try string(token) }
        if let since = message["since"] {
            let seq = try number(since)
            guard seq >= 0, let whole = Int64(exactly: seq) else { throw .schema("since must be a whole number of 0 or more") }
            subscribe.since = whole
        }
        if let snapshot = message["snapshot"] {
            guard case .bool(let flag) = snapshot else { throw .schema("Invalid type: \(typeName(snapshot)) (expected boolean)") }
            subscribe.snapshot = flag
        }
        guard case .object(let query) = message["query"]! else { throw .schema("Invalid type: \(typeName(message["query"]!)) (expected object)") }
        try allow(query, ["className", "where", "keys", "watch"], required: ["where", "className"])
        subscribe.className = try string(query["className"]!)
        guard case .object(let whereJSON) = query["where"]! else { throw .schema("Invalid type: \(typeName(query["where"]!)) (expected object)") }
        subscribe.whereJSON = whereJSON
        if let keys = query["keys"] { subscribe.keys = try names(keys) }
        if let watch = query["watch"] { subscribe.watch = try names(watch) }
        return subscribe
    }

    /// tv4's checks of an object: the required properties first, then no others.
    private static func allow(_ object: [String: JSONValue], _ allowed: [String], required: [String]) throws(LiveQueryRefusal) {
        if let missing = required.first(where: { object[$0] == nil }) { throw .schema("Missing required property: \(missing)") }
        if object.keys.contains(where: { !allowed.contains($0) }) { throw .schema("Additional properties not allowed") }
    }

    /// `keys` and `watch`: unique strings, at least one.
    private static func names(_ value: JSONValue) throws(LiveQueryRefusal) -> [String] {
        guard case .array(let items) = value else { throw .schema("Invalid type: \(typeName(value)) (expected array)") }
        guard !items.isEmpty else { throw .schema("Array is too short (0), minimum 1") }
        var names: [String] = []
        for item in items {
            let name = try string(item)
            if let earlier = names.firstIndex(of: name) { throw .schema("Array items are not unique (indices \(earlier) and \(names.count))") }
            names.append(name)
        }
        return names
    }

    private static func string(_ value: JSONValue) throws(LiveQueryRefusal) -> String {
        guard case .string(let text) = value else { throw .schema("Invalid type: \(typeName(value)) (expected string)") }
        return text
    }

    private static func number(_ value: JSONValue) throws(LiveQueryRefusal) -> Double {
        guard case .number(let number) = value else { throw .schema("Invalid type: \(typeName(value)) (expected number)") }
        return number
    }

    /// A value's type as tv4 names it.
    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// Why the server refused a LiveQuery message, as its `error` message says it.
struct LiveQueryRefusal: Error, Equatable {
    /// Parse's LiveQuery codes (1 a message against the schema, 2 an unknown client or
    /// subscription, 4 a wrong key) or Parse's REST codes (101, 102, 209, ...).
    let code: Int
    let message: String
    /// Whether the client should connect again: Parse says yes to 1, 2 and 4, no to REST codes.
    let reconnect: Bool

    static func schema(_ message: String) -> LiveQueryRefusal {
        LiveQueryRefusal(code: 1, message: message, reconnect: true)
    }

    static func unknownClient(_ doing: String) -> LiveQueryRefusal {
        LiveQueryRefusal(code: 2, message: "Can not find this client, make sure you connect to server before \(doing)", reconnect: true)
    }

    static let invalidKey = LiveQueryRefusal(code: 4, message: "Key in request is not valid", reconnect: true)

    /// A refusal Parse's REST API would give, which connecting again does not mend.
    static func parse(_ code: Int, _ message: String) -> LiveQueryRefusal {
        LiveQueryRefusal(code: code, message: message, reconnect: false)
    }
}
