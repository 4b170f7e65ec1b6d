import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// Which embedded wall to use.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The embedded wall's SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).",
        valueName: "PATH"), completion: .file())
    var store: String?
}
