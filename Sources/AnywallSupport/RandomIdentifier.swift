import Foundation
import WallDomain

/// Identifiers in Parse's forms: 10-character object ids, 25-character usernames and `r:` session tokens.
public enum RandomIdentifier {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A new random object id such as `xWMyZ4YEGZ`.
    public static func objectId() -> String {
        letters(10)
    }

    /// A username for an account that gave none (an anonymous one): 25 random letters and
    /// digits, as Parse Server draws one.
    public static func username() -> String {
        letters(25)
    }

    private static func letters(_ count: Int) -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int(rng.next(upperBound: UInt(alphabet.count)))] })
    }

    /// A new session token: `r:` and 32 random bytes in hex.
    public static func sessionToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return "r:" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
    }

    /// What the wall stores instead of a session token, so a copy of the file opens no session.
    public static func tokenDigest(_ token: String) -> String {
        HexDigest.sha256(token)
    }
}
