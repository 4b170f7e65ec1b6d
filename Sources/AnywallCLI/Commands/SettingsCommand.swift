import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show or change local preferences.",
        discussion: """
            Keys: radius (one of the config's filter distances, or 1000m), units (metric | imperial), \
            location (at:LAT,LON, gpsd[:HOST[:PORT]], nmea:PATH), format (table | json | ndjson | geojson), \
            server (a Parse Server's URL with its mount path; unset: the embedded wall), app-id, rest-key \
            (give '-' to read it from standard input), live-query-url (the Parse Server's LiveQuery server, \
            wss://...: --watch then listens instead of asking again; anywall-server needs none), timeout (how long \
            to wait for a server, e.g. 15s), facebook-app-id and facebook-client-token (the Facebook app of \
            'login --facebook', else the wall's config facebookAppId and facebookClientToken).

            \(UsageExamples.settings)
            """,
        subcommands: [Show.self, Set.self, Unset.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show every setting, its value and where it comes from.", discussion: UsageExamples.settingsShow)
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        private struct Entry: Encodable {
            let value: String?
            let from: String

            // `"value":null` for a setting with no value, rather than no key: readers need not guess.
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(value, forKey: .value)
                try container.encode(from, forKey: .from)
            }

            private enum CodingKeys: String, CodingKey { case value, from }
        }

        private struct Output: Encodable {
            let settings: [String: Entry]
            let backend: String
        }

        /// A secret's value is not printed, only that it is set.
        static func shown(_ value: String?, key: SettingKey) -> String? {
            guard key.isSecret, value != nil else { return value }
            return "(set, not shown)"
        }

        /// A radius as set (what one types to set it), followed by the same distance in the reader's
        /// units when it is set in the other system: `1000m (3281 ft)`.
        static func readable(radius value: String, units: UnitSystem) -> String {
            guard let radius = try? Distance(parsing: value), radius.unit.system != units else { return value }
            return "\(value) (\(radius.readable(in: units)))"
        }

        func run() throws {
            let context = try CommandContext(store: store)
            for name in context.settings.unknownKeys {
                Terminal.warn("\(context.paths.settingsFile.path): unknown setting '\(name)' is ignored")
            }
            let entries = Preferences.entries(settings: context.settings, environment: context.environment)
            // A bad server setting must not stop `settings` from showing (and so fixing) it.
            let backend: (identity: String, description: String)
            do {
                backend = try context.backendNames()
            } catch let error as AnywallError {
                backend = ("", "none usable: \(error.wording)")
            }
            if json.json {
                let settings = Dictionary(uniqueKeysWithValues: entries.map {
                    ($0.key.rawValue, Entry(value: Self.shown($0.value.text, key: $0.key), from: $0.value.origin.description))
                })
                Terminal.output(JSONText.encode(Output(settings: settings, backend: backend.identity)) + "\n")
            } else {
                let units = entries[.units]?.text.flatMap(UnitSystem.init(rawValue:)) ?? .metric
                var out = ""
                for key in SettingKey.allCases {
                    let entry = entries[key]!
                    var value = Self.shown(entry.text, key: key) ?? "(none)"
                    if key == .radius { value = Self.readable(radius: value, units: units) }
                    out += "\(key.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))\(value)  [\(entry.origin)]\n"
                }
                out += "backend  \(backend.description)\n"
                Terminal.output(out)
            }
            // A value that would stop the commands that read it is named now, with how to mend it.
            let problems = context.preferences().problems
            for problem in problems {
                Terminal.note("anywall: \(problem.reason): 'anywall settings set \(problem.key.rawValue) VALUE' "
                              + "or 'anywall settings unset \(problem.key.rawValue)' mends it")
            }
            if !problems.isEmpty { throw ExitStatus.inputRejected.exitCode }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set a preference; bad keys and values are refused.", discussion: UsageExamples.settingsSet)
        @Argument(help: Settings.keyHelp, completion: Settings.keyCompletion) var key: CheckedArgument<SettingKey>
        @Argument(help: "The value ('-' reads it from standard input).", completion: .custom { words, index, _ in
            Settings.valueCompletions(key: index > 0 ? words[index - 1] : "")
        }) var value: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store, mendingSettings: true)
            let key = try key.value()
            var settings = context.settings
            // Only the radius depends on the wall (its config's choices); other keys need no backend.
            let config: RemoteConfig
            if key == .radius {
                let wall = try context.openBackendSendingOutbox()
                config = context.config(for: wall)
            } else {
                config = .defaults
            }
            // A key given on the command line would stay in the shell's history: '-' reads it from stdin.
            let value = self.value == "-" ? try Terminal.readAllInput(holding: "a setting").trimmingCharacters(in: .whitespacesAndNewlines) : self.value
            try settings.set(key, to: value, config: config)
            try settings.save(to: context.paths.settingsFile)
            Unset.noteDamagedCopy(settings, context: context)
            Terminal.note("\(key.rawValue) = \(Show.shown(settings.values[key], key: key) ?? value)")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Return a preference to its default.", discussion: UsageExamples.settingsUnset)
        @Argument(help: Settings.keyHelp, completion: Settings.keyCompletion) var key: CheckedArgument<SettingKey>
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store, mendingSettings: true)
            let key = try key.value()
            var settings = context.settings
            settings.unset(key)
            try settings.save(to: context.paths.settingsFile)
            Self.noteDamagedCopy(settings, context: context)
            let now = Preferences.entries(settings: settings, environment: context.environment)[key]!
            Terminal.note("\(key.rawValue) unset; now \(Show.shown(now.text, key: key) ?? "(none)") [\(now.origin)]")
        }

        /// Says where the damaged settings file that `settings` replaced was kept.
        static func noteDamagedCopy(_ settings: Settings, context: CommandContext) {
            guard settings.replacesDamagedFile else { return }
            Terminal.warn("\(context.paths.settingsFile.path) was not a settings file: a new one was started, "
                          + "the old one kept as \(Settings.damagedCopy(of: context.paths.settingsFile).path)")
        }
    }
}

extension Settings {
    /// The keys, as the help of `set` and `unset` lists them.
    static let keyHelp: ArgumentHelp = {
        let names = SettingKey.allCases.map(\.rawValue)
        return ArgumentHelp(names.dropLast().joined(separator: ", ") + " or " + names.last! + ".")
    }()
}

extension Settings {
    static let keyCompletion = CompletionKind.list(SettingKey.allCases.map(\.rawValue))

    /// What the shell offers after `settings set KEY`: the values there are a few of (the radius:
    /// Anywall's default choices; a wall's own are known only once it is asked).
    static func valueCompletions(key: String) -> [String] {
        switch SettingKey(rawValue: key) {
        case .radius: return FilterRadius.choices(in: .defaults).map(\.flagForm)
        case .units: return UnitSystem.allCases.map(\.rawValue)
        case .format: return OutputFormat.allCases.map(\.rawValue)
        case .location: return ["gpsd", "gpsd:localhost:2947", "at:", "nmea:"]
        case .timeout: return [HTTPTimeouts.standard.total.flagForm]
        case .server, .appId, .restKey, .liveQueryURL, .facebookAppId, .facebookClientToken, nil: return []
        }
    }
}

extension SettingKey: ArgumentText {
    init(argumentText text: String) throws { try self.init(named: text) }
}
