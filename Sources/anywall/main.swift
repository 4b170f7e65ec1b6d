import AnywallCore
import ArgumentParser

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
