import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

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
    /// Whether `--store` was given: it names the embedded wall, whatever server is set.
    let storeFlagGiven: Bool

    /// `mendingSettings`: a settings file that is not one reads as no settings (for `settings set`
    /// and `unset`, which write a new one and keep the damaged one beside it).
    init(store: StoreOptions, mendingSettings: Bool = false) throws {
        environment = ProcessInfo.processInfo.environment
        paths = XDGPaths(environment: environment)
        settings = try Settings.load(from: paths.settingsFile, mending: mendingSettings)
        storeFile = Preferences.storeFile(flag: store.store, environment: environment, paths: paths)
        storeFlagGiven = store.store != nil
    }

    /// The preferences in force (environment > settings file > defaults), each checked as it is read.
    func preferences() -> Preferences {
        Preferences(settings: settings, environment: environment)
    }

    /// The Parse Server in use, or nil for the embedded wall.
    func server() throws -> ParseServer? {
        storeFlagGiven ? nil : try Preferences.server(settings: settings, environment: environment)
    }

    /// The wall the command works on: the Parse Server when one is set (and `--store` is not given),
    /// else the embedded wall. Opening it sends nothing: a command that reaches the wall sends the
    /// outbox itself (`openBackendSendingOutbox`).
    func openBackend() throws -> WallBackend {
        guard let server = try server() else { return try openWall() }
        return try ParseWall(server: server, timeouts: try preferences().timeouts)
    }

    /// The wall, for a command that talks to it: the posts waiting in the outbox for it are sent
    /// first, so that what the user wrote earlier is there before what they ask now.
    func openBackendSendingOutbox() throws -> WallBackend {
        let wall = try openBackend()
        sendOutbox(to: wall)
        return wall
    }

    /// The wall, for the commands of Parse's `authData` (anonymous and Facebook accounts), with the
    /// outbox sent; `facebook`: refused at once by a wall that cannot take Facebook, before any of
    /// Facebook's steps.
    func openIdentityWall(facebook: Bool) throws -> IdentityWall {
        let wall = try openBackendSendingOutbox()
        guard let identities = wall as? IdentityWall else {
            throw AnywallError.unsupported(wall: wall.description, feature: "anonymous and Facebook accounts")
        }
        if facebook { try identities.checkFacebookAvailable() }
        return identities
    }

    /// The embedded wall, for the commands that only it has (`import`, `passwd`): refused while a
    /// server is in use, unless `--store` names the file.
    func openEmbeddedOnly(for command: String) throws -> EmbeddedWall {
        if let server = try server() {
            throw AnywallError.inputRejected(
                "'\(command)' works on the embedded wall, and the Parse Server at \(server.url) is in use: "
                + "name the wall with --store PATH, or 'anywall settings unset server'")
        }
        return try openWall()
    }

    /// The embedded wall.
    func openWall() throws -> EmbeddedWall {
        try EmbeddedWall(file: storeFile)
    }

    /// Names the wall in use, for scripts (`WallBackend.identity`) and for people, without opening it.
    func backendNames() throws -> (identity: String, description: String) {
        if let server = try server() { return (server.url, "the Parse Server at \(server.url)") }
        return (EmbeddedWall.identity(of: storeFile), "the embedded wall \(storeFile.path)")
    }

    var sessions: SessionStore { SessionStore(file: paths.sessionFile) }
    var outbox: Outbox { Outbox(directory: paths.outboxDirectory) }

    func configCache(for backend: WallBackend) -> ConfigCache {
        ConfigCache(directory: paths.configCacheDirectory, source: backend.identity)
    }

    /// The wall's config under the hourly refresh policy, warning on stderr when it is not fresh.
    func config(for backend: WallBackend) -> RemoteConfig {
        let loaded = configCache(for: backend).load(fetch: backend.fetchConfig)
        if let warning = loaded.warning { Terminal.warn(warning) }
        return loaded.config
    }

    /// Runs `body` with the logged-in session for `backend`; a session the backend no longer
    /// knows (revoked, expired) is forgotten, so the next command says "not logged in".
    func withSession<T>(on backend: WallBackend, _ body: (Session) throws -> T) throws -> T {
        let session = try sessions.requireSession(for: backend.identity)
        do {
            return try body(session)
        } catch let error as AnywallError {
            if case .sessionExpired = error { sessions.clear() }
            throw error
        }
    }

    /// Sends the posts waiting for `backend` written by the logged-in user, saying on stderr what
    /// became of them. Never fails the command: what cannot be sent keeps waiting. Only a remote
    /// wall has an outbox: a local one takes every post at once.
    private func sendOutbox(to backend: WallBackend) {
        let outbox = self.outbox
        guard backend.isRemote, outbox.hasEntries(for: backend.identity) else { return }
        do {
            guard let session = try sessions.session(for: backend.identity) else {
                Terminal.warn("posts wait in the outbox for \(backend.description): log in to send them")
                return
            }
            let (outcomes, stoppedBy) = try OutboxDelivery(outbox: outbox, backend: backend).run(session: session)
            for outcome in outcomes {
                switch outcome {
                case .delivered(let entry, let objectId):
                    Terminal.note("anywall: sent the post queued \(ParseDate.string(from: entry.queuedAt))"
                                  + (objectId.map { " (\($0))" } ?? " (the server had it already)"))
                case .rejected(let entry, let reason):
                    Terminal.warn("the post queued \(ParseDate.string(from: entry.queuedAt)) was refused (\(reason)); "
                                  + "it is kept in \(outbox.rejectedFile.path)")
                }
            }
            if let stoppedBy {
                if case .sessionExpired = stoppedBy { sessions.clear() }
                let left = try OutboxDelivery(outbox: outbox, backend: backend).waiting().count
                Terminal.warn("\(left) post\(left == 1 ? "" : "s") still wait\(left == 1 ? "s" : "") in the outbox: \(stoppedBy.wording)")
            }
        } catch {
            Terminal.warn("could not send the outbox: \((error as? AnywallError)?.wording ?? "\(error)")")
        }
    }
}
