import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// The root command: a geo message wall for the shell.
struct Anywall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anywall",
        abstract: "Leave short messages at real places, and read the ones near you.",
        discussion: """
            Posts beyond your filter radius stay hidden ("Can't view post! Get closer.") until you \
            get closer. With no set-up, the wall is a SQLite file under $XDG_DATA_HOME/anywall. Settings come \
            from flags, then the environment, then the settings file, then the defaults.

            \(ReferenceSections.text)
            """,
        version: AnywallVersion.current,
        subcommands: [
            SignupCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self, LinkCommand.self, UnlinkCommand.self,
            PostCommand.self, NearbyCommand.self, WhereCommand.self,
            ReplyCommand.self, ThreadCommand.self, VoteCommand.self, ReportCommand.self, DeleteCommand.self, ActivityCommand.self,
            ModerateCommand.self,
            SettingsCommand.self, ConfigCommand.self, OutboxCommand.self, ImportCommand.self, PasswdCommand.self,
        ]
    )

    /// Every error starts the way anywall's own do, the parser's included.
    static var _errorPrefix: String { "anywall: " }
}
