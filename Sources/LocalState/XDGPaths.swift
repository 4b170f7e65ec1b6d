import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// Where anywall keeps its files, following the XDG base directory specification.
public struct XDGPaths: Sendable {
    public let configHome: URL
    public let stateHome: URL
    public let cacheHome: URL
    public let dataHome: URL

    /// Reads `XDG_*_HOME`, falling back to the specification's defaults under `HOME`.
    public init(environment: [String: String]) {
        // Every URL here says whether it is a folder: one that does not say is looked up on disk
        // to find out, a dozen system calls in every command's start.
        let home = URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory(), isDirectory: true)
        func base(_ variable: String, _ fallback: String) -> URL {
            // The specification says relative paths are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        configHome = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("anywall", isDirectory: true)
        stateHome = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("anywall", isDirectory: true)
        cacheHome = base("XDG_CACHE_HOME", ".cache").appendingPathComponent("anywall", isDirectory: true)
        dataHome = base("XDG_DATA_HOME", ".local/share").appendingPathComponent("anywall", isDirectory: true)
    }

    /// Local preferences (`settings`).
    public var settingsFile: URL { configHome.appendingPathComponent("settings.json", isDirectory: false) }
    /// The logged-in session (mode 0600).
    public var sessionFile: URL { stateHome.appendingPathComponent("session.json", isDirectory: false) }
    /// Saved results of `nearby --changes`, one file per query.
    public var savedResultsDirectory: URL { stateHome.appendingPathComponent("changes", isDirectory: true) }
    /// Posts waiting to be sent to a server, and those it refused.
    public var outboxDirectory: URL { stateHome.appendingPathComponent("outbox", isDirectory: true) }
    /// The last answers of `nearby` from servers, for the cache policies.
    public var resultCacheDirectory: URL { cacheHome.appendingPathComponent("results", isDirectory: true) }
    /// Cached remote config, one file per backend.
    public var configCacheDirectory: URL { cacheHome.appendingPathComponent("config", isDirectory: true) }
    /// The embedded wall used when no store is named.
    public var defaultStore: URL { dataHome.appendingPathComponent("wall.sqlite", isDirectory: false) }
}
