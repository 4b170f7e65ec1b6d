import Foundation
import ParseWire
import WallDomain

/// A message the client sends a LiveQuery server (Parse's `RequestSchema`), as JSON text.
///
/// `since` and `snapshot` are anywall-server's additions, sent only while the server takes them:
/// a stock Parse Server refuses unknown properties (error 1), and the subscription then drops them.
enum LiveQueryRequest: Equatable {
    /// `connect`: the application id, the REST key when the server has one, the session when
    /// logged in. Never the master key.
    case connect(applicationId: String, restKey: String?, sessionToken: String?)
    /// `subscribe` to a class's objects matching `where`; with `since`, the events after that
    /// sequence are replayed first; with `snapshot`, the current matches come first.
    case subscribe(requestId: Int, className: String, where: JSONValue, since: Int?, snapshot: Bool)
    /// `update`: the same subscription with a new `where` (a new centre).
    case update(requestId: Int, className: String, where: JSONValue)

    /// The message as sent.
    var text: String {
        var fields: [String: JSONValue]
        switch self {
        case .connect(let applicationId, let restKey, let sessionToken):
            fields = ["op": .string("connect"), "applicationId": .string(applicationId)]
            if let restKey { fields["restAPIKey"] = .string(restKey) }
            if let sessionToken { fields["sessionToken"] = .string(sessionToken) }
        case .subscribe(let requestId, let className, let clause, let since, let snapshot):
            fields = Self.subscription("subscribe", requestId, className, clause)
            if let since { fields["since"] = .number(Double(since)) }
            if snapshot { fields["snapshot"] = .bool(true) }
        case .update(let requestId, let className, let clause):
            fields = Self.subscription("update", requestId, className, clause)
        }
        // Sorted keys: the same request is the same text (a log, a test reading it).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(JSONValue.object(fields))) ?? Data(), as: UTF8.self)
    }

    private static func subscription(_ op: String, _ requestId: Int, _ className: String, _ clause: JSONValue) -> [String: JSONValue] {
        ["op": .string(op), "requestId": .number(Double(requestId)),
         "query": .object(["className": .string(className), "where": clause])]
    }
}
