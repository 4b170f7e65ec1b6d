import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `--json`: one JSON array of posts, or of change events.
struct JSONArrayPrinter: ResultPrinter {
    func render(_ posts: [NearbyPost]) -> String { JSONText.encode(posts) + "\n" }
    func render(_ events: [ChangeEvent]) -> String { JSONText.encode(events) + "\n" }
}
