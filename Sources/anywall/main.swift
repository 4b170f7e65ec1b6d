import AnywallCore
import ArgumentParser
import Foundation

// anywall prints UTF-8 whatever the user's locale, and DisplayWidth measures it with wcwidth,
// which knows the widths of non-ASCII characters only under a UTF-8 LC_CTYPE.
setlocale(LC_CTYPE, "C.UTF-8")

// The entry point maps anywall's errors to one line on stderr and their exit code; argument
// errors, --help and completions go through swift-argument-parser as usual.
do {
    var command = try Anywall.parseAsRoot(GPSDDefaultArgument.filled(Array(CommandLine.arguments.dropFirst())))
    try command.run()
} catch let error as AnywallError {
    Terminal.note("anywall: \(error.message)")
    Anywall.exit(withError: ExitStatus(error).exitCode)
} catch {
    Anywall.exit(withError: error)
}
