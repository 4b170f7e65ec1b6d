/// The few words a reporter may add to a report: read by moderators only, and short.
public enum ReportNote {
    /// The longest note, in user-perceived characters.
    public static let maxCharacters = 500

    /// `text` trimmed of surrounding white space, refused when longer than `maxCharacters` or
    /// holding control characters other than newline and tab; nil when empty.
    public static func validated(_ text: String?) throws(AnywallError) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmedOfWhitespace
        guard !trimmed.isEmpty else { return nil }
        // Bytes first (no character takes 64): a note of megabytes is refused without counting its characters.
        guard trimmed.utf8.count <= 64 * maxCharacters, trimmed.count <= maxCharacters else {
            throw .inputRejected("the report's note is too long: at most \(maxCharacters) characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.isControl && $0 != "\n" && $0 != "\t" }) else {
            throw .inputRejected("the report's note holds control characters; only text, newlines and tabs are allowed")
        }
        return trimmed
    }
}
