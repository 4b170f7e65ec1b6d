import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ModerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderate", abstract: "Moderators: the queue of removed and reported posts; restore or remove.",
        discussion: """
            The moderators are the users of the wall's Parse role 'moderators'; grant and revoke name \
            them (on a server, with its master key). A restored post stays up: the community's votes \
            and reports no longer remove it. A removed post is hidden from everyone but its author.

            \(UsageExamples.moderate)
            """,
        subcommands: [Queue.self, Restore.self, Remove.self, Grant.self, Revoke.self],
        defaultSubcommand: Queue.self)

    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "queue", abstract: "Removed and reported posts, most recently reported first, with their reports.",
            discussion: UsageExamples.moderateQueue)

        @Option(parsing: .unconditional, help: ArgumentHelp("How many posts at most, 1 to 1000 (default: 100).", valueName: "N"))
        var limit: CheckedArgument<ResultLimit>?
        @OptionGroup var json: JSONOption
        @OptionGroup var store: StoreOptions

        private struct QueuedJSON: Encodable {
            let objectId: String
            let text: String
            let author: String?
            let location: GeoPoint
            let createdAt: String
            let score: Int
            let replyCount: Int
            let parent: String?
            let removed: PostRemoval?
            let reports: [ReportJSON]

            // Explicit nulls, as every post anywall prints.
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(objectId, forKey: .objectId)
                try c.encode(text, forKey: .text)
                try c.encode(author, forKey: .author)
                try c.encode(location, forKey: .location)
                try c.encode(createdAt, forKey: .createdAt)
                try c.encode(score, forKey: .score)
                try c.encode(replyCount, forKey: .replyCount)
                try c.encode(parent, forKey: .parent)
                try c.encode(removed, forKey: .removed)
                try c.encode(reports, forKey: .reports)
            }

            private enum CodingKeys: String, CodingKey {
                case objectId, text, author, location, createdAt, score, replyCount, parent, removed, reports
            }
        }

        private struct ReportJSON: Encodable {
            let reporter: String
            let reason: ReportReason
            let note: String?
            let createdAt: String
        }

        func run() throws {
            let context = try CommandContext(store: store)
            let wall = try context.openSocialWall(for: "moderate queue")
            let queue = try context.withSession(on: wall) { session in
                try wall.moderationQueue(limit: try limit?.value().count ?? 100, session: session)
            }
            if json.json {
                Terminal.output(JSONText.encode(queue.map { item in
                    QueuedJSON(objectId: item.post.objectId, text: item.post.text, author: item.post.author, location: item.post.location,
                               createdAt: ParseDate.string(from: item.post.createdAt), score: item.post.score,
                               replyCount: item.post.replyCount, parent: item.post.parent, removed: item.post.removed,
                               reports: item.reports.map {
                                   ReportJSON(reporter: $0.reporter, reason: $0.reason, note: $0.note, createdAt: ParseDate.string(from: $0.createdAt))
                               })
                }) + "\n")
                return
            }
            var out = ""
            for item in queue {
                let state = item.post.removed.map { "removed (\($0.rawValue))" } ?? "up"
                out += "\(item.post.objectId)  \(state)  score \(item.post.score)  \(TablePrinter.oneLine(item.post.author ?? "?")): "
                    + TablePrinter.oneLine(item.post.text) + "\n"
                for report in item.reports {
                    out += "    \(report.reason.rawValue) by \(TablePrinter.oneLine(report.reporter))"
                        + (report.note.map { ": " + TablePrinter.oneLine($0) } ?? "") + "\n"
                }
            }
            Terminal.output(out)
            if queue.isEmpty { Terminal.note("The queue is empty.") }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore", abstract: "Put a removed post back up, for good.", discussion: UsageExamples.moderateRestore)

        @Argument(help: ArgumentHelp("The objectId of the post or reply.", valueName: "POST_ID"))
        var postId: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ModerateCommand.act(.restore, on: postId, store: store)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a post for everyone but its author.", discussion: UsageExamples.moderateRemove)

        @Argument(help: ArgumentHelp("The objectId of the post or reply.", valueName: "POST_ID"))
        var postId: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ModerateCommand.act(.remove, on: postId, store: store)
        }
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant", abstract: "Make a user a moderator.", discussion: UsageExamples.moderateGrant)

        @Argument(help: ArgumentHelp("The user's username.", valueName: "USERNAME"))
        var username: String
        @OptionGroup var masterKey: MasterKeyOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ModerateCommand.setModerator(username, true, masterKey: masterKey, store: store)
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Make a moderator a user like any other.", discussion: UsageExamples.moderateRevoke)

        @Argument(help: ArgumentHelp("The user's username.", valueName: "USERNAME"))
        var username: String
        @OptionGroup var masterKey: MasterKeyOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            try ModerateCommand.setModerator(username, false, masterKey: masterKey, store: store)
        }
    }

    private static func act(_ action: ModeratorAction, on postId: String, store: StoreOptions) throws {
        let context = try CommandContext(store: store)
        let wall = try context.openSocialWall(for: "moderate \(action.rawValue)")
        let post = try context.withSession(on: wall) { session in try wall.moderate(postId, action, session: session) }
        Terminal.note("anywall: \(post.objectId) is \(post.removed == nil ? "up" : "removed")")
    }

    private static func setModerator(_ username: String, _ isModerator: Bool, masterKey: MasterKeyOptions, store: StoreOptions) throws {
        let context = try CommandContext(store: store)
        let wall = try context.openSocialWall(for: isModerator ? "moderate grant" : "moderate revoke")
        try wall.setModerator(username, isModerator, masterKey: try masterKey.read())
        Terminal.note("anywall: \(username) is \(isModerator ? "now" : "no longer") a moderator of \(wall.description)")
    }
}
