import AnywallServer
import AnywallSupport
import Dispatch
import EmbeddedStore
import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
import WallDomain

/// What a LiveQuery client sends anywall-server: with the first byte odd, the rest as the bytes
/// of WebSocket frames, decoded by NIO's decoder as the server decodes them and each frame's text
/// handled as a message; even, the rest as lines, each a message. The hub runs on a wall
/// (`FuzzWalls`) with a user and a post, and after each input a post is written and the log read, so that every
/// subscription the input made meets a change (its matcher, its ACL check, its event).
enum LiveQueryFuzzing {
    private static let applicationId = "fuzz"
    private static let masterKey = "fuzz-master"

    private struct Served {
        let wall: EmbeddedWall
        let hub: LiveQueryHub
        let session: Session

        init(_ wall: EmbeddedWall) throws {
            self.wall = wall
            session = try wall.signUp(username: "fuzz", password: "fuzz-password", name: nil)
            _ = try wall.createPost(text: "a post", at: try GeoPoint(latitude: 0, longitude: 0), session: session, requestId: UUID().uuidString)
            let keys = try ServerKeys.from([ServerKeys.applicationIdName: applicationId, ServerKeys.masterKeyName: masterKey])
            hub = LiveQueryHub(wall: SQLiteWallStore(wall), keys: keys, masterKeyAddresses: .loopback)
        }
    }

    /// libFuzzer runs one input at a time, on one thread.
    nonisolated(unsafe) private static var walls = FuzzWalls("live", setUp: Served.init)

    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        walls.beginInput()
        let rest = Array(input.dropFirst())
        let messages = mode % 2 == 1 ? frames(rest) : String(decoding: rest, as: UTF8.self).split(separator: "\n").map(String.init)
        let (hub, wall, session) = (walls.current.hub, walls.current.wall, walls.current.session)
        let done = DispatchSemaphore(value: 0)
        Task {
            let client = LiveClient(queueLimit: 1 << 16, address: "127.0.0.1")
            for message in messages {
                await LiveQueryConnection.handle(message.replacingOccurrences(of: "{token}", with: session.token), client: client, hub: hub)
            }
            if let place = try? GeoPoint(latitude: 0.001, longitude: 0.001) {
                _ = try? wall.createPost(text: "after the input", at: place, session: session, requestId: UUID().uuidString)
            }
            await hub.readLog()
            await hub.disconnect(client)
            client.queue.close()
            while await client.queue.next() != nil {}
            done.signal()
        }
        done.wait()
    }

    /// The text of each frame NIO's decoder reads from `bytes`, as the server's connection gets it.
    private static func frames(_ bytes: [UInt8]) -> [String] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: LiveQueryConnection.maxMessageSize)))
        defer { _ = try? channel.finish() }
        var texts: [String] = []
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            while let frame = try channel.readInbound(as: WebSocketFrame.self) {
                texts.append(String(buffer: frame.unmaskedData))
            }
        } catch {
            // A frame the decoder refuses closes the connection: what came before it was handled.
        }
        return texts
    }
}
