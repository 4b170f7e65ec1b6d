import Foundation

/// The config parameters as last decoded, with the stored JSON texts they came from: the server
/// reads the config for every post it takes, and decoding the same texts again each time was a
/// tenth of a post's cost. Texts that changed (here or in another process) are decoded again.
/// Each of the server's stores keeps one.
public final class DecodedParams: @unchecked Sendable {
    // Unchecked: both fields are guarded by `lock`.
    private let lock = NSLock()
    private var texts: [String: String] = [:]
    private var params: [String: JSONValue] = [:]

    /// A memo with nothing decoded yet.
    public init() {}

    /// The parameters the stored `texts` (key: JSON text) hold.
    public func params(from texts: [String: String]) throws -> [String: JSONValue] {
        if let known = lock.withLock({ texts == self.texts ? params : nil }) { return known }
        let decoder = JSONDecoder()
        var decoded: [String: JSONValue] = [:]
        for (key, text) in texts { decoded[key] = try decoder.decode(JSONValue.self, from: Data(text.utf8)) }
        lock.withLock {
            self.texts = texts
            params = decoded
        }
        return decoded
    }
}
