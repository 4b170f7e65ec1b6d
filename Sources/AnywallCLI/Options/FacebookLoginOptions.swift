import ArgumentParser

/// How `login --facebook` and `link --facebook` get a Facebook access token: one the user already
/// has, from a file or stdin (never a flag value), else Facebook's device login, whose code
/// `--json` also prints on stdout.
struct FacebookLoginOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read a Facebook access token from the first line of a file (else: a device login).", valueName: "PATH"),
            completion: .file())
    var tokenFile: String?

    @Flag(help: "Read a Facebook access token from the first line of standard input.")
    var tokenStdin = false

    @Flag(help: "Also print the device login's code as one JSON object on stdout.")
    var json = false

    /// Whether any of these options was given.
    var given: Bool { tokenFile != nil || tokenStdin || json }

    /// The token, nil when none was given.
    func readToken() throws -> String? {
        try SecretInput.read("Facebook access token", stdin: tokenStdin, file: tokenFile, flag: "token")
    }
}
