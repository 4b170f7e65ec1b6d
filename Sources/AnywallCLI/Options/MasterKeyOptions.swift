import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Where a Parse Server's master key comes from, for the commands that change its config.
struct MasterKeyOptions: ParsableArguments {
    @Flag(help: "Read the Parse master key from the first line of standard input.")
    var masterKeyStdin = false

    @Option(help: ArgumentHelp("Read the Parse master key from the first line of a file.", valueName: "PATH"),
            completion: .file())
    var masterKeyFile: String?

    /// The master key, nil when none was given (the embedded wall needs none).
    func read() throws -> String? {
        try SecretInput.read("master key", stdin: masterKeyStdin, file: masterKeyFile, flag: "master-key")
    }
}
