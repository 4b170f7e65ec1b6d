import AnywallCore
import ArgumentParser

struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Leave a message where you are.",
        discussion: "The text is the argument, or standard input when it is '-' or omitted and piped.")

    @Argument(help: ArgumentHelp("The message, or '-' to read it from standard input.", valueName: "TEXT"))
    var text: String?
    @OptionGroup var location: LocationOptions
    @OptionGroup var json: JSONOption
    @OptionGroup var store: StoreOptions

    func run() throws {
        let context = try CommandContext(store: store)
        let raw: String
        if let text, text != "-" {
            raw = text
        } else if text == "-" || !Terminal.stdinIsTerminal {
            raw = try Terminal.readAllInput()
        } else {
            throw ValidationError("give the text as an argument, or '-' to read it from standard input")
        }
        let (_, fix) = try location.fix(context.preferences())
        let wall = try context.openWall()
        let post = try context.withSession(on: wall) { session in
            let text = try PostText.validated(raw, maxCharacters: context.config(for: wall).postMaxCharacterCount)
            return try wall.createPost(text: text, at: fix.point, session: session)
        }
        if json.json {
            let view = NearbyPost(post, from: fix.point, filterRadius: FilterRadius.defaultRadius)
            Terminal.output(JSONText.encode(view) + "\n")
        } else {
            Terminal.output(post.objectId + "\n")
        }
    }
}
