import AnywallCore
import Foundation

/// What every command reads before it starts: the environment, file locations and settings.
/// Preferences are resolved (and checked) only by the commands that use them, so that a bad
/// value in the settings file never stops `settings` from fixing it; the backend is opened only
/// by commands that need it.
struct CommandContext {
    let environment: [String: String]
    let paths: XDGPaths
    let settings: Settings
    /// The embedded wall's file.
    let storeFile: URL

    init(store: StoreOptions) throws {
        environment = ProcessInfo.processInfo.environment
        paths = XDGPaths(environment: environment)
        settings = try Settings.load(from: paths.settingsFile)
        storeFile = Preferences.storeFile(flag: store.store, environment: environment, paths: paths)
    }

    /// The preferences in force (environment > settings file > defaults), checked.
    func preferences() throws -> Preferences {
        try Preferences(settings: settings, environment: environment)
    }

    /// The wall the command works on.
    func openWall() throws -> EmbeddedWall {
        try EmbeddedWall(file: storeFile)
    }

    var sessions: SessionStore { SessionStore(file: paths.sessionFile) }

    func configCache(for backend: WallBackend) -> ConfigCache {
        ConfigCache(directory: paths.configCacheDirectory, source: backend.identity)
    }

    /// The wall's config under the hourly refresh policy, warning on stderr when it is not fresh.
    func config(for backend: WallBackend) -> RemoteConfig {
        let loaded = configCache(for: backend).load(fetch: backend.fetchConfig)
        if let warning = loaded.warning { Terminal.warn(warning) }
        return loaded.config
    }

    /// Runs `body` with the logged-in session for `backend`; a session the backend refuses
    /// (revoked, expired) is forgotten, so the next command says "not logged in".
    func withSession<T>(on backend: WallBackend, _ body: (Session) throws -> T) throws -> T {
        let session = try sessions.requireSession(for: backend.identity)
        do {
            return try body(session)
        } catch let error as AnywallError {
            if case .authFailed = error { sessions.clear() }
            throw error
        }
    }
}
