import Foundation
import LocalState
import Synchronization
import TestSupport
import Testing
import WallDomain

@Suite("Remote config cache (hourly refresh, fallbacks)")
struct ConfigCacheTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let seconds = Mutex<Double>(1_800_000_000)
        var clock: WallClock { WallClock { [self] in Date(timeIntervalSince1970: seconds.withLock { $0 }) } }
        func advance(_ s: Double) { seconds.withLock { $0 += s } }
    }

    struct Offline: Error {}

    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-cfg-\(UUID().uuidString)")
    private let custom = RemoteConfig(params: ["postMaxCharacterCount": .number(200)])

    @Test("uses the cached copy for an hour, then fetches again")
    func hourly() throws {
        let time = ManualClock()
        let cache = ConfigCache(directory: directory, source: "test", clock: time.clock)
        var fetches = 0
        let fetch = { () throws -> RemoteConfig in fetches += 1; return self.custom }
        #expect(cache.load(fetch: fetch).origin == .backend)
        time.advance(3599)
        let cached = cache.load(fetch: fetch)
        #expect(cached.origin == .cache)
        #expect(cached.config.postMaxCharacterCount == 200)
        #expect(fetches == 1)
        time.advance(2)
        #expect(cache.load(fetch: fetch).origin == .backend)
        #expect(fetches == 2)
    }

    @Test("keeps the fetch time to the millisecond, as it is shown")
    func fetchTimeMilliseconds() throws {
        let time = ManualClock()
        time.advance(0.123)
        let cache = ConfigCache(directory: directory, source: "test", clock: time.clock)
        let fetched = try cache.refresh { self.custom }
        let cached = cache.load { throw Offline() }
        #expect(cached.origin == .cache && cached.fetchedAt.map(ParseDate.string(from:)) == fetched.fetchedAt.map(ParseDate.string(from:)))
        #expect(cached.fetchedAt.map(ParseDate.string(from:))?.hasSuffix(".123Z") == true, "\(String(describing: cached.fetchedAt))")
    }

    @Test("keeps the cached copy, with a warning, when a refresh fails")
    func keepsCacheOnFailure() throws {
        let time = ManualClock()
        let cache = ConfigCache(directory: directory, source: "test", clock: time.clock)
        _ = try cache.refresh { custom }
        time.advance(7200)
        let loaded = cache.load { throw Offline() }
        #expect(loaded.origin == .cache)
        #expect(loaded.config == custom)
        #expect(loaded.warning?.contains("could not refresh the config") == true)
    }

    @Test("falls back to Anywall's defaults with no cache and no backend")
    func defaults() {
        let loaded = ConfigCache(directory: directory, source: "test").load { throw Offline() }
        #expect(loaded.origin == .defaults)
        #expect(loaded.config.availableFilterDistances == [.feet(250), .feet(2000), .feet(5000)])
        #expect(loaded.config.postMaxCharacterCount == 140)
        #expect(loaded.warning != nil)
    }

    @Test("refresh fetches whatever the cached copy's age, and reports failure")
    func refresh() throws {
        let cache = ConfigCache(directory: directory, source: "test")
        _ = try cache.refresh { .defaults }
        #expect(try cache.refresh { custom }.config == custom)
        #expect(throws: Offline.self) { try cache.refresh { throw Offline() } }
    }
}
