import AnywallSupport
import Foundation
import ParseWire
import WallDomain

/// The keys clients must present, read from the environment as Parse Server reads them:
/// `NAME`, or the file named by `NAME_FILE` (for keys kept out of the environment, e.g.
/// systemd credentials or Docker secrets).
package struct ServerKeys: Sendable {
    /// Every request must carry it (`X-Parse-Application-Id`).
    let applicationId: String
    /// Grants `PUT /config` and `/schemas`.
    let masterKey: String
    /// When set, every request must carry it or the master key (`X-Parse-REST-API-Key`).
    let restKey: String?

    package static let applicationIdName = "PARSE_SERVER_APPLICATION_ID"
    package static let masterKeyName = "PARSE_SERVER_MASTER_KEY"
    static let restKeyName = "PARSE_SERVER_REST_API_KEY"

    /// The keys from `environment`; a missing application id or master key is an error that says
    /// which variable to set.
    package static func from(_ environment: [String: String]) throws -> ServerKeys {
        guard let applicationId = try key(applicationIdName, environment) else { throw missing(applicationIdName) }
        guard let masterKey = try key(masterKeyName, environment) else { throw missing(masterKeyName) }
        return ServerKeys(applicationId: applicationId, masterKey: masterKey, restKey: try key(restKeyName, environment))
    }

    /// The secret `name` names in `environment`: its value, else the content of the file its
    /// `_FILE` variable names; nil when neither is set.
    package static func key(_ name: String, _ environment: [String: String]) throws -> String? {
        if let value = environment[name], !value.isEmpty { return value }
        guard let path = environment[name + "_FILE"], !path.isEmpty else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ServerFailure.configuration("cannot read \(name)_FILE (\(path))")
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { throw ServerFailure.configuration("\(name)_FILE (\(path)) is empty") }
        return value
    }

    private static func missing(_ name: String) -> ServerFailure {
        .configuration("no \(name): set it, or \(name)_FILE to a file holding it")
    }
}
