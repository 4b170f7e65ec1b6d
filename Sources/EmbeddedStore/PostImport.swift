import Dispatch
import Foundation
import WallDomain

/// Where an import is, after each batch it wrote.
public struct ImportProgress: Sendable {
    /// What the batches written so far did.
    public var outcome = ImportOutcome()
    /// The records of the last batch that could not be used, in input order.
    public var rejected: [RejectedRecord] = []
    /// The bytes of the input read so far, and its size when it is a regular file.
    public var bytesRead: Int64 = 0
    public var inputSize: Int64?
}

/// A whole import into the embedded wall, in two stages on two threads: the next batch is read
/// and decoded while the one before is written, so the import goes at the pace of the slower
/// stage instead of both one after the other. At most three batches are held at a time (one
/// decoding, one waiting, one writing): memory stays bounded whatever the input's size.
public final class PostImport: @unchecked Sendable {
    // Unchecked: after `run` starts, only the reader touches `reader`; the batches pass through
    // `handoff`, which locks.
    private let reader: PostImportReader
    private let wall: EmbeddedWall
    private let batchSize: Int
    private let pointsInMemory: Int
    private let handoff = BatchHandoff()

    /// Imports what `reader` reads into `wall`, `batchSize` records to a transaction; a load in
    /// bulk keeps up to `pointsInMemory` points for its index build (`EmbeddedWall.loadPosts`).
    public init(reader: PostImportReader, wall: EmbeddedWall, batchSize: Int, pointsInMemory: Int = EmbeddedWall.loadPointsInMemory) {
        self.reader = reader
        self.wall = wall
        self.batchSize = batchSize
        self.pointsInMemory = pointsInMemory
    }

    /// Runs the import to the end of the input; `progress` is called on this thread after each
    /// batch is written. A read error ends it: in a transaction per batch, the batches before it
    /// stay; a load in bulk leaves nothing.
    ///
    /// An input at least as large as the wall (an empty wall, or a file estimated to hold as many
    /// posts as the wall has) is loaded in one transaction whose location index is built at the
    /// end (`EmbeddedWall.loadPosts`); a smaller one goes in a transaction per batch, each post
    /// into the index as it is added, which costs less than building the wall's whole index anew.
    public func run(progress: (ImportProgress) -> Void) throws -> ImportOutcome {
        // The reader runs on a Dispatch worker, not a Foundation `Thread`: a Thread that had used
        // `concurrentPerform` corrupted the heap as it exited (glibc's "tcache_thread_shutdown():
        // unaligned tcache chunk detected"), about once in ten test runs here.
        let readerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [self] in
            defer { readerDone.signal() }
            while true {
                let batch = Result { try reader.nextBatch(size: batchSize) }
                let more = (try? batch.get()).map { !$0.isEmpty } ?? false
                guard handoff.put(batch), more else { return }
            }
        }
        defer { handoff.close() }
        var state = ImportProgress(inputSize: reader.inputSize)
        var batch = try handoff.take().get()
        // At the end of the input the reader has handed over its last batch: it is done, or about to
        // be. (After an error it is not waited for: it may be blocked reading a pipe.)
        if batch.isEmpty {
            readerDone.wait()
            return state.outcome
        }
        func written(_ outcome: ImportOutcome) {
            state.outcome.imported += outcome.imported
            state.outcome.alreadyPresent += outcome.alreadyPresent
            state.outcome.usersCreated += outcome.usersCreated
            state.rejected = batch.rejected
            state.bytesRead = batch.bytesRead
            progress(state)
        }
        if try loadsInBulk(first: batch, inputSize: state.inputSize) {
            try wall.loadPosts(pointsInMemory: pointsInMemory) { add in
                while !batch.isEmpty {
                    written(try add(batch.posts))
                    batch = try handoff.take().get()
                }
            }
        } else {
            var authors: [ImportedPost.Author: Int64] = [:]
            while !batch.isEmpty {
                written(try wall.importPosts(batch.posts, authors: &authors))
                batch = try handoff.take().get()
            }
        }
        readerDone.wait()
        return state.outcome
    }

    /// Whether the input holds at least as many posts as the wall, judging by the first batch.
    private func loadsInBulk(first: ImportBatch, inputSize: Int64?) throws -> Bool {
        let onWall = try wall.postCount()
        guard onWall > 0 else { return true }
        guard let inputSize, first.bytesRead > 0 else { return false }
        let records = Double(first.posts.count + first.rejected.count)
        return records * Double(inputSize) / Double(first.bytesRead) >= Double(onWall)
    }
}

/// One batch at a time from the reading thread to the writing one: the reader waits while the
/// last batch it handed over is not taken yet.
private final class BatchHandoff: @unchecked Sendable {
    // Unchecked: `slot` and `closed` are guarded by `condition`.
    private let condition = NSCondition()
    private var slot: Result<ImportBatch, Error>?
    private var closed = false

    /// Hands `batch` over once the slot is free; false when the writer has stopped taking.
    func put(_ batch: Result<ImportBatch, Error>) -> Bool {
        condition.withLock {
            while slot != nil, !closed { condition.wait() }
            guard !closed else { return false }
            slot = batch
            condition.broadcast()
            return true
        }
    }

    /// The next batch, waiting for it.
    func take() -> Result<ImportBatch, Error> {
        condition.withLock {
            while slot == nil { condition.wait() }
            defer {
                slot = nil
                condition.broadcast()
            }
            return slot!
        }
    }

    /// Stops the handoff: a reader waiting to hand over a batch gives up.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }
}
