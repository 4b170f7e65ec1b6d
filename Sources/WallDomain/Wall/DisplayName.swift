/// The one rule for a user's display name (`name`), applied wherever one comes in: it is shown to
/// everyone as the author of the user's posts, in tables on their terminals.
public enum DisplayName {
    /// The longest name accepted.
    public static let maxLength = 100

    /// The name, or nil for an empty one (no name); refused when longer than `maxLength`
    /// characters or holding control characters (an escape sequence would steer readers' terminals).
    public static func validated(_ raw: String?) throws(AnywallError) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        guard raw.count <= maxLength else { throw .inputRejected("bad name: at most \(maxLength) characters") }
        guard !raw.unicodeScalars.contains(where: \.isControl) else {
            throw .inputRejected("bad name: no control characters (escape sequences, line breaks)")
        }
        return raw
    }
}
