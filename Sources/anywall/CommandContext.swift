import AnywallCore
import Foundation

/// What every command reads before it starts: the environment, file locations, settings and
/// the preferences they resolve to. The backend is opened only by commands that need it.
struct CommandContext {
    let environment: [String: String]
    let paths: XDGPaths
    let settings: Settings
    let preferences: Preferences

    init(store: StoreOptions) throws {
        environment = ProcessInfo.processInfo.environment
        paths = XDGPaths(environment: environment)
        settings = try Settings.load(from: paths.settingsFile)
        var preferences = try Preferences(settings: settings, environment: environment, paths: paths)
        if let path = store.store { preferences.store = URL(fileURLWithPath: path) }
        self.preferences = preferences
    }

    /// The wall the command works on.
    func openWall() throws -> EmbeddedWall {
        try EmbeddedWall(file: preferences.store)
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
