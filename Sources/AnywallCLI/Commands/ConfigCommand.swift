import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show, refresh or change the wall's shared config.",
        discussion: """
            The config is cached and fetched again when the cached copy is an hour old. Keys Anywall \
            uses: availableFilterDistances (an array of feet) and postMaxCharacterCount.

            \(UsageExamples.config)
            """,
        subcommands: [Show.self, Refresh.self, Set.self, Unset.self, Init.self],
        defaultSubcommand: Show.self)

    /// The JSON shape `config show --json` prints: Parse's `{"params":{...}}` plus provenance.
    struct Output: Encodable {
        let params: [String: JSONValue]
        let source: String
        let origin: ConfigOrigin
        let fetchedAt: String?

        init(_ loaded: LoadedConfig) {
            params = loaded.config.params
            source = loaded.source
            origin = loaded.origin
            fetchedAt = loaded.fetchedAt.map(ParseDate.string(from:))
        }

        var table: String {
            let width = (params.keys.map(\.count).max() ?? 0) + 2
            var out = params.keys.sorted().map { key in
                key.padding(toLength: width, withPad: " ", startingAt: 0) + JSONText.encode(params[key]!)
            }.joined(separator: "\n") + "\n"
            out += "(from \(source), \(origin.rawValue)\(fetchedAt.map { ", fetched \($0)" } ?? ""))\n"
            return out
        }
    }

    /// Prints the config that `load` gets from the wall's cache (as it is, or fetched anew).
    static func show(store: StoreOptions, json: Bool, _ load: (ConfigCache, WallBackend) throws -> LoadedConfig) throws {
        let context = try CommandContext(store: store)
        let wall = try context.openBackendSendingOutbox()
        print(try load(context.configCache(for: wall), wall), json: json)
    }

    /// Changes the wall's config with `body`, keeps the config it answers in the cache and prints it.
    static func change(_ context: CommandContext, json: Bool, _ body: (WallBackend) throws -> RemoteConfig) throws {
        let wall = try context.openBackendSendingOutbox()
        let config = try body(wall)
        print(try context.configCache(for: wall).replace(with: config), json: json)
    }

    static func print(_ loaded: LoadedConfig, json: Bool) {
        let output = Output(loaded)
        Terminal.output(json ? JSONText.encode(output) + "\n" : output.table)
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the config in use and where it came from.", discussion: UsageExamples.configShow)
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        func run() throws {
            var stale = false
            try ConfigCommand.show(store: store, json: json.json) { cache, wall in
                let loaded = cache.load(fetch: wall.fetchConfig)
                if let warning = loaded.warning {
                    Terminal.warn(warning)
                    stale = true
                }
                return loaded
            }
            // What was printed is not the wall's config now: the cached copy or the defaults.
            if stale { throw ExitStatus.stale.exitCode }
        }
    }

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh", abstract: "Fetch the config now, whatever the cached copy's age.", discussion: UsageExamples.configRefresh)
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ConfigCommand.show(store: store, json: json.json) { cache, wall in try cache.refresh(fetch: wall.fetchConfig) }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set one parameter to a JSON value, e.g. postMaxCharacterCount 200.",
            discussion: """
                On the embedded wall this needs only write access to its file; on a Parse Server, its \
                master key (--master-key-file or --master-key-stdin).

                \(UsageExamples.configSet)
                """)
        @Argument(help: "The parameter's name.") var key: String
        @Argument(help: ArgumentHelp("The value, as JSON.", valueName: "JSON")) var value: String
        @Flag(help: "Add a parameter anywall does not use (for other clients of the wall).") var newKey = false
        @OptionGroup var masterKey: MasterKeyOptions
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        /// The parameters anywall reads (Anywall's two, and the social layer's the design names).
        static let knownKeys = [RemoteConfig.filterDistancesKey, RemoteConfig.maxCharactersKey,
                                "hideScore", "reportLimit", FacebookApp.appIdKey, FacebookApp.clientTokenKey]

        func run() throws {
            // A parameter, once set, stays on the wall: a misspelled one is refused before it is kept.
            guard newKey || Self.knownKeys.contains(key) else {
                let suggestion = ArgumentMistakes.closest(to: key, among: Self.knownKeys).map { "did you mean '\($0)'? " } ?? ""
                throw AnywallError.inputRejected("unknown config parameter '\(key)': \(suggestion)anywall reads "
                                                 + "\(Self.knownKeys.joined(separator: ", ")); to add another, give --new-key")
            }
            let context = try CommandContext(store: store)
            guard let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8)) else {
                throw AnywallError.inputRejected("bad value '\(value)': not JSON (quote strings: '\"text\"')")
            }
            try ConfigCommand.change(context, json: json.json) { wall in try wall.setConfig(key, to: parsed, masterKey: try masterKey.read()) }
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove one parameter; Anywall's own then take their defaults.",
            discussion: """
                Needs what set needs: write access to the embedded wall's file, or a Parse Server's master key.

                \(UsageExamples.configUnset)
                """)
        @Argument(help: "The parameter's name.") var key: String
        @OptionGroup var masterKey: MasterKeyOptions
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ConfigCommand.change(try CommandContext(store: store), json: json.json) { wall in
                try wall.unsetConfig(key, masterKey: try masterKey.read())
            }
        }
    }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Prepare a new wall: seed the default config, keeping values already set.",
            discussion: """
                On a Parse Server this also creates the Posts class (text, location, user), which a \
                stock server does not let clients create; it needs the master key.

                \(UsageExamples.configInit)
                """)
        @OptionGroup var masterKey: MasterKeyOptions
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ConfigCommand.change(try CommandContext(store: store), json: json.json) { wall in
                try wall.initialize(masterKey: try masterKey.read())
            }
        }
    }
}
