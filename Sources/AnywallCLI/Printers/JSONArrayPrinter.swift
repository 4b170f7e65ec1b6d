import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `--json`: one JSON array of posts, or of change events.
package struct JSONArrayPrinter: ResultPrinter {
    package func render(_ posts: [NearbyPost]) -> String { JSONText.encode(posts) + "\n" }
    package func render(_ events: [ChangeEvent]) -> String { JSONText.encode(events) + "\n" }
}
