import Foundation

/// Facebook's answer to one poll of `POST /device/login_status`.
public enum DeviceLoginStatus: Equatable, Sendable {
    /// Not approved yet (error subcode 1349174): poll again after the interval.
    case pending
    /// Polled too soon (1349172): poll less often.
    case slowDown
    /// The code expired or the login was denied (1349152): nothing more will come of it.
    case expired
    /// Approved: the user's access token and its lifetime in seconds.
    case approved(accessToken: String, expiresIn: Int)
}
