import AnywallCLI
import Foundation
import LocalState
import Testing
import TestSupport
import WallDomain

/// The cache policies with Parse's names: which of the wall and the cache answer, what is
/// cached, and when the answer is stale. A real embedded wall behind the recording one, a real
/// cache directory.
@Suite("nearby --cache-policy")
struct NearbyLookupTests {
    let place = try! GeoPoint(latitude: 37.7793, longitude: -122.4193)

    private struct Run {
        var answers: [NearbyAnswer] = []
        var warnings: [String] = []
        var stale = false
    }

    private func setUp() throws -> (RecordingWall, ResultCache) {
        let wall = try RecordingWall()
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        _ = try wall.createPost(text: "Free coffee", at: place, session: alice, requestId: "1")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-cache-\(UUID().uuidString)")
        return (wall, ResultCache(directory: dir))
    }

    private func ask(_ wall: RecordingWall, _ cache: ResultCache, _ policy: CachePolicy) throws -> Run {
        var run = Run()
        run.stale = try NearbyLookup(backend: wall, cache: cache, policy: policy)
            .run(WallQuery(center: place), filterRadius: .meters(1000),
                 deliver: { run.answers.append($0) }, warn: { run.warnings.append($0) })
        return run
    }

    @Test("network-only asks every time and keeps the answer; ignore-cache keeps nothing")
    func networkOnlyAndIgnoreCache() throws {
        let (wall, cache) = try setUp()
        _ = try ask(wall, cache, .ignoreCache)
        #expect(throws: AnywallError.noCachedAnswer) { try ask(wall, cache, .cacheOnly) }
        let fresh = try ask(wall, cache, .networkOnly)
        #expect(fresh.answers.count == 1 && fresh.answers[0].cachedAt == nil && !fresh.stale)
        #expect(wall.queries == 2)
        let cached = try ask(wall, cache, .cacheOnly)
        #expect(cached.stale && cached.answers[0].cachedAt != nil && cached.answers[0].posts.map(\.text) == ["Free coffee"])
        #expect(wall.queries == 2)
    }

    @Test("cache-else-network asks only when nothing is cached")
    func cacheElseNetwork() throws {
        let (wall, cache) = try setUp()
        #expect(try ask(wall, cache, .cacheElseNetwork).stale == false)
        #expect(try ask(wall, cache, .cacheElseNetwork).stale == true)
        #expect(wall.queries == 1)
    }

    @Test("network-else-cache falls back to the cache with a warning, and fails with nothing cached")
    func networkElseCache() throws {
        let (wall, cache) = try setUp()
        wall.offline = true
        #expect(throws: AnywallError.backendUnreachable("the test wall is offline")) { try ask(wall, cache, .networkElseCache) }
        wall.offline = false
        _ = try ask(wall, cache, .networkElseCache)
        wall.offline = true
        let fallback = try ask(wall, cache, .networkElseCache)
        #expect(fallback.stale && fallback.answers.count == 1 && fallback.warnings == ["the test wall is offline"])
    }

    @Test("cache-then-network gives the cached answer, then the fresh one")
    func cacheThenNetwork() throws {
        let (wall, cache) = try setUp()
        #expect(try ask(wall, cache, .cacheThenNetwork).answers.count == 1)
        let both = try ask(wall, cache, .cacheThenNetwork)
        #expect(both.answers.map { $0.cachedAt != nil } == [true, false])
        #expect(!both.stale)
        wall.offline = true
        let cachedOnly = try ask(wall, cache, .cacheThenNetwork)
        #expect(cachedOnly.answers.count == 1 && cachedOnly.stale)
        #expect(cachedOnly.warnings.count == 1 && cachedOnly.warnings[0].hasSuffix("the cached answer above is all there is"))
    }

    @Test("a local wall is always asked, whatever the policy, and nothing is cached")
    func localWall() throws {
        let (wall, cache) = try setUp()
        wall.isRemote = false
        for policy in CachePolicy.allCases { #expect(try ask(wall, cache, policy).stale == false) }
        #expect(wall.queries == CachePolicy.allCases.count)
    }
}
