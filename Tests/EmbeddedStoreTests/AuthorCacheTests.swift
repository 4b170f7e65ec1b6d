import EmbeddedStore
import Foundation
import GRDB
import TestSupport
import Testing
import WallDomain

/// A long-lived wall keeps the authors its nearest searches read (`AuthorCache`): what it shows
/// must still be each post's author as the wall holds it now, whoever changed the account.
@Suite("Authors kept between nearest searches")
struct AuthorCacheTests {
    private let place = try! GeoPoint(latitude: 48.8566, longitude: 2.3522)

    /// The author `nearby` shows, and the one the server's search reads, of the nearest post.
    private func authors(_ wall: EmbeddedWall) throws -> (shown: String?, username: String?) {
        let query = try WallQuery(center: place)
        return (try wall.nearby(query).first?.author, try wall.nearestPosts(query, for: .user(nil)).first?.author?.username)
    }

    @Test("a new name or username shows at the next search, changed by this wall or another process")
    func renamed() throws {
        let wall = try temporaryWall()
        let session = try wall.signUp(username: "alice", password: "pw", name: "Alice")
        _ = try wall.createPost(text: "hello", at: place, session: session, requestId: "r1")
        #expect(try authors(wall) == ("Alice", "alice"))

        // Another connection to the same file, as another process would be.
        let other = try EmbeddedWall(file: wall.file)
        try other.updateAccount(objectId: session.user.objectId, username: nil, password: nil, name: .some("Alice B."), keepingSession: nil)
        #expect(try authors(wall) == ("Alice B.", "alice"))

        try wall.updateAccount(objectId: session.user.objectId, username: "alicia", password: nil, name: .some(nil), keepingSession: nil)
        #expect(try authors(wall) == ("alicia", "alicia"))
        #expect(try authors(other) == ("alicia", "alicia"))
    }

    @Test("another wall's file restored over this one: its posts show its own authors, though both walls' accounts never changed")
    func restoredOver() throws {
        let wall = try temporaryWall(), other = try temporaryWall()
        _ = try wall.createPost(text: "hello", at: place, session: try wall.signUp(username: "alice", password: "pw", name: "Alice"), requestId: "r1")
        _ = try other.createPost(text: "hi", at: place, session: try other.signUp(username: "bob", password: "pw", name: "Bob"), requestId: "r2")
        #expect(try authors(wall) == ("Alice", "alice"))
        // SQLite's backup, as `sqlite3 wall.sqlite ".restore other.sqlite"` does it.
        try DatabaseQueue(path: other.file.path).backup(to: try DatabaseQueue(path: wall.file.path))
        #expect(try wall.nearby(try WallQuery(center: place)).map(\.text) == ["hi"])
        #expect(try authors(wall) == ("Bob", "bob"))
    }

    @Test("an account deleted and its row taken by a new one: the new author's post shows the new author")
    func rowReused() throws {
        let wall = try temporaryWall()
        let alice = try wall.signUp(username: "alice", password: "pw", name: nil)
        _ = try wall.createPost(text: "alice was here", at: place, session: alice, requestId: "r1")
        #expect(try authors(wall) == ("alice", "alice"))

        let other = try EmbeddedWall(file: wall.file)
        try other.deleteAccount(objectId: alice.user.objectId)
        #expect(try authors(wall) == (nil, nil))
        // The deleted account had the highest row id, which SQLite gives the next account.
        let bob = try other.signUp(username: "bob", password: "pw", name: nil)
        _ = try other.createPost(text: "bob is here", at: try place.moved(.meters(1), bearing: 0), session: bob, requestId: "r2")
        let posts = try wall.nearby(try WallQuery(center: place))
        #expect(posts.map(\.text) == ["alice was here", "bob is here"])
        #expect(posts.map(\.author) == [nil, "bob"])
    }
}
