import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `--ndjson`: one JSON object per line, a post or a change event.
struct NDJSONPrinter: ResultPrinter {
    func render(_ posts: [NearbyPost]) -> String { lines(posts) }
    func render(_ events: [ChangeEvent]) -> String { lines(events) }

    private func lines<T: Encodable>(_ items: [T]) -> String {
        items.map { JSONText.encode($0) + "\n" }.joined()
    }
}
