import ArgumentParser

/// A Facebook access token the user already has: from a file or stdin, never a flag value.
/// Without one, `login --facebook` and `link --facebook` run Facebook's device login.
struct FacebookTokenOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read a Facebook access token from the first line of a file (else: a device login).", valueName: "PATH"),
            completion: .file())
    var tokenFile: String?

    @Flag(help: "Read a Facebook access token from the first line of standard input.")
    var tokenStdin = false

    /// Whether a token option was given.
    var given: Bool { tokenFile != nil || tokenStdin }

    /// The token, nil when none was given.
    func read() throws -> String? {
        try SecretInput.read("Facebook access token", stdin: tokenStdin, file: tokenFile, flag: "token")
    }
}
