import Foundation
import ParseWire
import WallDomain

/// The messages anywall-server sends a LiveQuery client, as Parse Server words them: each with
/// `op` and the client's `clientId` (and `installationId` when it gave one), events with the
/// subscription's `requestId`, the `object` and, when there is one, the `original`. anywall-server
/// adds `seq` to every event and sends `snapshot` when asked.
enum LiveQueryReply {
    static func connected(_ client: LiveClient) -> String {
        text(base("connected", client))
    }

    static func subscribed(_ client: LiveClient, requestId: Double) -> String {
        var message = base("subscribed", client)
        message["requestId"] = .number(requestId)
        return text(message)
    }

    static func unsubscribed(_ client: LiveClient, requestId: Double) -> String {
        var message = base("unsubscribed", client)
        message["requestId"] = .number(requestId)
        return text(message)
    }

    /// An event, its object (and original) already encoded (`encoded(_:)`): one post's text is
    /// made once for all the subscriptions it goes to, not once for each.
    static func event(_ op: String, _ client: LiveClient, requestId: Double, object: String, original: String?, seq: Int64) -> String {
        var text = "{\"clientId\":" + encoded(.string(client.id))
        if let installationId = client.installationId { text += ",\"installationId\":" + encoded(.string(installationId)) }
        text += ",\"object\":" + object + ",\"op\":\"" + op + "\""
        if let original { text += ",\"original\":" + original }
        return text + ",\"requestId\":" + encoded(.number(requestId)) + ",\"seq\":" + String(seq) + "}"
    }

    static func snapshot(_ client: LiveClient, requestId: Double, results: [JSONValue], seq: Int64) -> String {
        var message = base("snapshot", client)
        message["requestId"] = .number(requestId)
        message["results"] = .array(results)
        message["seq"] = .number(Double(seq))
        return text(message)
    }

    /// Parse's `error`: `requestId` null when the refusal is not a subscription's; `seq`, where
    /// anywall-server says where to resume.
    static func error(_ refusal: LiveQueryRefusal, requestId: Double? = nil, seq: Int64? = nil) -> String {
        var message: [String: JSONValue] = ["op": .string("error"), "code": .number(Double(refusal.code)), "error": .string(refusal.message),
                                           "reconnect": .bool(refusal.reconnect), "requestId": requestId.map(JSONValue.number) ?? .null]
        if let seq { message["seq"] = .number(Double(seq)) }
        return text(message)
    }

    /// A post as an event carries it: as a find returns it, with its class (Parse's `toJSON`);
    /// with `keys`, only those beside the fields Parse always sends.
    static func object(_ post: StoredPost, keys: Set<String>?) -> JSONValue {
        trimmed(ParseRendering.post(post, includeUser: false, keys: nil).json, className: "Posts", keys: keys)
    }

    /// An object with its class, and with `keys` only those beside the fields Parse always sends.
    static func trimmed(_ object: JSONValue, className: String, keys: Set<String>?) -> JSONValue {
        guard case .object(var fields) = object else { return .null }
        fields["className"] = .string(className)
        if let keys {
            fields = fields.filter { alwaysSent.contains($0.key) || keys.contains($0.key) }
        }
        return .object(fields)
    }

    /// A post the subscriber may no longer read, as a `leave` names it: nothing but which it was.
    static func withheld(_ post: StoredPost) -> JSONValue {
        .object(["className": .string("Posts"), "objectId": .string(post.objectId)])
    }

    private static let alwaysSent: Set<String> = ["className", "objectId", "updatedAt", "createdAt", "ACL"]

    private static func base(_ op: String, _ client: LiveClient) -> [String: JSONValue] {
        var message: [String: JSONValue] = ["op": .string(op), "clientId": .string(client.id)]
        if let installationId = client.installationId { message["installationId"] = .string(installationId) }
        return message
    }

    private static func text(_ message: [String: JSONValue]) -> String {
        encoded(.object(message))
    }

    /// A value as JSON text, keys sorted.
    static func encoded(_ value: JSONValue) -> String {
        String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
