import AnywallSupport
import ParseWire
import Synchronization

/// The most bytes of results one request may be answered with, a batch's sub-requests together:
/// a find's page is bounded in posts (`PostQuery.maxLimit`), but not in bytes, and fifty finds of
/// a thousand large posts in one 14 kB batch made a 125 MB answer that the server's memory kept.
/// Shared by reference, so a batch's sub-requests draw on their batch's budget.
final class AnswerBudget: Sendable {
    /// Parse Server has no such bound (its `maxUploadSize` bounds what comes in); a thousand
    /// posts of Anywall's size take a tenth of it.
    static let maxBytes = 8 * 1024 * 1024

    private let remaining: Mutex<Int>

    init(bytes: Int = maxBytes) {
        remaining = Mutex(bytes)
    }

    deinit {
        // An answer of more than a megabyte, built and sent: its memory goes back to the system.
        if remaining.withLock({ $0 }) < Self.maxBytes - 1024 * 1024 { MemoryTrim.noteLargeRelease() }
    }

    /// Takes `bytes` from the budget, or refuses the answer with Parse's 116 when they do not fit.
    func take(_ bytes: Int) throws(ParseRefusal) {
        let fits = remaining.withLock { left in
            guard bytes <= left else { return false }
            left -= bytes
            return true
        }
        guard fits else {
            throw ParseRefusal(ParseErrorCode.objectTooLarge, "The answer would take more than \(Self.maxBytes / (1024 * 1024)) MiB, "
                               + "the most this server sends to one request: ask for fewer results (limit) or fewer fields (keys)")
        }
    }
}
