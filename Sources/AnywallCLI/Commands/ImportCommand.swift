import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Load posts from a Parse export of Posts, or NDJSON, into the wall.",
        discussion: """
            Keeps each post's objectId, createdAt, text, location and author. Authors the wall does not \
            know become users who cannot log in until given a password ('anywall passwd'). Posts already \
            in the wall are left as they are. Bad records are reported on stderr by line and skipped; \
            the exit code is then 65, after the good records were imported. On a terminal, a progress \
            bar shows how far it is.

            \(UsageExamples.import)
            """)

    @Argument(help: ArgumentHelp("The file to read, or '-' for standard input.", valueName: "FILE"), completion: .file())
    var file: String
    @Option(help: ArgumentHelp("""
        Posts per transaction when adding to a larger wall. An input at least as large as \
        the wall is loaded in one transaction, its location index built at the end.
        """, valueName: "N"))
    var batchSize = 10_000
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        guard batchSize >= 1 else { throw AnywallError.inputRejected("bad --batch-size \(batchSize): it must be at least 1") }
        let reader = PostImportReader(lines: try LineReader(path: file))
        let wall = try context.openEmbeddedOnly(for: "import")
        let bar = ImportProgressBar()
        defer { bar.clear() }
        var rejected = 0
        let total = try PostImport(reader: reader, wall: wall, batchSize: batchSize).run { progress in
            if !progress.rejected.isEmpty { bar.clear() }
            for record in progress.rejected { Terminal.note("anywall: \(file): \(record.position): \(record.reason); skipped") }
            rejected += progress.rejected.count
            bar.show(progress)
        }
        bar.clear()
        Terminal.output("imported \(Self.count(total.imported, "post")), \(total.alreadyPresent) already present, "
                        + "\(Self.count(total.usersCreated, "new user")), \(rejected) skipped\n")
        if rejected > 0 {
            throw AnywallError.inputRejected("\(Self.count(rejected, "bad record")) skipped (see above)")
        }
    }

    /// `1 post`, `2 posts`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
