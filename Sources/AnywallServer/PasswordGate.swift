import Foundation
import ParseWire
import WallDomain

/// What stands before every password check (sign-up and log-in). scrypt is slow by design, so
/// unchecked attempts would be a way to stall the wall for everyone:
/// - each address has a budget of attempts that refills over time;
/// - a username's failed log-ins past a few make it wait, twice as long after each further one;
/// - only a few checks run at once (the rest wait their turn, a bounded number of them), so
///   reads and posts always keep a core.
/// A refused attempt is Parse Server's rate-limit answer (429, code 100) and costs no hashing.
actor PasswordGate {
    private struct Budget {
        var attempts: Double
        var at: ContinuousClock.Instant
    }

    private struct Failures {
        var count: Int
        var until: ContinuousClock.Instant
    }

    private let limits: PasswordLimits
    private var budgets: [String: Budget] = [:]
    private var failures: [String: Failures] = [:]
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limits: PasswordLimits = PasswordLimits()) {
        self.limits = limits
    }

    /// Runs `check` (which hashes a password) for `username` from `address` when the limits
    /// allow, and notes whether the password was right: `check` throws when it was not.
    func attempt<T: Sendable>(username: String, address: String?, _ check: @Sendable () async throws -> T) async throws -> T {
        // Counted under the name as the stores compare it: `VICTIM` and `victim ` are the same account.
        let username = Username.folded(username)
        let now = ContinuousClock.now
        if let wait = failures[username].map({ $0.until - now }), wait > .zero {
            throw ParseRefusal.tooManyRequests("Too many failed log-ins for this user; try again later.", retryAfter: Self.seconds(wait))
        }
        if let address = address.map(AddressList.client) {
            var budget = budgets[address] ?? Budget(attempts: Double(limits.attemptsPerAddress), at: now)
            budget.attempts = min(Double(limits.attemptsPerAddress), budget.attempts + (now - budget.at) / limits.refillInterval)
            budget.at = now
            guard budget.attempts >= 1 else {
                budgets[address] = budget
                throw ParseRefusal.tooManyRequests("Too many log-in and sign-up attempts from this address; try again later.",
                                                   retryAfter: Self.seconds(limits.refillInterval * (1 - budget.attempts)))
            }
            budget.attempts -= 1
            budgets[address] = budget
        }
        keepMemoryBounded()
        try await takeTurn()
        defer { endTurn() }
        do {
            let result = try await check()
            failures[username] = nil
            return result
        } catch let refusal as ParseRefusal where refusal.error.code == ParseErrorCode.objectNotFound {
            noteFailure(of: username)
            throw refusal
        }
    }

    private func noteFailure(of username: String) {
        let count = (failures[username]?.count ?? 0) + 1
        // The last free failure makes the next attempt wait a second; each further one doubles it.
        let beyond = count - limits.freeFailures
        let wait = beyond >= 0 ? min(limits.longestWait, .seconds(1) * (1 << min(beyond, 20))) : .zero
        failures[username] = Failures(count: count, until: .now + wait)
    }

    private func takeTurn() async throws {
        if running < limits.concurrentChecks {
            running += 1
            return
        }
        guard waiting.count < limits.waitingChecks else {
            throw ParseRefusal.tooManyRequests("The server is busy checking passwords; try again in a moment.", retryAfter: 1)
        }
        // endTurn hands its slot over: `running` stays counted for the one resumed.
        await withCheckedContinuation { waiting.append($0) }
    }

    private func endTurn() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Keeps memory bounded under a flood of made-up usernames or addresses: past the limit, the
    /// entries that no longer hold anyone back go first, then the rest.
    private func keepMemoryBounded() {
        let now = ContinuousClock.now
        if failures.count > limits.remembered {
            failures = failures.filter { $0.value.until > now }
            if failures.count > limits.remembered { failures.removeAll() }
        }
        if budgets.count > limits.remembered {
            budgets = budgets.filter { $0.value.attempts < Double(limits.attemptsPerAddress) - 1 }
            if budgets.count > limits.remembered { budgets.removeAll() }
        }
    }

    private static func seconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0))
    }
}

/// The `PasswordGate`'s numbers; the defaults suit a group's wall.
package struct PasswordLimits: Sendable {
    /// Attempts an address may make at once before it must wait for its budget to refill.
    package var attemptsPerAddress = 20
    /// One attempt comes back to an address's budget every this often.
    package var refillInterval: Duration = .seconds(3)
    /// Failed log-ins a username may have before it must wait between attempts.
    package var freeFailures = 5
    /// The longest a username is made to wait.
    package var longestWait: Duration = .seconds(900)
    /// Password checks running at once.
    package var concurrentChecks = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// Attempts waiting for a check to run, past which more are refused.
    package var waitingChecks = 64
    /// Addresses and usernames remembered; the oldest are forgotten past it.
    package var remembered = 100_000
    /// The fewest characters a new password may have (sign-up and a password change): NIST's
    /// minimum for passwords people choose. Parse Server's `passwordPolicy` is off by default.
    package var minimumPasswordLength = 8

    package init() {}
}
