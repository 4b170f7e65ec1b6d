import Foundation
import LocalState

/// The parts of the reference that belong to the whole program: exit codes, files and
/// environment. `anywall --help` ends with them, and the man page turns each into its section
/// (scripts/install), so the two say the same, from the code that decides it.
enum ReferenceSections {
    /// The headings, as `scripts/install` finds them in the generated page.
    static let headings = ["EXIT STATUS", "FILES", "ENVIRONMENT"]

    static var text: String {
        [exitStatus, files, environment].joined(separator: "\n\n")
    }

    private static func section(_ heading: String, _ items: [(String, String)]) -> String {
        ([heading + ":"] + items.map { "  \($0.0)  \($0.1)" }).joined(separator: "\n")
    }

    static var exitStatus: String {
        section("EXIT STATUS", ExitStatus.allCases.sorted { $0.rawValue < $1.rawValue }.map { ("\($0.rawValue)", $0.meaning) }
                + [("130, 143", "--watch ended by SIGINT or SIGTERM, after cleaning up")])
    }

    static var files: String {
        // The paths the program uses, with each base directory shown as its variable.
        let bases = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"]
        let paths = XDGPaths(environment: Dictionary(uniqueKeysWithValues: bases.map { ($0, "/$" + $0) }))
        func shown(_ url: URL, directory: Bool = false) -> String { String(url.path.dropFirst()) + (directory ? "/" : "") }
        return section("FILES", [
            (shown(paths.settingsFile), "local preferences (settings)"),
            (shown(paths.sessionFile), "the logged-in session, mode 0600"),
            (shown(paths.outboxDirectory, directory: true), "posts waiting for a server, and those it refused"),
            (shown(paths.savedResultsDirectory, directory: true), "the previous result of each nearby --changes query"),
            (shown(paths.resultCacheDirectory, directory: true), "servers' last nearby answers, for the cache policies"),
            (shown(paths.configCacheDirectory, directory: true), "each wall's config, refreshed hourly"),
            (shown(paths.defaultStore), "the embedded wall"),
        ])
    }

    static var environment: String {
        let settings = Preferences.environmentNames.sorted { $0.value < $1.value }.map { ($0.value, "the '\($0.key.rawValue)' setting") }
        return section("ENVIRONMENT", settings + [
            (Preferences.storeVariable, "the embedded wall's file (as --store)"),
            ("XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, XDG_DATA_HOME", "where the files above go (default under HOME)"),
            ("NO_COLOR", "no colour on a terminal either"),
            ("COLUMNS", "the width to wrap the table to when it is not on a terminal"),
        ])
    }
}
