import Crypto
import Foundation
import WallDomain

/// SHA-256 digests written in hex, for file names and stored token digests.
package enum HexDigest {
    /// The first `bytes` bytes (all 32 by default) of the SHA-256 of `text`, in lowercase hex.
    package static func sha256(_ text: String, bytes: Int = 32) -> String {
        SHA256.hash(data: Data(text.utf8)).prefix(bytes).map { String(format: "%02x", $0) }.joined()
    }
}
