import Foundation

/// The rules a post's text must follow before it is sent.
public enum PostText {
    /// The text trimmed of surrounding white space, refused when empty, longer than
    /// `maxCharacters` user-perceived characters (an emoji or an accented letter is one), or holding
    /// control characters other than newline and tab (they would steer readers' terminals).
    public static func validated(_ raw: String, maxCharacters: Int) throws -> String {
        let text = raw.trimmedOfWhitespace
        guard !text.isEmpty else {
            throw AnywallError.inputRejected("the post is empty: write some text")
        }
        guard !text.unicodeScalars.contains(where: { $0.isControl && $0 != "\n" && $0 != "\t" }) else {
            throw AnywallError.inputRejected("the post holds control characters; only text, newlines and tabs are allowed")
        }
        guard text.count <= maxCharacters else {
            throw AnywallError.inputRejected(
                "the post is \(text.count) characters long; the limit is \(maxCharacters)")
        }
        return text
    }
}
