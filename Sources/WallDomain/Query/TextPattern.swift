/// A regular expression a text field must match (`$regex` with `$options`), bounded in cost:
/// at most `maxLength` characters, and no quantifier on a group that holds one (`(a+)+`), the
/// shape whose backtracking grows exponentially with the text.
public struct TextPattern: Equatable, Sendable {
    public static let maxLength = 256

    public let pattern: String
    public let ignoresCase: Bool
    /// `m`: `^` and `$` match at each line's start and end.
    public let multiline: Bool
    /// `s`: `.` matches a line break too.
    public let dotMatchesNewlines: Bool
    /// `x`: white space and `#` comments in the pattern are ignored.
    public let extended: Bool

    /// The pattern with Parse's (MongoDB's) options `i`, `m`, `s`, `x`; `AnywallError.inputRejected`
    /// for another option or a pattern over the bound.
    public init(_ pattern: String, options: String = "") throws(AnywallError) {
        guard pattern.count <= Self.maxLength else {
            throw .inputRejected("$regex is limited to \(Self.maxLength) characters")
        }
        if let other = options.first(where: { !"imsx".contains($0) }) {
            throw .inputRejected("$options takes i, m, s and x, not \(other)")
        }
        guard !Self.nestsQuantifiers(pattern) else {
            throw .inputRejected("$regex may not repeat a group that itself repeats, such as (a+)+: its cost grows exponentially")
        }
        do {
            _ = try Regex(options.contains("x") ? "(?x)" + pattern : pattern)
        } catch {
            throw .inputRejected("$regex is not a regular expression: \(pattern)")
        }
        self.pattern = pattern
        ignoresCase = options.contains("i")
        multiline = options.contains("m")
        dotMatchesNewlines = options.contains("s")
        extended = options.contains("x")
    }

    /// Whether a quantified group holds a quantifier. Escapes and classes are skipped; a group
    /// is quantified when `*`, `+`, `?` or `{` follows its `)`.
    private static func nestsQuantifiers(_ pattern: String) -> Bool {
        var groups: [Bool] = []  // per open group: whether it holds a quantifier so far
        var characters = pattern.makeIterator()
        var previous: Character?
        var closedGroupHeldQuantifier = false
        var inClass = false
        while let character = characters.next() {
            defer { previous = character }
            if inClass {
                if character == "\\" { _ = characters.next() } else if character == "]" { inClass = false }
                continue
            }
            // `(?` opens a group of another kind; it repeats nothing.
            let isQuantifier = "*+?{".contains(character) && previous != "("
            if isQuantifier {
                if previous == ")", closedGroupHeldQuantifier { return true }
                if !groups.isEmpty { groups[groups.count - 1] = true }
            }
            switch character {
            case "\\": _ = characters.next()
            case "[": inClass = true
            case "(": groups.append(false)
            case ")":
                guard let held = groups.popLast() else { continue }
                closedGroupHeldQuantifier = held
                if held, !groups.isEmpty { groups[groups.count - 1] = true }
            default: break
            }
        }
        return false
    }
}
