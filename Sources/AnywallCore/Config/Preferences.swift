import Foundation

/// The preferences in force for one command, resolved in the documented order:
/// flags > environment (`ANYWALL_*`) > settings file > defaults. Flags are applied by the CLI
/// on top of what this returns.
public struct Preferences: Sendable {
    /// The filter radius, nil when nothing sets it (the caller falls back to the default).
    public var radius: Distance?
    public var units: UnitSystem
    public var location: LocationSpec?
    public var format: OutputFormat?
    /// The embedded wall's file.
    public var store: URL

    /// The environment variables that stand in for settings, and for `--store`.
    public static let environmentNames: [SettingKey: String] = [
        .radius: "ANYWALL_RADIUS", .units: "ANYWALL_UNITS", .location: "ANYWALL_LOCATION", .format: "ANYWALL_FORMAT",
    ]
    public static let storeVariable = "ANYWALL_STORE"

    public init(settings: Settings, environment: [String: String], paths: XDGPaths) throws {
        func value(_ key: SettingKey) -> (String, String)? {
            if let name = Self.environmentNames[key], let v = environment[name], !v.isEmpty { return (v, name) }
            return settings.values[key].map { ($0, "setting \(key.rawValue)") }
        }
        func checked<T>(_ key: SettingKey, _ parse: (String) throws -> T) throws -> T? {
            guard let (text, origin) = value(key) else { return nil }
            do {
                return try parse(text)
            } catch let error as AnywallError {
                throw AnywallError.inputRejected("\(origin): \(error.message)")
            }
        }
        radius = try checked(.radius) { try Distance(parsing: $0) }
        units = try checked(.units, Settings.units) ?? .metric
        location = try checked(.location) { try LocationSpec(parsing: $0) }
        format = try checked(.format, Settings.format)
        if let path = environment[Self.storeVariable], !path.isEmpty {
            store = URL(fileURLWithPath: path)
        } else {
            store = paths.defaultStore
        }
    }
}
