import EmbeddedStore
import Foundation
import Testing
import WallDomain

/// Parse's query language tested on posts in memory (`RecordMatch`), case by case, with Parse's
/// answers: null and missing fields, the negations, the comparisons of each type (text byte by
/// byte), arrays, `$regex` and its options, the author's sub-query, and who may read.
@Suite("Record match: Parse's query language on a post in memory")
struct RecordMatchTests {
    static let alice = StoredUser(objectId: "aliceId", username: "alice", name: "Alice", createdAt: Date(timeIntervalSince1970: 1_000))
    static let bob = StoredUser(objectId: "bobId", username: "bob", name: nil, createdAt: Date(timeIntervalSince1970: 2_000))
    static let created = Date(timeIntervalSince1970: 1_700_000_000.123)
    static let schema: [String: FieldType] = ["points": .number, "mood": .string, "seen": .boolean, "when": .date, "friend": .pointer,
                                              "tags": .array, "extra": .object]

    static func post(_ text: String = "Free coffee", author: StoredUser? = alice, access: PostAccess = .everyone,
                     fields: [String: JSONValue] = [:], parent: String? = nil, score: Int = 0, removed: PostRemoval? = nil) -> StoredPost {
        StoredPost(objectId: "post1", text: text, location: try! GeoPoint(latitude: 10, longitude: 20), author: author, createdAt: created,
                   updatedAt: created, access: access, fields: fields, parent: parent, score: score, removed: removed)
    }

    static func date(_ iso: String) -> JSONValue { .object(["__type": .string("Date"), "iso": .string(iso)]) }

    /// Whether `condition` admits `post`, read with the test schema by `roles`.
    static func admits(_ condition: RecordCondition, _ post: StoredPost = post(), roles: Set<String> = []) -> Bool {
        RecordMatch(condition, patterns: BoundedTextPatterns())!.admits(post, schema: schema, readerRoles: roles)
    }

    @Test("equality is exact and byte by byte: case, and a precomposed é is not e and a combining accent")
    func textEquality() {
        #expect(Self.admits(.compare(.text, .equal, .string("Free coffee"))))
        #expect(!Self.admits(.compare(.text, .equal, .string("free coffee"))))
        #expect(!Self.admits(.compare(.text, .equal, .string("caf\u{E9}")), Self.post("cafe\u{301}")), "Swift's == would call them equal")
        #expect(Self.admits(.compare(.text, .equal, .string("caf\u{E9}")), Self.post("caf\u{E9}")))
    }

    @Test("text orders by its UTF-8 bytes: B before a, z before é, and a prefix first")
    func textOrder() {
        #expect(Self.admits(.compare(.text, .less, .string("a")), Self.post("B")))
        #expect(!Self.admits(.compare(.text, .less, .string("B")), Self.post("a")))
        #expect(Self.admits(.compare(.text, .greater, .string("z")), Self.post("\u{E9}")))
        #expect(Self.admits(.compare(.text, .less, .string("ab")), Self.post("a")))
        #expect(Self.admits(.compare(.text, .lessOrEqual, .string("a")), Self.post("a")))
        #expect(Self.admits(.compare(.text, .greaterOrEqual, .string("a")), Self.post("a")))
        #expect(!Self.admits(.compare(.text, .greater, .string("a")), Self.post("a")))
    }

    @Test("null: equal to a missing field or one the schema lacks; $ne holds on them; no order holds with null")
    func nullAndMissing() {
        let bare = Self.post()
        #expect(Self.admits(.compare(.extra("mood"), .equal, .null), bare))
        #expect(Self.admits(.compare(.extra("unknown"), .equal, .null), bare), "a field the schema lacks is missing")
        #expect(!Self.admits(.compare(.extra("mood"), .equal, .null), Self.post(fields: ["mood": .string("calm")])))
        #expect(Self.admits(.not(.compare(.extra("mood"), .equal, .string("calm"))), bare), "$ne holds on a missing field")
        #expect(Self.admits(.not(.compare(.extra("unknown"), .equal, .string("calm"))), bare))
        #expect(!Self.admits(.compare(.extra("unknown"), .greater, .string("")), bare))
        #expect(!Self.admits(.compare(.extra("points"), .greater, .null), Self.post(fields: ["points": .number(1)])))
        #expect(!Self.admits(.compare(.extra("points"), .less, .number(100)), bare), "a missing field orders with nothing")
        #expect(Self.admits(.not(.compare(.extra("points"), .less, .number(100))), bare))
        #expect(Self.admits(.compare(.user, .equal, .null), Self.post(author: nil)))
        #expect(Self.admits(.compare(.parent, .equal, .null), bare))
    }

    @Test("$in and $nin: null in the list takes a missing field; a missing field is in no other list and outside every one")
    func among() {
        let calm = Self.post(fields: ["mood": .string("calm")]), bare = Self.post()
        #expect(Self.admits(.among(.extra("mood"), [.string("happy"), .string("calm")]), calm))
        #expect(!Self.admits(.among(.extra("mood"), [.string("happy")]), calm))
        #expect(!Self.admits(.among(.extra("mood"), [.string("happy")]), bare))
        #expect(Self.admits(.among(.extra("mood"), [.string("happy"), .null]), bare))
        #expect(Self.admits(.among(.extra("unknown"), [.null]), bare))
        #expect(!Self.admits(.among(.extra("mood"), []), calm))
        #expect(Self.admits(.not(.among(.extra("mood"), [.string("happy")])), bare), "$nin holds on a missing field")
        #expect(!Self.admits(.not(.among(.extra("mood"), [.string("calm")])), calm))
        #expect(!Self.admits(.not(.among(.extra("mood"), [.null])), bare))
        #expect(!Self.admits(.among(.extra("mood"), [.number(5), .bool(true)]), calm), "values of another type are in no list")
        #expect(Self.admits(.among(.objectId, [.string("post1")])))
    }

    @Test("$exists: set fields, never one the schema lacks; a post's author and thread when it has them")
    func exists() {
        #expect(Self.admits(.exists(.extra("mood")), Self.post(fields: ["mood": .string("")])))
        #expect(!Self.admits(.exists(.extra("mood")), Self.post()))
        #expect(!Self.admits(.exists(.extra("unknown")), Self.post(fields: ["unknown": .string("x")])))
        #expect(Self.admits(.not(.exists(.extra("mood"))), Self.post()))
        #expect(Self.admits(.exists(.extra("tags")), Self.post(fields: ["tags": .array([])])))
        #expect(Self.admits(.exists(.extra("extra")), Self.post(fields: ["extra": .object(["a": .number(1)])])))
        #expect(!Self.admits(.exists(.user), Self.post(author: nil)))
        #expect(Self.admits(.exists(.parent), Self.post(parent: "thread")))
        #expect(!Self.admits(.exists(.removed), Self.post()))
    }

    @Test("numbers and booleans compare as such; a value of another type matches nothing, so its $ne holds")
    func numbersAndBooleans() {
        let post = Self.post(fields: ["points": .number(5), "seen": .bool(true)], score: -2)
        #expect(Self.admits(.compare(.extra("points"), .equal, .number(5)), post))
        #expect(Self.admits(.compare(.extra("points"), .greater, .number(4.5)), post))
        #expect(!Self.admits(.compare(.extra("points"), .less, .number(5)), post))
        #expect(!Self.admits(.compare(.extra("points"), .equal, .string("5")), post))
        #expect(!Self.admits(.compare(.extra("points"), .less, .string("6")), post))
        #expect(Self.admits(.not(.compare(.extra("points"), .equal, .string("5"))), post))
        #expect(Self.admits(.compare(.extra("seen"), .equal, .bool(true)), post))
        #expect(!Self.admits(.compare(.extra("seen"), .equal, .number(1)), post), "true is not 1")
        #expect(Self.admits(.compare(.extra("seen"), .greater, .bool(false)), post), "false orders before true")
        #expect(Self.admits(.compare(.score, .less, .number(0)), post))
        #expect(Self.admits(.compare(.replyCount, .equal, .number(0)), post))
        #expect(!Self.admits(.compare(.extra("extra"), .equal, .string("x")), Self.post(fields: ["extra": .object([:])])))
    }

    @Test("dates: built-in ones to the millisecond; added ones as instants, given as Dates")
    func dates() {
        let post = Self.post(fields: ["when": Self.date("2024-01-01T10:00:00.000Z")])
        #expect(Self.admits(.compare(.createdAt, .equal, .date(Date(timeIntervalSince1970: 1_700_000_000.1234))), post))
        #expect(Self.admits(.compare(.createdAt, .less, .date(Date(timeIntervalSince1970: 1_700_000_000.124))), post))
        #expect(Self.admits(.compare(.updatedAt, .greaterOrEqual, .date(Self.created)), post))
        #expect(!Self.admits(.compare(.createdAt, .equal, .string("2023-11-14T22:13:20.123Z")), post), "a string is not a date")
        let instant = ParseDate.date(from: "2024-01-01T10:00:00.000Z")!
        #expect(Self.admits(.compare(.extra("when"), .equal, .date(instant)), post))
        #expect(Self.admits(.compare(.extra("when"), .less, .date(instant.addingTimeInterval(0.001))), post))
        #expect(Self.admits(.compare(.extra("when"), .greater, .date(ParseDate.date(from: "2023-12-31T23:59:59.999Z")!)), post))
        #expect(!Self.admits(.compare(.extra("when"), .equal, .string("2024-01-01T10:00:00.000Z")), post))
        #expect(Self.admits(.among(.extra("when"), [.date(instant)]), post))
    }

    @Test("Pointers compare by objectId: the author, the thread, and an added Pointer")
    func pointers() {
        let post = Self.post(fields: ["friend": .object(["__type": .string("Pointer"), "className": .string("_User"), "objectId": .string("bobId")])],
                             parent: "thread1")
        #expect(Self.admits(.compare(.user, .equal, .string("aliceId")), post))
        #expect(!Self.admits(.compare(.user, .equal, .string("bobId")), post))
        #expect(!Self.admits(.compare(.user, .equal, .string("aliceId")), Self.post(author: nil)))
        #expect(Self.admits(.not(.compare(.user, .equal, .string("aliceId"))), Self.post(author: nil)))
        #expect(Self.admits(.compare(.parent, .equal, .string("thread1")), post))
        #expect(Self.admits(.compare(.extra("friend"), .equal, .string("bobId")), post))
        #expect(Self.admits(.among(.extra("friend"), [.string("x"), .string("bobId")]), post))
        #expect(!Self.admits(.compare(.extra("friend"), .equal, .number(1)), post))
    }

    @Test("an array field holds a scalar of its own JSON type; $in asks for any of them; orders never hold")
    func arrays() {
        let post = Self.post(fields: ["tags": .array([.string("food"), .number(5), .bool(true)])])
        #expect(Self.admits(.compare(.extra("tags"), .equal, .string("food")), post))
        #expect(!Self.admits(.compare(.extra("tags"), .equal, .string("Food")), post))
        #expect(Self.admits(.compare(.extra("tags"), .equal, .number(5)), post))
        #expect(!Self.admits(.compare(.extra("tags"), .equal, .string("5")), post))
        #expect(!Self.admits(.compare(.extra("tags"), .equal, .number(1)), post), "true is not 1")
        #expect(Self.admits(.compare(.extra("tags"), .equal, .bool(true)), post))
        #expect(!Self.admits(.compare(.extra("tags"), .greater, .string("a")), post))
        #expect(Self.admits(.among(.extra("tags"), [.string("music"), .string("food")]), post))
        #expect(!Self.admits(.among(.extra("tags"), [.string("music")]), post))
        #expect(Self.admits(.not(.compare(.extra("tags"), .equal, .string("music"))), post))
        #expect(Self.admits(.among(.extra("tags"), [.string("music"), .null]), Self.post()), "null in $in takes a post without the array")
        #expect(Self.admits(.compare(.extra("tags"), .equal, .null), Self.post()))
        #expect(!Self.admits(.compare(.extra("tags"), .equal, .string("food")), Self.post()))
    }

    @Test("$regex: anywhere in the text, by code point, with i, m, s and x; never on a field that is not text")
    func regex() throws {
        let text = Self.post("Road closed\nat the bridge")
        #expect(Self.admits(.matches(.text, try TextPattern("closed")), text))
        #expect(!Self.admits(.matches(.text, try TextPattern("CLOSED")), text))
        #expect(Self.admits(.matches(.text, try TextPattern("CLOSED", options: "i")), text))
        #expect(!Self.admits(.matches(.text, try TextPattern("^at")), text))
        #expect(Self.admits(.matches(.text, try TextPattern("^at", options: "m")), text))
        #expect(!Self.admits(.matches(.text, try TextPattern("closed$")), text))
        #expect(Self.admits(.matches(.text, try TextPattern("closed$", options: "m")), text))
        #expect(!Self.admits(.matches(.text, try TextPattern("closed.at")), text))
        #expect(Self.admits(.matches(.text, try TextPattern("closed.at", options: "s")), text))
        #expect(Self.admits(.matches(.text, try TextPattern("clo sed # a comment", options: "x")), text))
        #expect(Self.admits(.matches(.text, try TextPattern("^cafe.$")), Self.post("cafe\u{301}")), "a combining accent is a code point of its own")
        #expect(!Self.admits(.matches(.text, try TextPattern("^caf.$")), Self.post("cafe\u{301}")))
        #expect(Self.admits(.matches(.extra("mood"), try TextPattern("^ha")), Self.post(fields: ["mood": .string("happy")])))
        #expect(!Self.admits(.matches(.extra("mood"), try TextPattern("")), Self.post()), "a missing field matches no pattern")
        #expect(!Self.admits(.matches(.createdAt, try TextPattern(""))), "a date is not text")
        #expect(!Self.admits(.matches(.extra("points"), try TextPattern("5")), Self.post(fields: ["points": .number(5)])))
        #expect(Self.admits(.not(.matches(.extra("mood"), try TextPattern("x"))), Self.post()))
    }

    @Test("$regex past the cost bound (a pattern that backtracks exponentially) matches nothing, and the next match is answered as usual")
    func costlyRegex() throws {
        let costly = try TextPattern("^(a|a)*b")
        #expect(!Self.admits(.matches(.text, costly), Self.post(String(repeating: "a", count: 60))))
        #expect(Self.admits(.matches(.text, costly), Self.post("aab")))
        #expect(Self.admits(.matches(.text, try TextPattern("^a+$")), Self.post(String(repeating: "a", count: 60))))
    }

    @Test("$and, $or and $nor: empty $and holds and empty $or does not; $nor holds when no alternative does")
    func combinations() {
        let post = Self.post(fields: ["points": .number(5)])
        #expect(Self.admits(.always, post))
        #expect(!Self.admits(.any([]), post))
        #expect(Self.admits(.any([.compare(.extra("points"), .equal, .number(1)), .compare(.text, .equal, .string("Free coffee"))]), post))
        #expect(!Self.admits(.all([.compare(.extra("points"), .equal, .number(5)), .exists(.extra("mood"))]), post))
        #expect(Self.admits(.not(.any([.exists(.extra("mood")), .compare(.extra("points"), .greater, .number(5))])), post))
        #expect(!Self.admits(.not(.any([.exists(.extra("mood")), .compare(.extra("points"), .equal, .number(5))])), post))
    }

    @Test("the author's sub-query: the user's own fields; a post without an author is among no users")
    func authorAmong() throws {
        #expect(Self.admits(.authorAmong(.compare(.username, .equal, .string("alice")))))
        #expect(!Self.admits(.authorAmong(.compare(.username, .equal, .string("bob")))))
        #expect(Self.admits(.authorAmong(.matches(.name, try TextPattern("^al", options: "i")))))
        #expect(Self.admits(.authorAmong(.compare(.name, .equal, .null)), Self.post(author: Self.bob)))
        #expect(Self.admits(.authorAmong(.compare(.createdAt, .less, .date(Date(timeIntervalSince1970: 1_500)))), Self.post()))
        #expect(Self.admits(.authorAmong(.compare(.updatedAt, .equal, .date(Self.alice.createdAt)))))
        #expect(!Self.admits(.authorAmong(.always), Self.post(author: nil)))
        #expect(Self.admits(.not(.authorAmong(.always)), Self.post(author: nil)), "$notInQuery holds for a post without an author")
    }

    @Test("who may read: the ACL's users and roles, everyone without one; a removed post only its author and the moderators")
    func readable() throws {
        let open = Self.post()
        #expect(Self.admits(.readable(by: nil), open))
        #expect(Self.admits(.readable(by: "bobId"), open))
        let private_ = Self.post(access: try PostAccess(acl: ["aliceId": [.read, .write], "role:friends": .read]))
        #expect(!Self.admits(.readable(by: nil), private_))
        #expect(Self.admits(.readable(by: "aliceId"), private_))
        #expect(!Self.admits(.readable(by: "bobId"), private_))
        #expect(Self.admits(.readable(by: "bobId"), private_, roles: ["friends"]))
        #expect(!Self.admits(.readable(by: nil), private_, roles: ["friends"]), "nobody signed in holds no role")
        let writeOnly = Self.post(access: try PostAccess(acl: ["*": .write]))
        #expect(!Self.admits(.readable(by: "aliceId"), writeOnly))
        let removed = Self.post(removed: .reports)
        #expect(!Self.admits(.readable(by: nil), removed))
        #expect(!Self.admits(.readable(by: "bobId"), removed))
        #expect(Self.admits(.readable(by: "aliceId"), removed), "its author")
        #expect(Self.admits(.readable(by: "bobId"), removed, roles: [RoleName.moderators]))
        #expect(!Self.admits(.readable(by: "bobId"), Self.post(access: try PostAccess(acl: ["aliceId": .read]), removed: .moderator),
                             roles: [RoleName.moderators]), "a moderator still needs the ACL's read")
        #expect(Self.admits(.compare(.removed, .equal, .string("reports")), removed))
    }

    @Test("a role's users (holdsRole) cannot be matched without the store: refused, wherever it stands")
    func holdsRole() {
        #expect(RecordMatch(.authorAmong(.holdsRole("role1")), patterns: BoundedTextPatterns()) == nil)
        #expect(RecordMatch(.any([.exists(.text), .not(.authorAmong(.all([.holdsRole("role1")])))]), patterns: BoundedTextPatterns()) == nil)
        #expect(!RecordCondition.holdsRole("r").isLiveMatchable)
        #expect(RecordCondition.not(.authorAmong(.compare(.username, .equal, .string("a")))).and(.readable(by: nil)).isLiveMatchable)
    }
}
