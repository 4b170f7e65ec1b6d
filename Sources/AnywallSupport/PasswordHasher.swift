import Crypto
import Foundation
import WallDomain
import _CryptoExtras

/// Password hashes with scrypt (swift-crypto), a slow, salted, memory-hard KDF.
///
/// Stored as `scrypt$N$r$p$SALT$HASH` (base64), so the cost can be raised later without
/// breaking existing hashes.
public struct PasswordHasher: Sendable {
    public let rounds: Int
    public let blockSize: Int
    public let parallelism: Int

    /// Interactive-login strength (N = 2^14, r = 8, p = 1: 16 MiB, tens of milliseconds).
    public static let standard = PasswordHasher(rounds: 1 << 14, blockSize: 8, parallelism: 1)

    /// scrypt's cost parameters: N (a power of two), r and p.
    public init(rounds: Int, blockSize: Int, parallelism: Int) {
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// A new hash of `password` with a fresh random salt.
    public func hash(_ password: String) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var rng = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = rng.next() }
        let key = try Self.derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return ["scrypt", "\(rounds)", "\(blockSize)", "\(parallelism)",
                Data(salt).base64EncodedString(), Data(key).base64EncodedString()].joined(separator: "$")
    }

    /// Spends the time `verify` would on a hash of this strength, and answers false: a log-in as
    /// an account that does not exist (or has no password) then takes as long as a wrong
    /// password, so its time does not tell which usernames exist.
    public func matchesNoAccount(_ password: String) -> Bool {
        _ = try? Self.derive(password, salt: Self.noAccountSalt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return false
    }

    private static let noAccountSalt = [UInt8](repeating: 0x5A, count: 16)

    /// Whether `password` matches `stored`, compared in constant time.
    public static func verify(_ password: String, against stored: String) throws -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt",
              let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]) else {
            throw AnywallError.failure("a stored password hash is damaged")
        }
        let key: [UInt8]
        do {
            key = try derive(password, salt: [UInt8](salt), rounds: n, blockSize: r, parallelism: p, length: expected.count)
        } catch {
            throw AnywallError.failure("a stored password hash is damaged (\(error))")
        }
        var difference: UInt8 = 0
        for (a, b) in zip(key, expected) { difference |= a ^ b }
        return difference == 0 && key.count == expected.count
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int, blockSize: Int,
                               parallelism: Int, length: Int = 32) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: length,
                                           rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
