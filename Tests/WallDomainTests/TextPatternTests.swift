import Testing
import WallDomain

/// `$regex` patterns: the bound on their cost, and the options Parse takes.
@Suite("Text patterns")
struct TextPatternTests {
    @Test("a group that repeats and holds a repetition is refused; groups, classes and escapes that do not are taken",
          arguments: ["(a+)+$", "(a*)*b", "((ab)+c)*", "(x|y+){2,}", "(?:a+)+"])
    func nested(pattern: String) {
        #expect(throws: AnywallError.self, "\(pattern)") { try TextPattern(pattern) }
    }

    @Test("patterns of an ordinary shape are taken", arguments: ["^free", "(h|s)a", "c[ao]+", "(ab)+", "[(+)]+", "\\(a+\\)+", "(?i)x+", "a{2,3}"])
    func ordinary(pattern: String) throws {
        #expect(try TextPattern(pattern).pattern == pattern)
    }

    @Test("options: i, m, s and x, nothing else; the length is bounded")
    func options() throws {
        let pattern = try TextPattern("x", options: "imsx")
        #expect(pattern.ignoresCase && pattern.multiline && pattern.dotMatchesNewlines && pattern.extended)
        #expect(throws: AnywallError.self) { try TextPattern("x", options: "g") }
        #expect(throws: AnywallError.self) { try TextPattern(String(repeating: "a", count: TextPattern.maxLength + 1)) }
    }
}
