import HummingbirdWebSocket
import WallDomain

/// One LiveQuery socket: the client's messages handed to the hub in the order they came, and
/// what the hub queues for the client written out by a task of its own, so that a client that
/// does not read holds up no one but itself.
package enum LiveQueryConnection {
    /// The largest message a client may send: a `where` with room to spare.
    package static let maxMessageSize = 1 << 16

    static func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, client: LiveClient, hub: LiveQueryHub) async {
        let writer = Task {
            while let message = await client.queue.next() {
                guard (try? await outbound.writeTextMessage(message.text)) != nil else { return }
                if let event = message.event { client.wrote(event.requestId, seq: event.seq) }
            }
            // The queue closed: the client read too slowly, and has been told where to resume.
            try? await outbound.close(.policyViolation, reason: "too slow")
        }
        do {
            for try await message in inbound.messages(maxSize: maxMessageSize) {
                let text: String
                switch message {
                case .text(let string): text = string
                case .binary(let bytes): text = String(decoding: bytes.readableBytesView, as: UTF8.self)
                }
                await handle(text, client: client, hub: hub)
            }
        } catch {
            // A frame over the size or a broken socket: the connection ends, as below.
        }
        client.queue.close()
        writer.cancel()
        await hub.disconnect(client)
    }

    /// Hands one message to the hub and queues its answer or refusal.
    package static func handle(_ text: String, client: LiveClient, hub: LiveQueryHub) async {
        var requestId: Double?
        do {
            // Text that is not JSON is dropped without a word, as Parse Server drops it.
            guard let request = try LiveQueryRequest.read(text) else { return }
            switch request {
            case .connect(let connect):
                try await hub.connect(client, connect)
            case .subscribe(let subscribe):
                requestId = subscribe.requestId
                try await hub.subscribe(client, subscribe)
            case .update(let subscribe):
                requestId = subscribe.requestId
                try await hub.subscribe(client, subscribe, replacing: true)
            case .unsubscribe(let id):
                try await hub.unsubscribe(client, requestId: id)
            }
        } catch {
            // Parse names the subscription in the refusals of its query, not in those of the protocol.
            await hub.push(LiveQueryReply.error(error, requestId: error.code > 4 ? requestId : nil), to: client)
        }
    }
}
