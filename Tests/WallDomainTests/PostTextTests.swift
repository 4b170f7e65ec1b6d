import TestSupport
import Testing
import WallDomain

@Suite("Post text rules")
struct PostTextTests {
    @Test("trims white space and keeps the rest")
    func trims() throws {
        #expect(try PostText.validated("  Road closed\n", maxCharacters: 140) == "Road closed")
    }

    @Test("refuses empty text", arguments: ["", "   ", "\n\t"])
    func empty(_ text: String) {
        #expect(throws: AnywallError.inputRejected("the post is empty: write some text")) {
            try PostText.validated(text, maxCharacters: 140)
        }
    }

    @Test("counts user-perceived characters: an emoji or an accented letter is one",
          arguments: ["a", "👍🏽", "é", "e\u{301}", "👩‍👩‍👧"])
    func counts(_ unit: String) throws {
        #expect(try PostText.validated(String(repeating: unit, count: 140), maxCharacters: 140).count == 140)
        #expect(throws: AnywallError.inputRejected("the post is 141 characters long; the limit is 140")) {
            try PostText.validated(String(repeating: unit, count: 141), maxCharacters: 140)
        }
    }

    @Test("refuses control characters that would steer a terminal, keeps newlines and tabs",
          arguments: ["\u{1B}]0;pwned\u{07}", "a\u{1B}[31mred", "bell\u{07}", "c1\u{9B}"])
    func control(_ text: String) {
        #expect(throws: AnywallError.self) { try PostText.validated(text, maxCharacters: 140) }
    }

    @Test("keeps newlines and tabs inside the text")
    func multiline() throws {
        #expect(try PostText.validated("line one\n\tline two", maxCharacters: 140) == "line one\n\tline two")
    }
}
