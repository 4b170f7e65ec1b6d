import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `--geojson`: an RFC 7946 FeatureCollection of points (`[lon, lat]`), each post's fields as the
/// feature's properties; for change events, the event and its time join them.
struct GeoJSONPrinter: ResultPrinter {
    private struct Collection: Encodable {
        let type = "FeatureCollection"
        let features: [Feature]
    }

    private struct Feature: Encodable {
        let type = "Feature"
        let id: String
        let geometry: Point
        let properties: Properties
    }

    private struct Point: Encodable {
        let type = "Point"
        let coordinates: [Double]
    }

    private struct Properties: Encodable {
        let event: ChangeKind?
        let time: String?
        let post: NearbyPost

        private enum Keys: String, CodingKey { case event, time }

        func encode(to encoder: Encoder) throws {
            // The post's own keys, flattened into the properties object.
            try post.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(event, forKey: .event)
            try c.encodeIfPresent(time, forKey: .time)
        }
    }

    func render(_ posts: [NearbyPost]) -> String {
        collection(posts.map { feature($0, event: nil, time: nil) })
    }

    func render(_ events: [ChangeEvent]) -> String {
        collection(events.map { feature($0.post, event: $0.kind, time: ParseDate.string(from: $0.time)) })
    }

    private func feature(_ post: NearbyPost, event: ChangeKind?, time: String?) -> Feature {
        Feature(id: post.objectId,
                geometry: Point(coordinates: [post.location.longitude, post.location.latitude]),
                properties: Properties(event: event, time: time, post: post))
    }

    private func collection(_ features: [Feature]) -> String {
        JSONText.encode(Collection(features: features)) + "\n"
    }
}
