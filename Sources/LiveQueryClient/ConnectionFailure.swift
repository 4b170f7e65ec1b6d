import Foundation
import NIOCore
import NIOPosix

/// Why a connection to the LiveQuery server failed, in the system's words ("connection refused",
/// "host not found"), not the dump of NIO's error types a user cannot act on.
enum ConnectionFailure {
    static func wording(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return wording(first.error) }
            return failure.dnsAError != nil || failure.dnsAAAAError != nil ? "host not found" : "no address to connect to"
        }
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)).lowercased() }
        return String(describing: error)
    }
}
