import AnywallSupport
import WallLocation
import Foundation
import ParseWire
import WallDomain

/// The preferences in force for one command, resolved in the documented order:
/// flags > environment (`ANYWALL_*`) > settings file > defaults. Flags are applied by the CLI
/// on top of what this returns.
public struct Preferences: Sendable {
    /// Where a preference's value comes from.
    public enum Origin: Equatable, Sendable, CustomStringConvertible {
        case environment(String)
        case settingsFile
        case defaultValue

        public var description: String {
            switch self {
            case .environment(let name): return "environment \(name)"
            case .settingsFile: return "settings file"
            case .defaultValue: return "default"
            }
        }
    }

    /// A preference as written (nil: no value at all) and where it comes from.
    public struct Entry: Equatable, Sendable {
        public let text: String?
        public let origin: Origin

        public init(text: String?, origin: Origin) {
            self.text = text
            self.origin = origin
        }
    }

    /// The environment variables that stand in for settings.
    public static let environmentNames: [SettingKey: String] = [
        .radius: "ANYWALL_RADIUS", .units: "ANYWALL_UNITS", .location: "ANYWALL_LOCATION", .format: "ANYWALL_FORMAT",
        .server: "PARSE_SERVER_URL", .appId: "PARSE_APPLICATION_ID", .restKey: "PARSE_REST_API_KEY",
        .liveQueryURL: "PARSE_LIVE_QUERY_URL",
        .timeout: "ANYWALL_TIMEOUT",
    ]
    /// The environment variable that names the embedded wall's file.
    public static let storeVariable = "ANYWALL_STORE"

    /// Every key's value as written and where it comes from.
    private let entries: [SettingKey: Entry]

    /// The preferences of `settings` and `environment`. Each value is checked when it is read, so
    /// a bad one stops only a command that uses it: one a flag overrides, or one the command has
    /// no use for, is never read.
    public init(settings: Settings, environment: [String: String]) {
        entries = Self.entries(settings: settings, environment: environment)
    }

    /// The filter radius, nil when nothing sets it (the caller falls back to the default).
    public var radius: Distance? {
        get throws { try checked(.radius) { try Distance(parsing: $0) } }
    }

    public var units: UnitSystem {
        get throws { try checked(.units, Settings.units) ?? .metric }
    }

    public var location: LocationSpec? {
        get throws { try checked(.location) { try LocationSpec(parsing: $0) } }
    }

    public var format: OutputFormat? {
        get throws { try checked(.format, Settings.format) }
    }

    /// How long to wait for a server.
    public var timeouts: HTTPTimeouts {
        get throws { try checked(.timeout, Settings.timeout).map(HTTPTimeouts.total) ?? .standard }
    }

    /// The LiveQuery server named for the Parse Server in use, nil when none is named.
    public var liveQuery: LiveQueryAddress? {
        get throws { try checked(.liveQueryURL) { try LiveQueryAddress(named: $0) } }
    }

    /// Why each preference that is set cannot be used (`settings show` names them), in key order;
    /// an unusable server is named in its backend line instead.
    public var problems: [(key: SettingKey, reason: String)] {
        var found: [(key: SettingKey, reason: String)] = []
        func check(_ key: SettingKey, _ read: () throws -> Void) {
            do { try read() } catch let error as AnywallError { found.append((key, error.reason)) } catch { found.append((key, "\(error)")) }
        }
        check(.radius) { _ = try radius }
        check(.units) { _ = try units }
        check(.location) { _ = try location }
        check(.format) { _ = try format }
        check(.timeout) { _ = try timeouts }
        check(.liveQueryURL) { _ = try liveQuery }
        return found
    }

    /// The value `key` is set to, parsed; nil when only the default sets it. A bad one is refused,
    /// naming where it came from.
    private func checked<T>(_ key: SettingKey, _ parse: (String) throws -> T) throws -> T? {
        guard let entry = entries[key], entry.origin != .defaultValue, let text = entry.text else { return nil }
        do {
            return try parse(text)
        } catch let error as AnywallError {
            throw AnywallError.inputRejected("\(entry.origin): \(error.reason)")
        }
    }

    /// The Parse Server the settings name, checked, without checking any other preference (so
    /// `settings show` can name the wall while another value is bad); nil for the embedded wall.
    public static func server(settings: Settings, environment: [String: String]) throws -> ParseServer? {
        try server(entries(settings: settings, environment: environment))
    }

    private static func server(_ entries: [SettingKey: Entry]) throws -> ParseServer? {
        guard let url = entries[.server], url.origin != .defaultValue, let text = url.text else { return nil }
        do {
            return try ParseServer(url: text, applicationId: entries[.appId]?.text, restKey: entries[.restKey]?.text)
        } catch let error as AnywallError {
            throw AnywallError.inputRejected("\(url.origin): \(error.reason)")
        }
    }

    /// Every key's value as written and its origin, unchecked (so `settings show` can show a bad one).
    public static func entries(settings: Settings, environment: [String: String]) -> [SettingKey: Entry] {
        var entries: [SettingKey: Entry] = [:]
        for key in SettingKey.allCases {
            if let name = environmentNames[key], let value = environment[name], !value.isEmpty {
                entries[key] = Entry(text: value, origin: .environment(name))
            } else if let value = settings.values[key] {
                entries[key] = Entry(text: value, origin: .settingsFile)
            } else {
                entries[key] = Entry(text: defaultText(key), origin: .defaultValue)
            }
        }
        return entries
    }

    /// The embedded wall's file: the flag's, else `ANYWALL_STORE`, else the XDG default.
    public static func storeFile(flag: String?, environment: [String: String], paths: XDGPaths) -> URL {
        if let flag { return URL(fileURLWithPath: flag) }
        if let path = environment[storeVariable], !path.isEmpty { return URL(fileURLWithPath: path) }
        return paths.defaultStore
    }

    private static func defaultText(_ key: SettingKey) -> String? {
        switch key {
        case .radius: return FilterRadius.defaultRadius.flagForm
        case .units: return UnitSystem.metric.rawValue
        case .location: return nil
        case .format: return OutputFormat.table.rawValue
        case .server, .appId, .restKey, .liveQueryURL, .facebookAppId, .facebookClientToken: return nil
        case .timeout: return HTTPTimeouts.standard.total.flagForm
        }
    }
}
