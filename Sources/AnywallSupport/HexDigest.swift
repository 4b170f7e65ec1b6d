import Crypto
import Foundation
import WallDomain

/// SHA-256 digests written in hex, for file names and stored token digests.
package enum HexDigest {
    /// The first `bytes` bytes (all 32 by default) of the SHA-256 of `text`, in lowercase hex.
    package static func sha256(_ text: String, bytes: Int = 32) -> String {
        hex(SHA256.hash(data: Data(text.utf8)).prefix(bytes))
    }

    /// The HMAC-SHA256 of `text` keyed by `key`, in lowercase hex (Facebook's `appsecret_proof`).
    package static func hmacSHA256(_ text: String, key: String) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data(key.utf8))))
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        // Not String(format:), which goes through NSString: a tenth of an authenticated request.
        var hex: [UInt8] = []
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
