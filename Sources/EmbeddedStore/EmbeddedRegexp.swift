import _FoundationICU
import Foundation
import GRDB
import WallDomain

/// `anywall_regexp(text, pattern, options)`: ICU's regular expressions as SQLite's `$regex`,
/// registered on each connection. Patterns are compiled once per connection and kept (a scan
/// calls it per row).
///
/// ICU rather than Swift's Regex for one reason: a time limit. A backtracking engine can take
/// exponential time on some patterns (`^(a|a)*b` against 30 a's: minutes), and `TextPattern`'s
/// check of a pattern's shape cannot rule them all out; ICU stops a match past `matchStepLimit`
/// and the query is refused instead of holding a connection (ICU is the engine Foundation's
/// NSRegularExpression uses, and is linked anyway).
enum EmbeddedRegexp {
    /// The options a pattern carries to the function: `i`, `m`, `s`, `x`.
    static func options(_ pattern: TextPattern) -> String {
        (pattern.ignoresCase ? "i" : "") + (pattern.multiline ? "m" : "") + (pattern.dotMatchesNewlines ? "s" : "") + (pattern.extended ? "x" : "")
    }

    /// ICU's limit on one match, in its units of 10,000 steps of the match engine (their time
    /// here: docs/performance.md); a match of a usual pattern against a post takes well under one.
    static let matchStepLimit: Int32 = 100

    /// The error a match past the limit raises, and the words `EmbeddedWall` answers it with.
    static let tooCostly = "$regex is too costly: matching one post took more than the limit; simplify the pattern"

    /// The function, with a cache of its own; on a connection with a `deadline`, it matches
    /// nothing more once the deadline has passed.
    static func function(deadline: QueryDeadline?) -> DatabaseFunction {
        let cache = Cache()
        return DatabaseFunction("anywall_regexp", argumentCount: 3, pure: true) { values in
            if deadline?.hasPassed == true { throw DeadlinePassed() }
            guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]),
                  let options = String.fromDatabaseValue(values[2]) else { return nil }
            return try cache.matches(text, pattern, options)
        }
    }

    /// The query's deadline, seen between two matches.
    private struct DeadlinePassed: Error, CustomStringConvertible {
        var description: String { QueryDeadline.passedMessage }
    }

    /// A match past `matchStepLimit`.
    struct TooCostly: Error, CustomStringConvertible {
        var description: String { EmbeddedRegexp.tooCostly }
    }

    /// Compiled patterns by text and options. A pattern ICU cannot compile matches nothing.
    fileprivate final class Cache: @unchecked Sendable {
        // Unchecked: an ICU regular expression may be used by one thread at a time; each is used
        // only under the lock (and a connection runs one statement at a time anyway).
        private let lock = NSLock()
        private var compiled: [String: CompiledPattern?] = [:]

        func matches(_ text: String, _ pattern: String, _ options: String) throws -> Bool {
            try lock.withLock {
                let key = options + "/" + pattern
                if compiled[key] == nil {
                    if compiled.count > 64 { compiled.removeAll() }
                    compiled[key] = CompiledPattern(pattern, options: options)
                }
                guard let regex = compiled[key] ?? nil else { return false }
                return try regex.matches(text)
            }
        }
    }

    /// One pattern compiled by ICU, with its time limit.
    private final class CompiledPattern {
        private let regex: OpaquePointer

        init?(_ pattern: String, options: String) {
            var flags: UInt32 = 0
            if options.contains("i") { flags |= UREGEX_CASE_INSENSITIVE.rawValue }
            if options.contains("m") { flags |= UREGEX_MULTILINE.rawValue }
            if options.contains("s") { flags |= UREGEX_DOTALL.rawValue }
            if options.contains("x") { flags |= UREGEX_COMMENTS.rawValue }
            // ICU refuses a length of 0: the empty pattern (which matches every text, as in MongoDB)
            // is given as NUL-terminated instead (-1), any other with its length (it may hold a NUL).
            let units = Array(pattern.utf16) + [0]
            var status = U_ZERO_ERROR
            guard let regex = swift_uregex_open(units, pattern.isEmpty ? -1 : Int32(units.count - 1), flags, nil, &status),
                  status.rawValue <= U_ZERO_ERROR.rawValue else {
                return nil
            }
            swift_uregex_setTimeLimit(regex, EmbeddedRegexp.matchStepLimit, &status)
            self.regex = regex
        }

        deinit { swift_uregex_close(regex) }

        func matches(_ text: String) throws -> Bool {
            // A NUL after the text, so that even an empty one has an address to give ICU.
            let units = Array(text.utf16) + [0]
            return try units.withUnsafeBufferPointer { buffer in
                var status = U_ZERO_ERROR
                // ICU keeps the pointer, but reads the text only within the calls below; the
                // next match sets its own before it reads again.
                swift_uregex_setText(regex, buffer.baseAddress, Int32(buffer.count - 1), &status)
                let found = swift_uregex_find(regex, 0, &status)
                if status == U_REGEX_TIME_OUT { throw TooCostly() }
                return status.rawValue <= U_ZERO_ERROR.rawValue && found != 0
            }
        }
    }
}

/// `$regex` tested in memory as the embedded store tests it in SQL: ICU, the same options and the
/// same step limit, a match past the limit counting as none. LiveQuery's matcher uses it, so a
/// pattern that would take exponential time costs one subscriber a missed event, not every
/// subscriber the server's attention.
public struct BoundedTextPatterns: TextPatternMatcher {
    private let cache = EmbeddedRegexp.Cache()

    public init() {}

    public func matches(_ text: String, _ pattern: TextPattern) -> Bool {
        (try? cache.matches(text, pattern.pattern, EmbeddedRegexp.options(pattern))) ?? false
    }
}
