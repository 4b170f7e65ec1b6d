import Foundation

/// The rules a post's text must follow before it is sent.
public enum PostText {
    /// The text trimmed of surrounding white space, refused when empty or longer than
    /// `maxCharacters` user-perceived characters (an emoji or an accented letter is one).
    public static func validated(_ raw: String, maxCharacters: Int) throws -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw AnywallError.inputRejected("the post is empty: write some text")
        }
        guard text.count <= maxCharacters else {
            throw AnywallError.inputRejected(
                "the post is \(text.count) characters long; the limit is \(maxCharacters)")
        }
        return text
    }
}
