import HummingbirdCore
import Logging
import NIOCore

/// Every connection from its first byte, ahead of the HTTP pipeline: counted in its address's
/// share for as long as it is open (`ConnectionsPerAddress`), and closed when no request head has
/// come within `headTimeout`, or when the server stops before one has, or while it is a LiveQuery
/// socket. With WebSocket upgrades on, Hummingbird adds its own idle handling (and the handlers
/// it is given) only once a first head is read, so a connection that sends nothing, or dribbles
/// its first head, would otherwise stay open and uncounted.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    /// Sent down the pipeline (an outbound user event) when the connection has a use: a request
    /// head arrived (`.request`), or it became a LiveQuery socket (`.socket`).
    enum Arrival: Sendable {
        case request
        case socket
    }

    private let counts: ConnectionsPerAddress
    private let headTimeout: TimeAmount
    private var counted: String?
    private var deadline: Scheduled<Void>?
    private var isSocket = false

    init(counts: ConnectionsPerAddress, headTimeout: TimeAmount) {
        self.counts = counts
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if let address = context.channel.remoteAddress?.ipAddress {
            guard counts.admit(address) else {
                context.close(promise: nil)
                return
            }
            counted = address
        }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: headTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        if let counted { counts.release(counted) }
        counted = nil
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let arrival = event as? Arrival else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        deadline?.cancel()
        deadline = nil
        isSocket = arrival == .socket
        promise?.succeed()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server stopping: a connection with no request yet, or a LiveQuery socket (whose
        // client resumes from its last seq on another server, or this one again), is closed.
        if event is ChannelShouldQuiesceEvent, deadline != nil || isSocket {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Tells `ConnectionGuard` a request head arrived: Hummingbird adds it (with its own idle
/// handling) once it has read a first head that is not a WebSocket upgrade.
final class RequestArrivalSignal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        context.channel.triggerUserOutboundEvent(ConnectionGuard.Arrival.request, promise: nil)
    }
}

/// A server child channel with `ConnectionGuard` at the head of every connection's pipeline.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    let inner: Inner
    let counts: ConnectionsPerAddress
    let headTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Inner.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(counts: counts, headTimeout: headTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Inner.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
