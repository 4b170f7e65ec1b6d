import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// Where a config in use came from.
public enum ConfigOrigin: String, Sendable, Codable {
    /// Fetched from the backend by this command.
    case backend
    /// The cached copy, younger than the refresh interval or kept because a fetch failed.
    case cache
    /// Anywall's defaults: nothing was fetched or cached.
    case defaults
}

/// A config together with its provenance, as `config show` reports it.
public struct LoadedConfig: Sendable {
    public let config: RemoteConfig
    public let origin: ConfigOrigin
    /// The backend it was fetched from.
    public let source: String
    /// When it was fetched; nil for the defaults.
    public let fetchedAt: Date?
    /// Said on stderr when the config is older or other than the user would expect.
    public let warning: String?
}

/// The remote config cached on disk, refreshed at most hourly (Anywall's policy): a fresh
/// cached copy is used as is; an older one is refetched; if the fetch fails the cached copy
/// stays in use (with a warning); with no copy at all, the defaults.
public struct ConfigCache: Sendable {
    /// How long a fetched config is used before it is fetched again.
    public static let refreshInterval: Duration = .seconds(3600)

    private struct Entry: Codable {
        var params: [String: JSONValue]
        var source: String
        var fetchedAt: Date
    }

    /// Config is no secret: readable by others, as a config file is.
    private let store: KeyedFileStore
    private let key: String
    private let source: String
    private let clock: WallClock

    /// A cache for the backend named `source`, in `directory`.
    public init(directory: URL, source: String, clock: WallClock = .system) {
        store = KeyedFileStore(directory: directory, prefix: "config-", mode: 0o644)
        key = KeyedFileStore.key([source], bytes: 8)
        self.source = source
        self.clock = clock
    }

    /// The config to use now, fetching with `fetch` only when the cached copy is missing or
    /// older than the refresh interval.
    public func load(fetch: () throws -> RemoteConfig) -> LoadedConfig {
        let cached = readEntry()
        let now = clock.now()
        if let cached, isFresh(cached.fetchedAt, now: now) {
            return LoadedConfig(config: RemoteConfig(params: cached.params), origin: .cache,
                                source: cached.source, fetchedAt: cached.fetchedAt, warning: nil)
        }
        do {
            return try refresh(fetch: fetch)
        } catch {
            let reason = (error as? AnywallError)?.reason ?? "\(error)"
            if let cached {
                return LoadedConfig(
                    config: RemoteConfig(params: cached.params), origin: .cache, source: cached.source,
                    fetchedAt: cached.fetchedAt,
                    warning: "could not refresh the config (\(reason)); using the copy fetched \(ParseDate.string(from: cached.fetchedAt))")
            }
            return LoadedConfig(config: .defaults, origin: .defaults, source: source, fetchedAt: nil,
                                warning: "could not fetch the config (\(reason)); using the defaults")
        }
    }

    /// Fetches now, whatever the cached copy's age, and caches the result.
    public func refresh(fetch: () throws -> RemoteConfig) throws -> LoadedConfig {
        try replace(with: fetch())
    }

    /// Caches `config` as just fetched from the backend (also after `config set`, so the change
    /// is seen at once).
    public func replace(with config: RemoteConfig) throws -> LoadedConfig {
        let now = clock.now()
        let entry = Entry(params: config.params, source: source, fetchedAt: now)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = ParseDate.encodingStrategy
        try store.save(entry, key: key, encoder: encoder)
        return LoadedConfig(config: config, origin: .backend, source: source, fetchedAt: now, warning: nil)
    }

    private func readEntry() -> Entry? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = ParseDate.decodingStrategy
        // A damaged cache is as good as none: it is refetched and rewritten.
        return store.load(Entry.self, key: key, decoder: decoder)
    }

    private func isFresh(_ fetchedAt: Date, now: Date) -> Bool {
        let age = now.timeIntervalSince(fetchedAt)
        return age >= 0 && age < Double(Self.refreshInterval.components.seconds)
    }
}
