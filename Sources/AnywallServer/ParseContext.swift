import AnywallSupport
import EmbeddedStore
import Hummingbird
import NIOCore
import ParseWire
import WallDomain

/// What the server knows of one request: where it came from, and who is asking once the keys
/// are checked.
package struct ParseContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's address, for the access log.
    let remoteAddress: String
    /// Set by `KeyCheck` before any Parse route runs.
    var caller = Caller()

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "-"
    }
}

/// Who is asking: the master key, and/or a session token (not yet checked against the wall).
struct Caller: Sendable {
    var isMaster = false
    var sessionToken: String?
}
