import ArgumentParser
import Foundation
import WallDomain

/// Mistakes on the command line that swift-argument-parser reports in its own terms ("Unknown
/// option '-5 degrees'", or the usage of `config show` for `config frobnicate`): found here in
/// the user's terms, with what to type instead.
enum ArgumentMistakes {
    /// A command name that is not one: usage error, one line.
    struct UnknownCommand: Error, CustomStringConvertible {
        let description: String
    }

    /// Refuses a misspelled command (`anywall nearbi`, `anywall config frobnicate`, `anywall help
    /// nearbi`) before the parser reads it as an argument of the command above it.
    static func checkCommandNames(_ arguments: [String]) throws {
        var command: ParsableCommand.Type = Anywall.self
        var path: [String] = []
        for name in arguments.drop(while: { $0 == "help" }) {
            let subcommands = command.configuration.subcommands
            if name.hasPrefix("-") || subcommands.isEmpty { return }
            let names = subcommands.map { $0._commandName }
            guard let index = subcommands.firstIndex(where: { Self.isNamed($0, name) }) else {
                let suggestion = closest(to: name, among: names).map { "did you mean '\($0)'? " } ?? ""
                let parent = (["anywall"] + path).joined(separator: " ")
                throw UnknownCommand(description: "unknown command '\((path + [name]).joined(separator: " "))': "
                                     + "\(suggestion)the commands of '\(parent)' are \(names.joined(separator: ", "))")
            }
            command = subcommands[index]
            path.append(name)
        }
    }

    private static func isNamed(_ command: ParsableCommand.Type, _ name: String) -> Bool {
        command._commandName == name || command.configuration.aliases.contains(name)
    }

    /// The commands whose arguments are values anyone may write starting with `-`: a post's text,
    /// a setting's or a config parameter's value.
    private static let valueCommands = [["post"], ["settings", "set"], ["config", "set"]]

    /// The command parsed with a value moved after `--`, when the parser took it for an option
    /// because it starts with `-` (`anywall post "-5 degrees and icy" --at 1,1`, `config set
    /// postMaxCharacterCount -1`); nil when no such move makes the arguments parse.
    static func valuesAsValues(_ arguments: [String]) -> ParsableCommand? {
        guard valueCommands.contains(where: { arguments.starts(with: $0) }), !arguments.contains("--") else { return nil }
        for index in arguments.indices.dropFirst() {
            let argument = arguments[index]
            guard argument.count > 1, argument.hasPrefix("-"), !looksLikeOption(argument) else { continue }
            var moved = arguments
            moved.remove(at: index)
            if let command = try? Anywall.parseAsRoot(moved + ["--", argument]) { return command }
        }
        return nil
    }

    /// `--at 37.7793 -122.4193` (the parser reads the longitude as an unknown option, or as a
    /// post's text): what to type instead.
    static func splitCoordinates(_ arguments: [String]) -> String? {
        guard let at = arguments.firstIndex(of: "--at"), at + 2 < arguments.count, !arguments[at + 1].contains(","),
              Double(arguments[at + 1]) != nil, Double(arguments[at + 2]) != nil else { return nil }
        return "--at takes one value, LAT,LON, with a comma and no space: --at \(arguments[at + 1]),\(arguments[at + 2])"
    }

    /// A one-line explanation, in place of the parser's, of a failure whose usual cause is known.
    static func explanation(of failure: Error, arguments: [String]) -> (message: String, status: ExitStatus)? {
        if let split = splitCoordinates(arguments) { return (split, .inputRejected) }
        let message = Anywall.message(for: failure)
        if arguments.first == "post", message.hasPrefix("Unexpected argument") {
            return ("\(lowercasedStart(message)): a post's text is one argument: quote it (anywall post \"your text\" ...), "
                    + "or give '-' and pipe it in", .usage)
        }
        // `-icy` could be an option: the parser cannot tell, and `--` can. (Its "did you mean" would
        // offer a long option for text: every option of post but -h is long.)
        if arguments.first == "post", message.hasPrefix("Unknown option '-"), !message.hasPrefix("Unknown option '--") {
            let unknown = message.components(separatedBy: ". Did you mean")[0]
            return ("\(lowercasedStart(unknown)): a post's text that starts with '-' goes after '--' "
                    + "(anywall post --at LAT,LON -- \"-text\")", .usage)
        }
        return nil
    }

    /// The parser's message in anywall's style: `anywall: unknown option '--bogus'`.
    static func lowercasedStart(_ message: String) -> String {
        guard let first = message.first, let second = message.dropFirst().first, !second.isUppercase else { return message }
        return first.lowercased() + message.dropFirst()
    }

    /// `-x`, `--name` or `--name=value`: what an option looks like (a letter after the dashes, no spaces).
    private static func looksLikeOption(_ argument: String) -> Bool {
        let name = (argument.hasPrefix("--") ? argument.dropFirst(2) : argument.dropFirst()).prefix { $0 != "=" }
        guard let first = name.first, first.isLetter else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }

    /// The name closest to `typed`, for "did you mean": at most a third of its letters off (two in a
    /// short word), or one that starts with it.
    static func closest(to typed: String, among names: [String]) -> String? {
        let typed = typed.lowercased()
        let scored = names.map { (name: $0, distance: editDistance(typed, $0.lowercased())) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(2, typed.count / 3) { return best.name }
        return typed.isEmpty ? nil : names.first { $0.lowercased().hasPrefix(typed) }
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
