import Foundation
import Testing
import TestSupport
import WallDomain

/// `nearby --watch`'s rules for asking the wall again: after a move of `minMove`, every
/// `interval`, not while the wall is out of reach; and what the held posts show in between.
@Suite("Watch: when the wall is asked again")
struct NearbyWatchTests {
    let start = try! GeoPoint(latitude: 48.8566, longitude: 2.3522)
    let clock = ContinuousClock()

    private func fix(_ point: GeoPoint) -> Fix { Fix(point: point, source: "fixed") }

    private func watch(_ wall: RecordingWall, filterRadius: Distance = .meters(1000)) -> NearbyWatch {
        NearbyWatch(backend: wall, searchDistance: .meters(100_000), limit: 20, filterRadius: filterRadius,
                    minMove: .meters(10), interval: .seconds(30))
    }

    @Test("the first fix asks the wall and reports every post as added")
    func firstFix() throws {
        let wall = try RecordingWall()
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        _ = try wall.createPost(text: "one", at: start, session: alice, requestId: "1")
        _ = try wall.createPost(text: "two", at: try start.moved(.meters(300), bearing: 90), session: alice, requestId: "2")
        let events = try watch(wall).update(with: fix(start), now: clock.now)
        #expect(wall.queries == 1)
        #expect(events.map(\.kind) == [.added, .added])
        #expect(events.map(\.post.text) == ["one", "two"])
    }

    @Test("a move under 10 m asks nothing; a move of 10 m or more asks again")
    func minimumMove() throws {
        let wall = try RecordingWall()
        let watch = watch(wall)
        let now = clock.now
        _ = try watch.update(with: fix(start), now: now)
        _ = try watch.update(with: fix(try start.moved(.meters(5), bearing: 0)), now: now)
        _ = try watch.update(with: fix(try start.moved(.meters(9.5), bearing: 180)), now: now)
        #expect(wall.queries == 1)
        _ = try watch.update(with: fix(try start.moved(.meters(15), bearing: 0)), now: now)
        #expect(wall.queries == 2)
    }

    @Test("walking toward a held post reveals it without asking the wall")
    func revealWithoutQuery() throws {
        let wall = try RecordingWall()
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        let post = try start.moved(.meters(200), bearing: 90)
        _ = try wall.createPost(text: "over there", at: post, session: alice, requestId: "1")
        let watch = watch(wall, filterRadius: .meters(195))
        let first = try watch.update(with: fix(start), now: clock.now)
        #expect(first.map(\.kind) == [.added] && first[0].post.visible == false)
        let closer = try watch.update(with: fix(try start.moved(.meters(8), bearing: 90)), now: clock.now)
        #expect(closer.map(\.kind) == [.revealed] && closer[0].post.text == "over there")
        #expect(wall.queries == 1)
    }

    @Test("every interval the wall is asked again, and others' new posts appear")
    func refreshEveryInterval() throws {
        let wall = try RecordingWall()
        let watch = watch(wall)
        let now = clock.now
        #expect(try watch.update(with: fix(start), now: now).isEmpty)
        #expect(watch.nextQuery == now + .seconds(30))
        let bob = try wall.signUp(username: "bob", password: "pw", name: nil)
        _ = try wall.createPost(text: "new from bob", at: start, session: bob, requestId: "1")
        let events = try watch.refresh(now: now + .seconds(30))
        #expect(wall.queries == 2)
        #expect(events.map(\.kind) == [.added] && events[0].post.text == "new from bob")
    }

    @Test("while the wall is out of reach the error is thrown once, held posts stay, and it is tried again after the retry delay")
    func outage() throws {
        let wall = try RecordingWall()
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        _ = try wall.createPost(text: "held", at: start, session: alice, requestId: "1")
        let watch = watch(wall)
        let now = clock.now
        _ = try watch.update(with: fix(start), now: now)
        wall.offline = true
        #expect(throws: AnywallError.backendUnreachable("the test wall is offline")) {
            try watch.refresh(now: now + .seconds(30))
        }
        // Moving within the retry delay shows the held posts from the new place, without asking.
        let moved = try start.moved(.meters(50), bearing: 0)
        #expect(try watch.update(with: fix(moved), now: now + .seconds(31)).isEmpty)
        #expect(wall.queries == 1)
        wall.offline = false
        _ = try watch.update(with: fix(moved), now: now + .seconds(30) + NearbyWatch.retryDelay)
        #expect(wall.queries == 2)
    }
}
