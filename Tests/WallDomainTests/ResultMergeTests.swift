import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("ResultMerge")
struct ResultMergeTests {
    private let here = try! GeoPoint(latitude: 0, longitude: 0)

    private func view(_ id: String, metersNorth: Double, radius: Distance = .meters(1000)) -> NearbyPost {
        let post = Post(objectId: id, text: "text \(id)", location: try! here.moved(.meters(metersNorth), bearing: 0),
                        author: "a", createdAt: Date(timeIntervalSince1970: 0))
        return NearbyPost(post, from: here, filterRadius: radius)
    }

    @Test("added, removed, revealed and hidden, in a stable order; unchanged posts give nothing")
    func events() {
        let previous = [view("keep", metersNorth: 10), view("gone", metersNorth: 20), view("far", metersNorth: 5000), view("near", metersNorth: 500)]
        let current = [view("keep", metersNorth: 10), view("new", metersNorth: 30),
                       view("far", metersNorth: 5000, radius: .meters(6000)), view("near", metersNorth: 500, radius: .meters(100))]
        let events = ResultMerge.changes(from: previous, to: current, at: Date(), place: here, filterRadius: .meters(1000))
        #expect(events.map { "\($0.kind.rawValue) \($0.post.objectId)" } == ["added new", "revealed far", "hidden near", "removed gone"])
        #expect(events[1].post.text == "text far")
        #expect(events[2].post.text == nil)
    }

    @Test("an empty previous result reports every post as added")
    func firstRun() {
        let current = [view("a", metersNorth: 1), view("b", metersNorth: 2000)]
        #expect(ResultMerge.changes(from: [], to: current, at: Date(), place: here, filterRadius: .meters(1000)).map(\.kind) == [.added, .added])
    }

    @Test("a removed post carries its last known form")
    func removedKeepsLastForm() {
        let hidden = view("h", metersNorth: 5000)
        let events = ResultMerge.changes(from: [hidden], to: [], at: Date(), place: here, filterRadius: .meters(1000))
        #expect(events == [ChangeEvent(kind: .removed, time: events[0].time, post: hidden)])
        #expect(events[0].post.text == nil)
    }

    @Test("a removed post that was readable is withheld once it is beyond the radius now")
    func removedRespectsRadiusNow() {
        let seen = view("s", metersNorth: 900)
        #expect(seen.text == "text s")
        let farNow = ResultMerge.changes(from: [seen], to: [], at: Date(), place: here, filterRadius: .meters(100))
        #expect(farNow[0].kind == .removed && farNow[0].post.text == nil && farNow[0].post.author == nil && !farNow[0].post.visible)
        let elsewhere = try! GeoPoint(latitude: 0.5, longitude: 0)
        let moved = ResultMerge.changes(from: [seen], to: [], at: Date(), place: elsewhere, filterRadius: .meters(1000))
        #expect(moved[0].post.text == nil && moved[0].post.distance > .kilometers(50))
        let stillNear = ResultMerge.changes(from: [seen], to: [], at: Date(), place: here, filterRadius: .meters(1000))
        #expect(stillNear[0].post.text == "text s")
    }

    @Test("large results merge correctly")
    func large() {
        let previous = (0..<50_000).map { view("p\($0)", metersNorth: Double($0 % 2000)) }
        let current = (25_000..<75_000).map { view("p\($0)", metersNorth: Double($0 % 2000)) }
        let events = ResultMerge.changes(from: previous, to: current, at: Date(), place: here, filterRadius: .meters(1000))
        #expect(events.filter { $0.kind == .added }.count == 25_000)
        #expect(events.filter { $0.kind == .removed }.count == 25_000)
        #expect(events.count == 50_000)
    }
}
