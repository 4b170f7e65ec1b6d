import Foundation
import GRDB
import WallDomain

/// `anywall_regexp(text, pattern, options)`: Swift's Regex as SQLite's `$regex`, registered on
/// each connection. Patterns are compiled once per connection and kept (a scan calls it per
/// row); `TextPattern` has bounded their cost before they reach here.
enum EmbeddedRegexp {
    /// The options a pattern carries to the function: `i`, `m`, `s`, `x`.
    static func options(_ pattern: TextPattern) -> String {
        (pattern.ignoresCase ? "i" : "") + (pattern.multiline ? "m" : "") + (pattern.dotMatchesNewlines ? "s" : "") + (pattern.extended ? "x" : "")
    }

    /// The function, with a cache of its own.
    static func function() -> DatabaseFunction {
        let cache = Cache()
        return DatabaseFunction("anywall_regexp", argumentCount: 3, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]),
                  let options = String.fromDatabaseValue(values[2]) else { return nil }
            guard let regex = cache.regex(pattern, options) else { return false }
            return (try? regex.firstMatch(in: text)) != nil
        }
    }

    /// Compiled patterns by text and options. A pattern Swift cannot compile matches nothing.
    private final class Cache: @unchecked Sendable {
        // Unchecked: Regex is not Sendable, but each is only used under the lock, by one connection at a time.
        private let lock = NSLock()
        private var compiled: [String: Regex<AnyRegexOutput>?] = [:]

        func regex(_ pattern: String, _ options: String) -> Regex<AnyRegexOutput>? {
            let key = options + "/" + pattern
            if let known = lock.withLock({ compiled[key] }) { return known }
            var regex = try? Regex(options.contains("x") ? "(?x)" + pattern : pattern)
            if options.contains("i") { regex = regex?.ignoresCase() }
            if options.contains("m") { regex = regex?.anchorsMatchLineEndings() }
            if options.contains("s") { regex = regex?.dotMatchesNewlines() }
            lock.withLock {
                if compiled.count > 64 { compiled.removeAll() }
                compiled[key] = regex
            }
            return regex
        }
    }
}
