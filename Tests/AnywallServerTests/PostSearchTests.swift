import AnywallServer
import Testing

/// Which finds the SQLite store may run on an event loop, where a slow one stalls the loop's
/// connections: nearest searches of up to a default page only.
@Suite("Finds whose cost the server bounds")
struct PostSearchTests {
    private func isBounded(_ parameters: [(String, String)]) throws -> Bool {
        try PostSearch(query: PostQuery(parameters: parameters)).isBounded
    }

    /// Around a place, thread posts only, as `nearby` asks.
    private let near = #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":80,"longitude":10},"$maxDistanceInKilometers":20000},"parent":{"$exists":false}}"#

    @Test("a nearest search of up to 100 thread posts, skipped ones included, is bounded")
    func smallNearest() throws {
        #expect(try isBounded([("where", near)]))
        #expect(try isBounded([("where", near), ("limit", "100")]))
        #expect(try isBounded([("where", near), ("skip", "80"), ("limit", "20")]))
    }

    @Test("a larger page, a count, an order, a find without a place, or one that may hold replies is not")
    func unbounded() throws {
        // Replies are not in the nearest search's indexes: they are scanned for around its posts.
        #expect(try !isBounded([("where", #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":80,"longitude":10}}}"#)]))
        #expect(try !isBounded([("where", near), ("limit", "101")]))
        #expect(try !isBounded([("where", near), ("skip", "81"), ("limit", "20")]))
        #expect(try !isBounded([("where", near), ("count", "1")]))
        #expect(try !isBounded([("where", near), ("order", "-createdAt")]))
        #expect(try !isBounded([("limit", "20")]))
        #expect(try !isBounded([("where", #"{"location":{"$geoWithin":{"$centerSphere":[[10,80],0.1]}}}"#)]))
    }
}
