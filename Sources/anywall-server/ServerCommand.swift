import AnywallServer
import ArgumentParser
import WallDomain

/// `anywall-server`: serves a wall (`serve`, the default) or copies one between stores (`copy`).
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anywall-server",
        abstract: "Serve an anywall wall over the Parse REST API, for a group to share; copy a wall between stores.",
        version: AnywallVersion.current,
        subcommands: [ServeCommand.self, CopyCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
