import ArgumentParser
import Foundation
import LocalState
import WallDomain

/// `anywall outbox`: the posts waiting for a server, and those it refused; send refused ones
/// again once their cause is fixed, or drop one.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "Show the posts waiting for a server, and those it refused.",
        discussion: """
            A post that cannot reach the server waits here and is sent, in order, by the next command \
            that reaches it. A post the server refused for itself (too long, invalid) is set aside \
            with the reason; a refusal of the set-up (keys, session, the Posts class, too many \
            requests) keeps every post waiting. Posts are named by the first characters of their \
            request id, as 'show' prints them.

            \(UsageExamples.outbox)
            """,
        subcommands: [Show.self, Retry.self, Drop.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "List the waiting and the set-aside posts.", discussion: UsageExamples.outboxShow)
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store)
            let (waiting, setAside) = try context.outbox.locked { ($0.waiting, $0.setAside) }
            if json.json {
                Terminal.output(JSONText.encode(Listing(waiting: waiting.map { Item($0) }, setAside: setAside.map { Item($0) })) + "\n")
                return
            }
            guard !waiting.isEmpty || !setAside.isEmpty else {
                Terminal.note("The outbox is empty.")
                return
            }
            let lines = waiting.map { "waiting    \(Item($0).line)" }
                + setAside.map { "set aside  \(Item($0).line)\n           refused: \(TablePrinter.oneLine($0.reason))" }
            Terminal.output(lines.joined(separator: "\n") + "\n")
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry", abstract: "Send set-aside posts again (all, or those named), after fixing what was refused.",
            discussion: UsageExamples.outboxRetry)
        @Argument(help: ArgumentHelp("Posts to send again (default: every set-aside post).", valueName: "id"))
        var ids: [String] = []
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store)
            let moved = try context.outbox.locked { contents in
                let chosen = try ids.isEmpty ? contents.setAside : ids.map { id in try OutboxCommand.find(id, in: contents.setAside.map(\.entry)) }
                    .compactMap { entry in contents.setAside.first { $0.entry.requestId == entry.requestId } }
                try contents.retry(chosen)
                return chosen.count
            }
            Terminal.note("\(moved) post\(moved == 1 ? "" : "s") back in the outbox.")
            // Sent now when a server is in use (those for another wall wait for it).
            if try context.server() != nil { _ = try context.openBackendSendingOutbox() }
        }
    }

    struct Drop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "drop", abstract: "Forget one post, waiting or set aside.", discussion: UsageExamples.outboxDrop)
        @Argument(help: ArgumentHelp("The post, as 'outbox show' names it.", valueName: "id"))
        var id: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let context = try CommandContext(store: store)
            let dropped = try context.outbox.locked { contents in
                let entry = try OutboxCommand.find(id, in: contents.waiting + contents.setAside.map(\.entry))
                try contents.drop(requestId: entry.requestId)
                return entry
            }
            Terminal.note("Dropped the post \"\(TablePrinter.oneLine(dropped.text))\".")
        }
    }

    /// The one post whose request id starts with `id`.
    static func find(_ id: String, in entries: [OutboxEntry]) throws -> OutboxEntry {
        let matches = entries.filter { $0.requestId.hasPrefix(id.lowercased()) }
        guard id.count >= 4, matches.count == 1, let entry = matches.first else {
            throw AnywallError.inputRejected(matches.count > 1
                ? "'\(id)' names \(matches.count) posts in the outbox: give more of its id"
                : "no post in the outbox has the id '\(id)' (at least 4 characters; see 'anywall outbox show')")
        }
        return entry
    }

    /// `outbox show --json`.
    struct Listing: Encodable {
        let waiting: [Item]
        let setAside: [Item]
    }

    /// One post in the listing.
    struct Item: Encodable {
        let id: String
        let text: String
        let location: GeoPoint
        let queuedAt: String
        let wall: String
        let reason: String?

        init(_ entry: OutboxEntry, reason: String? = nil) {
            id = entry.requestId
            text = entry.text
            location = entry.location
            queuedAt = ParseDate.string(from: entry.queuedAt)
            wall = entry.backend
            self.reason = reason
        }

        init(_ post: SetAsidePost) {
            self.init(post.entry, reason: post.reason)
        }

        /// The post on one line: short id, when, where it goes, and its text.
        var line: String { "\(id.prefix(8))  \(queuedAt)  \(wall)  \(TablePrinter.oneLine(text))" }
    }
}
