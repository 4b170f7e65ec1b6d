import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Accounts, posts and config on the embedded wall")
struct EmbeddedAccountTests {
    @Test("sign up, log in, wrong password, taken username (any case)")
    func accounts() throws {
        let wall = try temporaryWall()
        let session = try wall.signUp(username: "alice", password: "s3cret", name: "Alice")
        #expect(try wall.currentUser(session).displayName == "Alice")
        #expect(try wall.logIn(username: "alice", password: "s3cret").user.username == "alice")
        #expect(throws: AnywallError.badCredentials) { try wall.logIn(username: "alice", password: "nope") }
        #expect(throws: AnywallError.badCredentials) { try wall.logIn(username: "bob", password: "x") }
        #expect(throws: AnywallError.usernameTaken("ALICE")) {
            try wall.signUp(username: "ALICE", password: "x", name: nil)
        }
    }

    @Test("a logged-out session can no longer post")
    func logout() throws {
        let wall = try temporaryWall()
        let session = try wall.signUp(username: "alice", password: "pw", name: nil)
        try wall.logOut(session)
        #expect(throws: AnywallError.sessionExpired) {
            try wall.createPost(text: "hi", at: GeoPoint(latitude: 1, longitude: 2), session: session, requestId: "r1")
        }
        #expect(try wall.nearby(try WallQuery(center: GeoPoint(latitude: 1, longitude: 2))).isEmpty)
    }

    @Test("the wall stores neither passwords nor session tokens in clear")
    func secretsAtRest() throws {
        let wall = try temporaryWall()
        let session = try wall.signUp(username: "alice", password: "correct horse battery", name: nil)
        let bytes = try Data(contentsOf: wall.file) + ((try? Data(contentsOf: URL(fileURLWithPath: wall.file.path + "-wal"))) ?? Data())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("correct horse battery"))
        #expect(!text.contains(session.token))
        #expect(text.contains("scrypt$"))
    }

    @Test("posts keep their author, place and time")
    func post() throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000.123)
        let wall = try temporaryWall(clock: WallClock { now })
        let session = try wall.signUp(username: "bob", password: "pw", name: nil)
        let place = try GeoPoint(latitude: 37.123456789012345, longitude: -122.98765432109876)
        let post = try wall.createPost(text: "Free coffee", at: place, session: session, requestId: UUID().uuidString)
        let found = try wall.nearby(try WallQuery(center: place))
        #expect(found == [post])
        #expect(found[0].location == place)
        #expect(found[0].author == "bob")
        #expect(found[0].createdAt == now)
    }

    @Test("imported authors cannot log in until given a password")
    func importedAuthors() throws {
        let wall = try temporaryWall()
        let post = try JSONDecoder().decode(ImportedPost.self, from: Data("""
            {"objectId":"a","text":"hi","location":{"__type":"GeoPoint","latitude":1,"longitude":2},
             "user":{"__type":"Pointer","className":"_User","objectId":"u1","username":"carol"}}
            """.utf8))
        #expect(try wall.importPosts([post]).usersCreated == 1)
        #expect(throws: AnywallError.noPassword(username: "carol")) {
            try wall.logIn(username: "carol", password: "x")
        }
        try wall.setPassword(username: "carol", password: "new")
        #expect(try wall.logIn(username: "carol", password: "new").user.objectId == "u1")
    }

    @Test("config: defaults, set with validation, init keeps what is set")
    func config() throws {
        let wall = try temporaryWall()
        #expect(try wall.fetchConfig() == .defaults)
        #expect(try wall.setConfig("postMaxCharacterCount", to: .number(200), masterKey: nil).postMaxCharacterCount == 200)
        #expect(throws: AnywallError.self) { try wall.setConfig("postMaxCharacterCount", to: .string("x"), masterKey: nil) }
        #expect(throws: AnywallError.self) { try wall.setConfig("availableFilterDistances", to: .array([.number(-1)]), masterKey: nil) }
        let config = try wall.initialize(masterKey: nil)
        #expect(config.postMaxCharacterCount == 200)
        #expect(config.availableFilterDistances == RemoteConfig.defaultFilterDistances)
    }
}
