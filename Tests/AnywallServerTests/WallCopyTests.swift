import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("anywall-server copy and the social layer")
struct WallCopyTests {
    private static let keys = ["PARSE_SERVER_APPLICATION_ID": Sandbox.applicationId, "PARSE_SERVER_MASTER_KEY": Sandbox.masterKey]

    @Test("a wall with a vote is not copied half: refused, nothing written; without one it copies")
    func refusesWhatItCannotMove() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-copy-\(UUID().uuidString)")
        let here = try GeoPoint(latitude: 37.7793, longitude: -122.4193)
        let source = try temporaryWall(file: folder.appendingPathComponent("source.sqlite"))
        let alice = try source.signUp(username: "alice", password: "pw", name: nil)
        let post = try source.createPost(text: "Free coffee", at: here, session: alice, requestId: "r")
        let plain = folder.appendingPathComponent("plain.sqlite")
        let copied = try WallServer.runToExitWithOutput(["copy", "--from", source.file.path, "--to", plain.path], environment: Self.keys)
        #expect(copied.status == 0, "\(copied)")

        let bob = try source.signUp(username: "bob", password: "pw", name: nil)
        _ = try source.vote(.up, on: post.objectId, from: here, radius: FilterRadius.defaultRadius, session: bob)
        let target = folder.appendingPathComponent("target.sqlite")
        let refused = try WallServer.runToExitWithOutput(["copy", "--from", source.file.path, "--to", target.path], environment: Self.keys)
        #expect(refused.status != 0 && refused.stderr.contains("holds replies, votes") && refused.stdout.isEmpty, "\(refused)")
        #expect(try EmbeddedWall(file: target).isEmptyWall())
    }

    @Test("an account's identities (authData) are copied with it: an anonymous account still logs in on the copy")
    func copiesIdentities() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-copy-\(UUID().uuidString)")
        let source = try temporaryWall(file: folder.appendingPathComponent("source.sqlite"))
        let device = AuthIdentity(provider: "anonymous", id: "copied-device")
        let facebook = AuthIdentity(provider: "facebook", id: "1001", fields: ["expiration_date": .string("2030-01-01T00:00:00.000Z")])
        let session = try source.signUp(identities: [device, facebook], username: nil, password: nil, name: nil)
        let copy = folder.appendingPathComponent("copy.sqlite")
        let copied = try WallServer.runToExitWithOutput(["copy", "--from", source.file.path, "--to", copy.path], environment: Self.keys)
        #expect(copied.status == 0, "\(copied)")
        let target = try EmbeddedWall(file: copy)
        #expect(try target.accounts(with: [device]).map(\.objectId) == [session.user.objectId])
        #expect(Set(try target.identities(ofUser: session.user.objectId)) == [device, facebook])
    }
}
