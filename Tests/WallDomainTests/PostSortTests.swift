import Foundation
import Testing
import WallDomain

@Suite("The orders of nearby, and the community's rules")
struct PostSortTests {
    let center = try! GeoPoint(latitude: 37.7793, longitude: -122.4193)
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    private func post(_ id: String, hoursAgo: Double, score: Int, metersNorth: Double = 0) throws -> Post {
        Post(objectId: id, text: id, location: try GeoPoint(latitude: center.latitude + metersNorth / 111_195, longitude: center.longitude),
             author: "a", createdAt: now.addingTimeInterval(-hoursAgo * 3600), score: score)
    }

    @Test("hot ranks ten posts of known ages and scores by (score + 1) / (ageHours + 2) ^ 1.8, ties nearest first")
    func hot() throws {
        let posts = [
            try post("a", hoursAgo: 0, score: 0),       // 1 / 2^1.8 = 0.287
            try post("b", hoursAgo: 1, score: 4),       // 5 / 3^1.8 = 0.692
            try post("c", hoursAgo: 10, score: 30),     // 31 / 12^1.8 = 0.355
            try post("d", hoursAgo: 48, score: 100),    // 101 / 50^1.8 = 0.0889
            try post("e", hoursAgo: 2, score: 1),       // 2 / 4^1.8 = 0.165
            try post("f", hoursAgo: 0.5, score: -1),    // 0
            try post("g", hoursAgo: 5, score: 9),       // 10 / 7^1.8 = 0.303
            try post("h", hoursAgo: 1, score: 4, metersNorth: 50),  // as b, but farther
            try post("i", hoursAgo: 24, score: 20),     // 21 / 26^1.8 = 0.0601
            try post("j", hoursAgo: 3, score: 2),       // 3 / 5^1.8 = 0.1655, just above e's 0.1649
        ]
        let order = PostSort.hot.ordered(posts.shuffled(), from: center, now: now, limit: 10).map(\.objectId)
        #expect(order == ["b", "h", "c", "g", "a", "j", "e", "d", "i", "f"])
        #expect(abs(PostSort.hotness(score: 4, age: .seconds(3600)) - 5 / pow(3, 1.8)) < 1e-12)
    }

    @Test("new is newest first; top is highest score, then newest; near is nearest first; limit cuts")
    func otherOrders() throws {
        let posts = [
            try post("old-high", hoursAgo: 10, score: 5, metersNorth: 10),
            try post("new-low", hoursAgo: 1, score: 0, metersNorth: 30),
            try post("mid-high", hoursAgo: 5, score: 5, metersNorth: 20),
        ]
        #expect(PostSort.new.ordered(posts, from: center, now: now, limit: 3).map(\.objectId) == ["new-low", "mid-high", "old-high"])
        #expect(PostSort.top.ordered(posts, from: center, now: now, limit: 3).map(\.objectId) == ["mid-high", "old-high", "new-low"])
        #expect(PostSort.near.ordered(posts, from: center, now: now, limit: 2).map(\.objectId) == ["old-high", "mid-high"])
    }

    @Test("removal: at exactly hideScore and at exactly reportLimit; a restored post stays; a moderator's removal stands")
    func removal() {
        let rules = CommunityRules(config: RemoteConfig(setOnWall: [:]))
        #expect(rules.hideScore == -5 && rules.reportLimit == 3)
        #expect(rules.removal(score: -4, reportCount: 2, current: nil, restored: false) == nil)
        #expect(rules.removal(score: -5, reportCount: 0, current: nil, restored: false) == .votes)
        #expect(rules.removal(score: 0, reportCount: 3, current: nil, restored: false) == .reports)
        #expect(rules.removal(score: -9, reportCount: 9, current: nil, restored: true) == nil)
        #expect(rules.removal(score: 9, reportCount: 0, current: .moderator, restored: true) == .moderator)
        #expect(rules.removal(score: 0, reportCount: 0, current: .votes, restored: false) == .votes)
        let strict = CommunityRules(config: RemoteConfig(setOnWall: ["hideScore": .number(-2), "reportLimit": .number(1)]))
        #expect(strict.removal(score: -2, reportCount: 0, current: nil, restored: false) == .votes)
        #expect(strict.removal(score: 0, reportCount: 1, current: nil, restored: false) == .reports)
    }

    @Test("bad votes, reasons, notes and rule settings get one-line refusals")
    func refusals() throws {
        #expect(throws: AnywallError.self) { try Vote.parsed("2") }
        #expect(throws: AnywallError.self) { try ReportReason.parsed("boring") }
        #expect(throws: AnywallError.self) { try ReportNote.validated(String(repeating: "a", count: 100_000)) }
        #expect(throws: AnywallError.self) { try ReportNote.validated("bell \u{7}") }
        #expect(try ReportNote.validated("  ") == nil)
        #expect(throws: AnywallError.self) { try RemoteConfig.validate(key: "hideScore", value: .number(3)) }
        #expect(throws: AnywallError.self) { try RemoteConfig.validate(key: "reportLimit", value: .number(0.5)) }
        #expect(throws: Never.self) { try RemoteConfig.validate(key: "reportLimit", value: .number(5)) }
    }
}
