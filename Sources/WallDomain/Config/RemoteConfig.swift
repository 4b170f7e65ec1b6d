import Foundation

/// The wall's shared configuration (Parse's `GET /config` params), with Anywall's keys read
/// through typed accessors that fall back to Anywall's defaults.
public struct RemoteConfig: Equatable, Sendable, Codable {
    public static let filterDistancesKey = "availableFilterDistances"
    public static let maxCharactersKey = "postMaxCharacterCount"

    /// Anywall's filter distance choices, in feet as its config stores them.
    public static let defaultFilterDistances: [Distance] = [.feet(250), .feet(2000), .feet(5000)]
    public static let defaultMaxCharacters = 140

    /// What the Anywall apps seed a new wall's config with.
    public static let defaults = RemoteConfig(params: [
        filterDistancesKey: .array(defaultFilterDistances.map { .number($0.value) }),
        maxCharactersKey: .number(Double(defaultMaxCharacters)),
    ])

    /// Every parameter, as Parse's `GET /config` returns them.
    public var params: [String: JSONValue]

    /// A config with these parameters.
    public init(params: [String: JSONValue]) {
        self.params = params
    }

    /// The config a wall with these parameters set works with: Anywall's defaults for its keys
    /// the wall has not set (a new wall has none), the wall's own values over them.
    public init(setOnWall params: [String: JSONValue]) {
        self.params = Self.defaults.params.merging(params) { _, set in set }
    }

    /// The filter distances offered by the config (feet), or the defaults when it has none usable.
    public var availableFilterDistances: [Distance] {
        guard case .array(let items)? = params[Self.filterDistancesKey] else { return Self.defaultFilterDistances }
        let feet = items.compactMap(\.number).filter { $0 > 0 && $0.isFinite }
        return feet.isEmpty || feet.count != items.count ? Self.defaultFilterDistances : feet.map { .feet($0) }
    }

    /// The longest post allowed, in user-perceived characters.
    public var postMaxCharacterCount: Int {
        guard let n = params[Self.maxCharactersKey]?.number, n >= 1, n == n.rounded(), n < 1e9 else {
            return Self.defaultMaxCharacters
        }
        return Int(n)
    }

    /// Refuses values of Anywall's own keys that the apps could not use.
    public static func validate(key: String, value: JSONValue) throws {
        switch key {
        case filterDistancesKey:
            guard case .array(let items) = value, !items.isEmpty,
                  items.allSatisfy({ ($0.number ?? 0) > 0 }) else {
                throw AnywallError.inputRejected("\(key) must be a non-empty array of positive numbers of feet, e.g. [250,2000,5000]")
            }
        case maxCharactersKey:
            guard let n = value.number, n >= 1, n == n.rounded() else {
                throw AnywallError.inputRejected("\(key) must be a whole number of at least 1, e.g. 140")
            }
        default:
            try CommunityRules.validate(key: key, value: value)
        }
    }
}
