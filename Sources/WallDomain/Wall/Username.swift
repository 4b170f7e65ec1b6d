import Foundation

/// The one rule for usernames, applied wherever one comes in (sign-up, log-in, `passwd`, import).
public enum Username {
    /// The longest username accepted.
    public static let maxLength = 64

    /// The username trimmed of surrounding white space; refused when empty, longer than
    /// `maxLength` characters, or holding control characters.
    public static func validated(_ raw: String) throws -> String {
        let username = raw.trimmedOfWhitespace
        guard !username.isEmpty else { throw AnywallError.inputRejected("the username is empty") }
        // Printable ASCII (most usernames, every Parse objectId) holds no control character and
        // is a character a byte: known without Unicode's tables, which took 7 % of an import's CPU.
        let isPrintableASCII = username.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        guard isPrintableASCII ? username.utf8.count <= maxLength
                : username.count <= maxLength && !username.unicodeScalars.contains(where: \.isControl) else {
            throw AnywallError.inputRejected("bad username: at most \(maxLength) characters, no control characters")
        }
        return username
    }

    /// The username as every store compares it for uniqueness and log-in: trimmed, ASCII letters
    /// in lower case (SQLite's NOCASE, PostgreSQL's index on the folded name). Whatever counts a
    /// username's attempts keys them by this, so `VICTIM` and ` victim` are the same account's.
    public static func folded(_ raw: String) -> String {
        let trimmed = raw.trimmedOfWhitespace
        return String(String.UnicodeScalarView(trimmed.unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
    }
}
