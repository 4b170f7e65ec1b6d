import AnywallServer
import Foundation
import Testing
import WallDomain

/// The page a query keeps while it streams every candidate: the right posts, in the right order,
/// in memory bounded by the page, not by the wall.
@Suite("A query's page kept while streaming")
struct PostPageTests {
    private static func post(_ number: Int) throws -> StoredPost {
        let date = Date(timeIntervalSince1970: Double(number))
        return StoredPost(objectId: String(format: "p%06d", number), text: "post \(number)",
                          location: try GeoPoint(latitude: 0, longitude: Double(number % 300) - 150), author: nil,
                          createdAt: date, updatedAt: date, access: .everyone)
    }

    @Test("in order: the first posts of the order among 10,000, holding at most twice the page")
    func ordered() throws {
        var page = PostPage<StoredPost>(keeping: 25, precedes: { $0.createdAt > $1.createdAt })
        var largest = 0
        for number in (0..<10_000).shuffled() {
            page.offer(try Self.post(number))
            largest = max(largest, page.held)
        }
        #expect(page.posts.map(\.text) == (9975..<10_000).reversed().map { "post \($0)" })
        #expect(largest <= 50)
    }

    @Test("without an order: the first posts as they came, the rest not kept")
    func unordered() throws {
        var page = PostPage<StoredPost>(keeping: 3, precedes: nil)
        for number in 0..<1000 { page.offer(try Self.post(number)) }
        #expect(page.posts.map(\.text) == ["post 0", "post 1", "post 2"])
        #expect(page.held == 3)
    }

    @Test("a page of none keeps none")
    func empty() throws {
        var page = PostPage<StoredPost>(keeping: 0, precedes: { $0.createdAt < $1.createdAt })
        for number in 0..<100 { page.offer(try Self.post(number)) }
        #expect(page.posts.isEmpty && page.held <= 2)
    }
}
