import AnywallSupport
import ArgumentParser
import Foundation
import WallDomain

/// The whole of the `anywall` executable: parses the arguments, runs the command, and maps
/// anywall's errors to one line on stderr and their exit code; argument errors, --help and
/// completions go through swift-argument-parser as usual.
package enum AnywallMain {
    package static func run(_ arguments: [String]) -> Never {
        // Past a file size limit, a write then fails with EFBIG and anywall says so, instead of
        // being killed half-way by SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        // Answered before anything else but that: the command tree's parsing costs the Swift runtime's
        // conformance lookups (a scan of the binary's 7,000 conformance records each), about three
        // times the work of printing a version, and the locale below is loaded from files
        // (docs/performance.md).
        if arguments == ["--version"] {
            Terminal.output("\(AnywallVersion.current)\n")
            exit(ExitStatus.success.rawValue)
        }
        // anywall prints UTF-8 whatever the user's locale, and DisplayWidth measures it with wcwidth,
        // which knows the widths of non-ASCII characters only under a UTF-8 LC_CTYPE.
        setlocale(LC_CTYPE, "C.UTF-8")
        // A parent may hand its blocked signals down (test runners and some shells' job control
        // do): Ctrl-C and a service manager's SIGTERM must reach anywall whatever it inherited.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for number in [SIGINT, SIGTERM, SIGQUIT, SIGHUP] { sigaddset(&stopSignals, number) }
        sigprocmask(SIG_UNBLOCK, &stopSignals, nil)
        let arguments = GPSDDefaultArgument.filled(arguments)
        var command: ParsableCommand
        do {
            try ArgumentMistakes.checkCommandNames(arguments)
            command = try Anywall.parseAsRoot(arguments)
        } catch let error as ArgumentMistakes.UnknownCommand {
            Terminal.note("anywall: \(error)")
            exit(ExitStatus.usage.rawValue)
        } catch {
            guard ArgumentMistakes.splitCoordinates(arguments) == nil, let parsed = ArgumentMistakes.valuesAsValues(arguments)
            else { refuse(error, arguments: arguments) }
            command = parsed
        }
        do {
            try command.run()
            Anywall.exit()
        } catch let error as AnywallError {
            Terminal.note("anywall: \(error.wording)")
            Anywall.exit(withError: ExitStatus(error).exitCode)
        } catch let error as ValidationError {
            // Found while running (no username off a terminal, say): a usage error, in one line.
            // swift-argument-parser would print the root command's usage under it, not this command's.
            Terminal.note("anywall: \(error.message)")
            Anywall.exit(withError: ExitStatus.usage.exitCode)
        } catch {
            Anywall.exit(withError: error)
        }
    }

    /// Ends with the parser's refusal of the arguments, in anywall's one style: `anywall: ...`, then
    /// the command's usage; a mistake whose cause is known gets one line saying what to type.
    private static func refuse(_ error: Error, arguments: [String]) -> Never {
        let status = Anywall.exitCode(for: error)
        // Help, completion scripts and the version are not failures: the parser prints them.
        guard status != .success else { Anywall.exit(withError: error) }
        if let known = ArgumentMistakes.explanation(of: error, arguments: arguments) {
            Terminal.note("anywall: \(known.message)")
            exit(known.status.rawValue)
        }
        var text = Anywall.fullMessage(for: error)
        if text.hasPrefix(Anywall._errorPrefix) {
            text = Anywall._errorPrefix + ArgumentMistakes.lowercasedStart(String(text.dropFirst(Anywall._errorPrefix.count)))
        }
        StandardStream.writeError(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        exit(status.rawValue)
    }
}
