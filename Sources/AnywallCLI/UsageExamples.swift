/// Each command's examples, as its help (and so the man page) shows them after its discussion.
/// This is where examples are written: the README shows one of each, and UsageExamplesTests
/// checks that every one it shows is here.
enum UsageExamples {
    /// The parent command shows its subcommands' examples.
    static let `settings` = shown(settingsShowExamples + settingsSetExamples + settingsUnsetExamples)
    /// The parent command shows its subcommands' examples.
    static let `config` = shown(configShowExamples + configRefreshExamples + configSetExamples + configUnsetExamples + configInitExamples)
    static let `signup` = shown(signupExamples)
    static let `login` = shown(loginExamples)
    static let `logout` = shown(logoutExamples)
    static let `whoami` = shown(whoamiExamples)
    static let `link` = shown(linkExamples)
    static let `unlink` = shown(unlinkExamples)
    static let `post` = shown(postExamples)
    static let `nearby` = shown(nearbyExamples)
    static let `where` = shown(whereExamples)
    static let `settingsShow` = shown(settingsShowExamples)
    static let `settingsSet` = shown(settingsSetExamples)
    static let `settingsUnset` = shown(settingsUnsetExamples)
    static let `configShow` = shown(configShowExamples)
    static let `configRefresh` = shown(configRefreshExamples)
    static let `configSet` = shown(configSetExamples)
    static let `configUnset` = shown(configUnsetExamples)
    static let `configInit` = shown(configInitExamples)
    static let `import` = shown(importExamples)
    /// The parent command shows its subcommands' examples.
    static let `outbox` = shown(outboxShowExamples + outboxRetryExamples + outboxDropExamples)
    static let `outboxShow` = shown(outboxShowExamples)
    static let `outboxRetry` = shown(outboxRetryExamples)
    static let `outboxDrop` = shown(outboxDropExamples)
    static let `passwd` = shown(passwdExamples)
    static let `reply` = shown(replyExamples)
    static let `thread` = shown(threadExamples)
    static let `vote` = shown(voteExamples)
    static let `report` = shown(reportExamples)
    static let `delete` = shown(deleteExamples)
    static let `activity` = shown(activityExamples)
    /// The parent command shows its subcommands' examples.
    static let `moderate` = shown(moderateQueueExamples + moderateRestoreExamples + moderateRemoveExamples + moderateGrantExamples)
    static let `moderateQueue` = shown(moderateQueueExamples)
    static let `moderateRestore` = shown(moderateRestoreExamples)
    static let `moderateRemove` = shown(moderateRemoveExamples)
    static let `moderateGrant` = shown(moderateGrantExamples)
    static let `moderateRevoke` = shown(moderateRevokeExamples)

    private static let signupExamples: [Example] = [
        ("anywall signup --username alice", "asks for the password twice, without echo"),
        ("echo \"pick a password\" | anywall signup --username alice --password-stdin", "the password from stdin"),
        ("anywall signup --username bob --name \"Bob Lee\" --password-file bob.pw", "shown as \"Bob Lee\"; password from a file"),
        ("anywall signup --anonymous", "an account with no name or password, lost at logout"),
        ("anywall signup --username carol", "while logged in anonymously: keeps the account, its posts, votes and replies"),
    ]
    private static let loginExamples: [Example] = [
        ("anywall login --username alice", "asks for the password, without echo"),
        ("anywall login --username alice --password-file ~/.anywall-pw", "the password from a file"),
        ("anywall login --facebook", "shows a code to enter at facebook.com/device, then waits for it"),
        ("anywall login --facebook --token-file fb.token", "with a Facebook access token you already have"),
    ]
    private static let logoutExamples: [Example] = [
        ("anywall logout", "end the session, on the wall and here"),
        ("anywall logout --force", "also an anonymous account's, without asking: it is lost"),
    ]
    private static let linkExamples: [Example] = [
        ("anywall link --facebook", "log in to this account with Facebook from now on"),
        ("anywall link --facebook --token-stdin < fb.token", "with a token you already have"),
    ]
    private static let unlinkExamples: [Example] = [
        ("anywall unlink --facebook", "refused if Facebook is the only way in"),
    ]
    private static let whoamiExamples: [Example] = [
        ("anywall whoami", "who is logged in, on which wall"),
        ("anywall whoami --json | jq -r .username", "just the username, for a script"),
    ]
    private static let postExamples: [Example] = [
        ("anywall post \"Free coffee at the corner cafe\" --at 37.7793,-122.4193", "prints the new objectId"),
        ("echo \"Road closed at the bridge\" | anywall post - --at 37.7835,-122.4140", "the text from stdin"),
        ("anywall post \"Bus stop moved to 5th St\" --gpsd --json", "where gpsd puts you; the post as JSON"),
        ("anywall post --at 37.7793,-122.4193 -- \"-5 degrees, icy\"", "a text that starts with \"-\""),
    ]
    private static let nearbyExamples: [Example] = [
        ("anywall nearby --at 37.7793,-122.4193 --radius 2km", "the nearest posts; readable within 2 km"),
        ("anywall nearby --at 37.7793,-122.4193 --json | jq '.[] | select(.visible)'", "the posts you may read"),
        ("anywall nearby --at 37.7793,-122.4193 --within @mission.geojson", "only posts inside an area"),
        ("anywall nearby --at -33.87,151.21 --limit 100 --geojson > sydney.geojson", "a layer for a map"),
        ("anywall nearby --at 37.7793,-122.4193 --map", "the posts as a map around you, listed below it"),
        ("anywall nearby --gpsd --map --map-style ascii --size 100x30", "plain ASCII, any size"),
        ("anywall nearby --at 37.7793,-122.4193 --changes --ndjson", "cron: what is new near home"),
        ("anywall nearby --watch --gpsd --ndjson", "stream what changes as you walk"),
        ("anywall nearby --watch --nmea /dev/ttyUSB0 --baud 9600", "a serial GNSS receiver"),
        ("anywall nearby --watch --nmea track.nmea --radius 50m", "replay a recorded walk"),
        ("anywall nearby --at 37.7793,-122.4193 --cache-policy cache-only", "a server's last answer, offline"),
    ]
    private static let whereExamples: [Example] = [
        ("anywall where --gpsd --json", "the fix gpsd gives (localhost:2947)"),
        ("anywall where --nmea /dev/ttyACM0 --fix-timeout 30", "wait up to 30 s for a first fix"),
        ("anywall where", "the fix the location setting gives"),
    ]
    private static let settingsShowExamples: [Example] = [
        ("anywall settings", "every setting, its value and where it is from"),
        ("anywall settings show --json | jq -r .settings.units.value", "one setting's value, for a script"),
    ]
    private static let settingsSetExamples: [Example] = [
        ("anywall settings set radius 2000ft", "filter radius: a distance the config offers"),
        ("anywall settings set units imperial", "distances in feet and miles"),
        ("anywall settings set location gpsd:pi.local", "where you are, when no LOCATION flag says"),
        ("anywall settings set server https://wall.example.org/parse", "the wall of a Parse Server"),
        ("anywall settings set rest-key - < rest-key.txt", "the REST key from stdin, out of shell history"),
    ]
    private static let settingsUnsetExamples: [Example] = [
        ("anywall settings unset server", "back to the embedded wall"),
        ("anywall settings unset radius", "back to the default, 1000m"),
    ]
    private static let configShowExamples: [Example] = [
        ("anywall config", "the config in use, and where it is from"),
        ("anywall config show --json", "as Parse's {\"params\":{...}}, plus its source"),
    ]
    private static let configRefreshExamples: [Example] = [
        ("anywall config refresh", "fetch it now, whatever the cached copy's age"),
    ]
    private static let configSetExamples: [Example] = [
        ("anywall config set postMaxCharacterCount 200 --master-key-file master.key", "longer posts (a server needs its master key)"),
        ("anywall config set availableFilterDistances '[100, 500, 2000]'", "the radius choices, in feet"),
    ]
    private static let configUnsetExamples: [Example] = [
        ("anywall config unset postMaxCharacterCount", "back to Anywall's default, 140"),
        ("anywall config unset motd --master-key-file master.key", "remove a parameter set by mistake"),
    ]
    private static let configInitExamples: [Example] = [
        ("anywall config init --master-key-file master.key", "once per new Parse Server"),
        ("pass show parse/master-key | anywall config init --master-key-stdin", "from a password manager"),
    ]
    private static let outboxShowExamples: [Example] = [
        ("anywall outbox", "what waits for the server, and what it refused"),
        ("anywall outbox show --json | jq -r '.setAside[].reason'", "why each set-aside post was refused"),
    ]
    private static let outboxRetryExamples: [Example] = [
        ("anywall outbox retry", "send every set-aside post again, once the cause is fixed"),
    ]
    private static let outboxDropExamples: [Example] = [
        ("anywall outbox drop 3f2a9c1e", "forget one post, named by its id's first characters"),
    ]
    private static let importExamples: [Example] = [
        ("anywall import Posts.json", "a Parse export, or NDJSON"),
        ("zcat posts.ndjson.gz | anywall import -", "from standard input"),
        ("anywall import Posts.json --store team.sqlite", "into another wall file"),
    ]
    private static let replyExamples: [Example] = [
        ("anywall reply Xy12AbCd34 \"Still there at 5?\" --at 37.7793,-122.4193", "prints the reply's objectId"),
        ("echo \"Thanks!\" | anywall reply Xy12AbCd34 - --gpsd", "the text from stdin, where gpsd puts you"),
    ]
    private static let threadExamples: [Example] = [
        ("anywall thread Xy12AbCd34 --at 37.7793,-122.4193", "the post, then its replies, oldest first"),
        ("anywall thread Xy12AbCd34 --at 37.7793,-122.4193 --skip 100 --limit 100 --json", "the next page, as JSON"),
        ("anywall thread Xy12AbCd34 --at 37.7793,-122.4193 --watch --ndjson", "each new reply as it comes"),
    ]
    private static let voteExamples: [Example] = [
        ("anywall vote Xy12AbCd34 up --at 37.7793,-122.4193", "prints the post's score"),
        ("anywall vote Xy12AbCd34 none --at 37.7793,-122.4193", "take your vote back"),
    ]
    private static let reportExamples: [Example] = [
        ("anywall report Xy12AbCd34 --reason spam --at 37.7793,-122.4193", "only you and the moderators see it"),
        ("anywall report Xy12AbCd34 --reason targets-someone --note \"names a pupil\" --gpsd", "a few words for the moderators"),
    ]
    private static let deleteExamples: [Example] = [
        ("anywall delete Xy12AbCd34", "your own post, with its replies"),
    ]
    private static let activityExamples: [Example] = [
        ("anywall activity", "what came since you last looked"),
        ("anywall activity --since 7d --json | jq '.[] | select(.type == \"reply\")'", "the last week's replies"),
        ("anywall activity --since all", "everything"),
        ("anywall activity --watch", "keep running: each vote and reply on your posts as it happens"),
    ]
    private static let moderateQueueExamples: [Example] = [
        ("anywall moderate queue", "removed and reported posts, with their reports"),
    ]
    private static let moderateRestoreExamples: [Example] = [
        ("anywall moderate restore Xy12AbCd34", "put a removed post back up, for good"),
    ]
    private static let moderateRemoveExamples: [Example] = [
        ("anywall moderate remove Xy12AbCd34", "take a post down, whatever its score"),
    ]
    private static let moderateGrantExamples: [Example] = [
        ("anywall moderate grant carol --master-key-file master.key", "make carol a moderator"),
    ]
    private static let moderateRevokeExamples: [Example] = [
        ("anywall moderate revoke carol --master-key-file master.key", "carol moderates no more"),
    ]
    private static let passwdExamples: [Example] = [
        ("anywall passwd --username bob", "an imported author's first password"),
        ("echo \"a new password\" | anywall passwd --username bob --password-stdin", "the password from stdin"),
    ]

    /// A command line and what it does.
    private typealias Example = (command: String, does: String)

    /// The examples as help shows them: what each does, then the command, a blank line between.
    private static func shown(_ examples: [Example]) -> String {
        "EXAMPLES:\n" + examples.map { "  # \($0.does)\n  \($0.command)" }.joined(separator: "\n\n")
    }
}
