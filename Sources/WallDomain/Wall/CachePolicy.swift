/// Where `nearby` takes its answer from, with the names of Parse's query cache policies.
///
/// Only a remote wall has a cache: the embedded wall is on this machine and is always read.
public enum CachePolicy: String, CaseIterable, Sendable {
    /// Ask the server; neither read nor write the cache.
    case ignoreCache = "ignore-cache"
    /// The cached answer only; never ask the server.
    case cacheOnly = "cache-only"
    /// Ask the server and cache the answer; never read the cache.
    case networkOnly = "network-only"
    /// The cached answer if there is one, else ask the server.
    case cacheElseNetwork = "cache-else-network"
    /// Ask the server; if it cannot be reached, the cached answer (the default).
    case networkElseCache = "network-else-cache"
    /// The cached answer at once, then the server's.
    case cacheThenNetwork = "cache-then-network"

    public static let standard = CachePolicy.networkElseCache

    /// Looks a policy up by name, refusing unknown ones with the list of known ones.
    public init(named name: String) throws {
        guard let policy = CachePolicy(rawValue: name) else {
            throw AnywallError.inputRejected(
                "unknown cache policy '\(name)': use \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = policy
    }
}
