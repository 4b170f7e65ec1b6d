/// How a `$regex` is tested on a text in memory (LiveQuery's matcher): with a bound on its cost,
/// since a backtracking engine can take exponential time on a pattern `TextPattern`'s shape check
/// lets through (`^(a|a)*b` against 30 a's), and one such match must not hold up every other
/// subscriber. The store that keeps the regex engine provides it (`EmbeddedStore`'s ICU one).
public protocol TextPatternMatcher: Sendable {
    /// Whether `pattern` matches within `text`; false for a match that passed the bound.
    func matches(_ text: String, _ pattern: TextPattern) -> Bool
}
