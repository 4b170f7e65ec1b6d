import AnywallCore
import ArgumentParser

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show or change local preferences.",
        discussion: """
            Keys: radius (one of the config's filter distances, or 1000m), units (metric | imperial),
            location (at:LAT,LON), format (table | json | ndjson | geojson).
            """,
        subcommands: [Show.self, Set.self, Unset.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every setting, its value and where it comes from.")
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        private struct Entry: Encodable {
            let value: String?
            let from: String
        }

        private struct Output: Encodable {
            let settings: [String: Entry]
            let backend: String
        }

        func run() throws {
            let context = try CommandContext(store: store)
            for name in context.settings.unknownKeys {
                Terminal.warn("\(context.paths.settingsFile.path): unknown setting '\(name)' is ignored")
            }
            let entries = Preferences.entries(settings: context.settings, environment: context.environment)
            let backend = EmbeddedWall.identity(of: context.storeFile)
            if json.json {
                let settings = Dictionary(uniqueKeysWithValues: entries.map {
                    ($0.key.rawValue, Entry(value: $0.value.text, from: $0.value.origin.description))
                })
                Terminal.output(JSONText.encode(Output(settings: settings, backend: backend)) + "\n")
            } else {
                var out = ""
                for key in SettingKey.allCases {
                    let entry = entries[key]!
                    out += "\(key.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))\(entry.text ?? "(none)")  [\(entry.origin)]\n"
                }
                out += "backend  the embedded wall \(context.storeFile.path)\n"
                Terminal.output(out)
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a preference; bad keys and values are refused.")
        @Argument(help: "radius, units, location or format.") var key: String
        @Argument(help: "The value.") var value: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store)
            let key = try SettingKey(named: key)
            var settings = context.settings
            // Only the radius depends on the wall (its config's choices); other keys need no backend.
            let config: RemoteConfig = key == .radius ? context.config(for: try context.openWall()) : .defaults
            try settings.set(key, to: value, config: config)
            try settings.save(to: context.paths.settingsFile)
            Terminal.note("\(key.rawValue) = \(settings.values[key] ?? value)")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Return a preference to its default.")
        @Argument(help: "radius, units, location or format.") var key: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store)
            let key = try SettingKey(named: key)
            var settings = context.settings
            settings.unset(key)
            try settings.save(to: context.paths.settingsFile)
        }
    }
}
