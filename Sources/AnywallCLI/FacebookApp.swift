import Foundation
import LocalState
import WallDomain

/// The Facebook app anywall logs in through: its id and client token (not a secret: apps embed
/// it). From settings (`facebook-app-id`, `facebook-client-token`), else from the wall's config
/// (`facebookAppId`, `facebookClientToken`, as Parse's settings page had them).
struct FacebookApp {
    let appId: String
    let clientToken: String

    static let appIdKey = "facebookAppId"
    static let clientTokenKey = "facebookClientToken"

    /// The app from `settings`, each value missing there read from `config` (asked only then);
    /// `facebookAppMissing` names the config keys neither has.
    init(settings: Settings, config: () -> RemoteConfig) throws {
        var params: [String: JSONValue] { config().params }
        let appId = settings.values[.facebookAppId] ?? Self.text(params[Self.appIdKey])
        let clientToken = settings.values[.facebookClientToken] ?? Self.text(params[Self.clientTokenKey])
        guard let appId, let clientToken else {
            throw AnywallError.facebookAppMissing([appId == nil ? Self.appIdKey : nil, clientToken == nil ? Self.clientTokenKey : nil].compactMap { $0 })
        }
        self.appId = appId
        self.clientToken = clientToken
    }

    /// A config value as text: app ids are often kept as numbers.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .number(let number) where number == number.rounded() && number >= 0 && number < 1e18: return String(Int64(number))
        default: return nil
        }
    }
}
