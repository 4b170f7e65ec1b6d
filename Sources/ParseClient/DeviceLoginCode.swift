import Foundation

/// Facebook's answer to `POST /device/login`: the code the user types at the verification URL,
/// and how the tool polls for the outcome.
public struct DeviceLoginCode: Decodable, Sendable {
    /// What the tool polls with: not shown to the user (anyone holding it could take the login).
    public let code: String
    /// What the user types at `verificationURI`.
    public let userCode: String
    public let verificationURI: String
    /// Seconds until the code expires.
    public let expiresIn: Int
    /// Seconds to wait between two polls.
    public let interval: Int

    private enum CodingKeys: String, CodingKey {
        case code, userCode = "user_code", verificationURI = "verification_uri", expiresIn = "expires_in", interval
    }
}
