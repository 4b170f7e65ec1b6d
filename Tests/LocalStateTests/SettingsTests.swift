import Foundation
import LocalState
import TestSupport
import Testing
import WallDomain

@Suite("Settings and preferences")
struct SettingsTests {
    private let paths = XDGPaths(environment: ["HOME": "/home/u"])

    @Test("radius choices are the config's feet plus 1000 m, nearest first")
    func choices() {
        #expect(FilterRadius.choices(in: .defaults) == [.feet(250), .feet(2000), .meters(1000), .feet(5000)].sorted())
        #expect(FilterRadius.choices(in: .defaults).map(\.description) == ["250 ft", "2000 ft", "1000 m", "5000 ft"])
    }

    @Test("settings set radius accepts only a choice, in any unit")
    func radius() throws {
        var settings = Settings()
        try settings.set(.radius, to: "2000ft", config: .defaults)
        #expect(settings.values[.radius] == "2000ft")
        try settings.set(.radius, to: "1km", config: .defaults)
        #expect(settings.values[.radius] == "1000m")
        #expect(throws: AnywallError.self) { try settings.set(.radius, to: "5km", config: .defaults) }
        let custom = RemoteConfig(params: ["availableFilterDistances": .array([.number(100)])])
        try settings.set(.radius, to: "100ft", config: custom)
        #expect(throws: AnywallError.self) { try settings.set(.radius, to: "250ft", config: custom) }
    }

    @Test("unknown keys and bad values are refused")
    func refused() {
        var settings = Settings()
        #expect(throws: AnywallError.self) { try SettingKey(named: "colour") }
        #expect(throws: AnywallError.self) { try settings.set(.units, to: "furlongs", config: .defaults) }
        #expect(throws: AnywallError.self) { try settings.set(.format, to: "xml", config: .defaults) }
        #expect(throws: AnywallError.self) { try settings.set(.location, to: "at:95,0", config: .defaults) }
        #expect(settings.values.isEmpty)
    }

    @Test("the environment overrides the settings file, which overrides the defaults")
    func precedence() throws {
        var settings = Settings()
        try settings.set(.units, to: "imperial", config: .defaults)
        try settings.set(.format, to: "json", config: .defaults)
        let fromFile = Preferences(settings: settings, environment: [:])
        #expect(try fromFile.units == .imperial && fromFile.format == .json && fromFile.radius == nil)
        let fromEnv = Preferences(settings: settings, environment: ["ANYWALL_UNITS": "metric", "ANYWALL_RADIUS": "3km"])
        #expect(try fromEnv.units == .metric && fromEnv.format == .json && fromEnv.radius == .kilometers(3))
        #expect(throws: AnywallError.self) { try Preferences(settings: Settings(), environment: ["ANYWALL_UNITS": "x"]).units }
    }

    @Test("the wall's file: the flag, else ANYWALL_STORE, else the XDG default")
    func storeFile() {
        #expect(Preferences.storeFile(flag: "/f", environment: ["ANYWALL_STORE": "/e"], paths: paths).path == "/f")
        #expect(Preferences.storeFile(flag: nil, environment: ["ANYWALL_STORE": "/e"], paths: paths).path == "/e")
        #expect(Preferences.storeFile(flag: nil, environment: [:], paths: paths) == paths.defaultStore)
    }

    @Test("show reports a bad value and where it comes from, without refusing")
    func entries() throws {
        var settings = Settings()
        try settings.set(.units, to: "imperial", config: .defaults)
        let entries = Preferences.entries(settings: settings, environment: ["ANYWALL_FORMAT": "xml"])
        #expect(entries[.units] == Preferences.Entry(text: "imperial", origin: .settingsFile))
        #expect(entries[.format] == Preferences.Entry(text: "xml", origin: .environment("ANYWALL_FORMAT")))
        #expect(entries[.radius] == Preferences.Entry(text: "1000m", origin: .defaultValue))
        let preferences = Preferences(settings: settings, environment: ["ANYWALL_FORMAT": "xml"])
        #expect(throws: AnywallError.inputRejected("environment ANYWALL_FORMAT: bad format 'xml': use table, json, ndjson, geojson")) {
            try preferences.format
        }
        #expect(try preferences.units == .imperial, "a bad value stops only what reads it")
    }

    @Test("files follow XDG")
    func xdg() {
        #expect(paths.settingsFile.path == "/home/u/.config/anywall/settings.json")
        #expect(paths.sessionFile.path == "/home/u/.local/state/anywall/session.json")
        #expect(paths.defaultStore.path == "/home/u/.local/share/anywall/wall.sqlite")
        let custom = XDGPaths(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "relative"])
        #expect(custom.defaultStore.path == "/d/anywall/wall.sqlite")
        #expect(custom.configCacheDirectory.path == "/h/.cache/anywall/config")
    }
}
