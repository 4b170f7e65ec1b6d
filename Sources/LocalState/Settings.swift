import AnywallSupport
import WallLocation
import Foundation
import ParseWire
import WallDomain

/// A local preference `settings` can set.
public enum SettingKey: String, CaseIterable, Sendable, Codable, Comparable {
    /// The filter radius: one of the config's choices.
    case radius
    /// `metric` or `imperial`, for printed distances.
    case units
    /// The default location source when no LOCATION flag is given.
    case location
    /// The default output format.
    case format
    /// The Parse Server's URL (with its mount path); unset, the embedded wall is used.
    case server
    /// The Parse Server's application id.
    case appId = "app-id"
    /// The Parse Server's REST API key, when it asks for one.
    case restKey = "rest-key"
    /// Where the Parse Server's LiveQuery server listens (`wss://...`), for `--watch` to subscribe;
    /// anywall-server's needs none (it serves LiveQuery beside its REST API).
    case liveQueryURL = "live-query-url"
    /// How long to wait for a server's answer.
    case timeout
    /// The Facebook app's id, for `login --facebook` (else the wall's config `facebookAppId`).
    case facebookAppId = "facebook-app-id"
    /// The Facebook app's client token (not a secret: apps embed it), else the config's `facebookClientToken`.
    case facebookClientToken = "facebook-client-token"

    /// Keys whose values are not shown in full (`settings show`).
    public var isSecret: Bool { self == .restKey }

    /// Looks a key up by name, refusing unknown ones with the list of known ones.
    public init(named name: String) throws {
        guard let key = SettingKey(rawValue: name) else {
            throw AnywallError.inputRejected(
                "unknown setting '\(name)': the settings are \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = key
    }

    public static func < (a: SettingKey, b: SettingKey) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The local preferences file (`$XDG_CONFIG_HOME/anywall/settings.json`): each key's value as typed,
/// checked before it is saved.
public struct Settings: Equatable, Sendable {
    public private(set) var values: [SettingKey: String]

    public init(values: [SettingKey: String] = [:]) {
        self.values = values
    }

    /// Keys found in the file that anywall does not know (left by hand): ignored, and dropped
    /// when the file is next saved.
    public private(set) var unknownKeys: [String] = []

    /// Whether the file read was not a settings file (read with `mending`): saving then keeps it
    /// beside the new one, as `damagedCopy(of:)`.
    public private(set) var replacesDamagedFile = false

    /// Where a damaged settings file is kept when `settings set` or `unset` writes a new one.
    public static func damagedCopy(of url: URL) -> URL {
        url.appendingPathExtension("damaged")
    }

    /// Reads the file; a missing file means no settings. A file that is not settings is refused,
    /// unless `mending` (`settings set` and `unset`, which write a new one): then it reads as none.
    public static func load(from url: URL, mending: Bool = false) throws -> Settings {
        guard let data = try PrivateFile.read(url) else { return Settings() }
        guard let raw = try? JSONDecoder().decode([String: String].self, from: data) else {
            guard mending else {
                throw AnywallError.inputRejected(
                    "\(url.path) is not a settings file (a JSON object of strings): fix it, or 'anywall settings set KEY VALUE' "
                    + "starts a new one and keeps it as \(damagedCopy(of: url).lastPathComponent)")
            }
            var settings = Settings()
            settings.replacesDamagedFile = true
            return settings
        }
        var settings = Settings()
        for (name, value) in raw {
            if let key = SettingKey(rawValue: name) { settings.values[key] = value } else { settings.unknownKeys.append(name) }
        }
        settings.unknownKeys.sort()
        return settings
    }

    /// Writes the known keys to `url` (unknown ones read from it are dropped); readable by its owner
    /// only, as it may hold the REST API key.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let raw = Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
        if replacesDamagedFile {
            let copy = Self.damagedCopy(of: url)
            try? FileManager.default.removeItem(at: copy)
            do {
                try FileManager.default.moveItem(at: url, to: copy)
            } catch {
                throw AnywallError.fileUnreadable("cannot keep the damaged \(url.path) as \(copy.lastPathComponent): \(error.localizedDescription)")
            }
        }
        try PrivateFile.write(try encoder.encode(raw), to: url, mode: 0o600)
    }

    /// Sets `key` after checking `value`; the radius must be one of `config`'s choices.
    public mutating func set(_ key: SettingKey, to value: String, config: RemoteConfig) throws {
        switch key {
        case .radius:
            let typed = try Distance(parsing: value)
            do {
                values[key] = try FilterRadius.choice(matching: typed, in: config).flagForm
            } catch let error as AnywallError {
                // The choices are the wall's design (Anywall's settings screen); any other radius is one flag,
                // or one config change, away.
                let feet = (config.availableFilterDistances + [typed]).map { Self.feetText($0) }.joined(separator: ",")
                throw AnywallError.inputRejected("\(error.reason); for any other radius give --radius \(value) (or ANYWALL_RADIUS=\(value)), "
                                                 + "or on a wall you administer: anywall config set availableFilterDistances '[\(feet)]'")
            }
        case .units:
            values[key] = try Self.units(value).rawValue
        case .location:
            values[key] = try Self.absolute(LocationSpec(parsing: value)).description
        case .format:
            values[key] = try Self.format(value).rawValue
        case .server:
            values[key] = try ParseServer(url: value, applicationId: "checked later", restKey: nil).url
        case .liveQueryURL:
            values[key] = try LiveQueryAddress(named: value).url
        case .appId, .restKey, .facebookAppId, .facebookClientToken:
            guard !value.isEmpty, !value.contains(where: \.isNewline) else {
                throw AnywallError.inputRejected("bad \(key.rawValue): it must be one line, not empty")
            }
            values[key] = value
        case .timeout:
            values[key] = try Self.timeout(value).flagForm
        }
    }

    public mutating func unset(_ key: SettingKey) {
        values[key] = nil
    }

    /// A distance in feet, as `availableFilterDistances` holds it: to a hundredth, which keeps it
    /// within the centimetre a radius choice is matched to.
    static func feetText(_ distance: Distance) -> String {
        let feet = (distance.converted(to: .feet).value * 100).rounded() / 100
        return feet == feet.rounded() && abs(feet) < 1e15 ? String(Int(feet)) : String(feet)
    }

    /// An NMEA path as the settings keep it: absolute, since the setting is used from any directory.
    static func absolute(_ spec: LocationSpec) -> LocationSpec {
        guard case .nmea(let path) = spec, path != "-", !path.hasPrefix("/") else { return spec }
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return .nmea(path: URL(fileURLWithPath: path, relativeTo: directory).standardizedFileURL.path)
    }

    static func units(_ value: String) throws -> UnitSystem {
        guard let units = UnitSystem(rawValue: value) else {
            throw AnywallError.inputRejected("bad units '\(value)': use metric or imperial")
        }
        return units
    }

    /// The longest wait for a server that `timeout` accepts.
    static let longestTimeout = 600.0

    static func timeout(_ value: String) throws -> Duration {
        guard let duration = Duration(parsing: value, seconds: 0.1...longestTimeout) else {
            throw AnywallError.inputRejected("bad timeout '\(value)': expected a time from 100ms to 10min, such as 15s")
        }
        return duration
    }

    static func format(_ value: String) throws -> OutputFormat {
        guard let format = OutputFormat(rawValue: value) else {
            throw AnywallError.inputRejected(
                "bad format '\(value)': use \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }
}
