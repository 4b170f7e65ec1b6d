import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// One answer to `nearby`: the posts as seen from the place, fresh or from the cache.
public struct NearbyAnswer: Sendable {
    public let posts: [NearbyPost]
    /// When the server gave it, for an answer from the cache; nil for a fresh one.
    public let cachedAt: Date?
}

/// Asks a wall for the posts near a place under a cache policy (Parse's semantics): which of the
/// server and the cache answer, what is cached, and when the answer is stale.
public struct NearbyLookup {
    public let backend: WallBackend
    /// The cache of a remote wall; nil for a local one, which is always read.
    public let cache: ResultCache?
    public let policy: CachePolicy
    public let clock: WallClock
    /// The order of the posts.
    public let sort: PostSort
    /// Whose view of the wall (their votes, their removed posts); nil for anyone's.
    public let session: Session?

    public init(backend: WallBackend, cache: ResultCache?, policy: CachePolicy, clock: WallClock = .system,
                sort: PostSort = .near, session: Session? = nil) {
        self.backend = backend
        self.cache = backend.isRemote ? cache : nil
        self.policy = policy
        self.clock = clock
        self.sort = sort
        self.session = session
    }

    /// Hands each answer to `deliver` as it comes (two with `cache-then-network`) and `warn`s on
    /// the way; returns whether the last answer came from the cache (stale).
    public func run(_ query: WallQuery, filterRadius: Distance,
                    deliver: (NearbyAnswer) throws -> Void, warn: (String) -> Void) throws -> Bool {
        guard let cache else {
            try deliver(NearbyAnswer(posts: try fetch(query, filterRadius), cachedAt: nil))
            return false
        }
        // Another order is another question (nearest first keeps the keys of answers cached before orders existed).
        let key = ResultCache.key(backend: backend.identity, query: query, filterRadius: filterRadius, sort: sort == .near ? nil : sort.rawValue)
        let cached = policy == .ignoreCache || policy == .networkOnly ? nil : cache.load(key: key)
        func fromCache(_ entry: ResultCache.Entry) throws {
            try deliver(NearbyAnswer(posts: entry.posts, cachedAt: entry.cachedAt))
        }
        func fromNetwork() throws {
            let posts = try fetch(query, filterRadius)
            if policy != .ignoreCache { try cache.save(posts, key: key, at: clock.now()) }
            try deliver(NearbyAnswer(posts: posts, cachedAt: nil))
        }
        switch policy {
        case .ignoreCache, .networkOnly:
            try fromNetwork()
            return false
        case .cacheOnly:
            guard let cached else {
                throw AnywallError.noCachedAnswer
            }
            try fromCache(cached)
            return true
        case .cacheElseNetwork:
            if let cached {
                try fromCache(cached)
                return true
            }
            try fromNetwork()
            return false
        case .networkElseCache, .cacheThenNetwork:
            if policy == .cacheThenNetwork, let cached { try fromCache(cached) }
            do {
                try fromNetwork()
                return false
            } catch let error as AnywallError where error.isOutage {
                guard let cached else { throw error }
                if policy == .networkElseCache {
                    warn(error.wording)
                    try fromCache(cached)
                } else {
                    warn("\(error.wording); the cached answer above is all there is")
                }
                return true
            }
        }
    }

    private func fetch(_ query: WallQuery, _ filterRadius: Distance) throws -> [NearbyPost] {
        let posts: [Post]
        if let social = backend as? SocialWall {
            posts = try social.nearby(query, sort: sort, session: session)
        } else if sort == .near {
            posts = try backend.nearby(query)
        } else {
            throw AnywallError.unsupported(wall: backend.description, feature: "--sort \(sort.rawValue)")
        }
        return posts.seen(from: query.center, filterRadius: filterRadius)
    }
}
