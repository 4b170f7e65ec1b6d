import AnywallSupport
import ArgumentParser
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report a post to the wall's moderators.",
        discussion: """
            Only you and the moderators see your report. You must stand within your filter radius of \
            the post; reporting it again replaces your report. A post reported by the wall's \
            reportLimit accounts (default 3) is removed for everyone but its author and the moderators.

            \(UsageExamples.report)
            """)

    @Argument(help: ArgumentHelp("The objectId of the post or reply.", valueName: "POST_ID"))
    var postId: String
    @Option(help: ArgumentHelp("Why: \(ReportReason.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "REASON"),
            completion: .list(ReportReason.allCases.map(\.rawValue)))
    var reason: String
    @Option(help: ArgumentHelp("A few words for the moderators (at most \(ReportNote.maxCharacters) characters).", valueName: "TEXT"))
    var note: String?
    @OptionGroup var location: LocationOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let reason = try ReportReason.parsed(self.reason)
        let note = try ReportNote.validated(note)
        let (_, fix) = try location.fix(context.preferences())
        let radius = try context.filterRadius()
        let wall = try context.openSocialWall(for: "report")
        try context.withSession(on: wall) { session in
            try wall.report(postId, reason: reason, note: note, from: fix.point, radius: radius, session: session)
        }
        Terminal.note("anywall: reported \(postId) (\(reason.rawValue)); only you and the moderators see the report")
    }
}
