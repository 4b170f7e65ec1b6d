import AnywallServer
import ArgumentParser
import Foundation
import PostgresStore

/// `anywall-server copy --from SOURCE --to DEST`: moves a wall between a SQLite file and PostgreSQL.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a wall from one store to another: a SQLite file or a postgres:// database, either way.",
        discussion: """
            Copies the accounts with their password hashes, the open sessions, the posts with their \
            authors and times, and the config, so members keep their log-ins. A destination that \
            holds a wall is refused unless --replace. Stop the servers of the source first: posts \
            made during a copy may be left behind. A database's password comes from PGPASSWORD. \
            Exit status: 0 copied, 64 usage, 69 a store cannot be opened or written, 72 a database \
            lacks PostGIS, 77 a database refused the user, 78 the destination holds a wall.
            """
    )

    @Option(help: ArgumentHelp("The wall to copy: a SQLite file or a postgres:// URI.", valueName: "store"))
    var from: String

    @Option(help: ArgumentHelp("Where to copy it: a SQLite file (created when missing) or a postgres:// URI.", valueName: "store"))
    var to: String

    @Flag(help: "Remove what the destination holds first.")
    var replace = false

    func validate() throws {
        guard from != to else { throw ValidationError("--from and --to name the same wall") }
        do {
            _ = try WallLocation(from)
            _ = try WallLocation(to)
        } catch {
            throw ValidationError(error.reason)
        }
    }

    func run() async throws {
        do {
            let counts = try await WallCopy.copy(from: try WallLocation(from), to: try WallLocation(to), replacing: replace)
            print("copied \(counts.accounts) accounts, \(counts.sessions) sessions, \(counts.posts) posts, \(counts.configKeys) config keys")
        } catch let failure as ServerFailure {
            FileHandle.standardError.write(Data("anywall-server copy: \(failure.description)\n".utf8))
            throw ExitCode(failure.exitStatus)
        }
    }
}
