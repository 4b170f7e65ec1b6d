import EmbeddedStore
import Foundation
import PostgresStore
import WallDomain

/// `anywall-server copy`: a wall's records from one store to another (a SQLite file or a
/// PostgreSQL database, either way): accounts with their password hashes, open sessions, posts
/// with their authors and times, and the config, so members keep their log-ins and posts.
package enum WallCopy {
    /// What a copy moved.
    package struct Counts: Equatable, Sendable {
        package var accounts = 0, sessions = 0, posts = 0, configKeys = 0
    }

    /// Copies every record of `source` into `destination`, which must hold no account, post or
    /// config unless `replacing` (then its records are removed first). Request ids are not copied:
    /// they only guard retries of requests already answered.
    package static func copy(from source: WallLocation, to destination: WallLocation, replacing: Bool) async throws(ServerFailure) -> Counts {
        // Opening a SQLite file makes it: a mistyped source would otherwise copy an empty wall.
        if case .file(let file) = source, !FileManager.default.fileExists(atPath: file.path) {
            throw .wall("there is no wall at \(file.path)")
        }
        let from = try await open(source), to = try await open(destination)
        defer { from.close(); to.close() }
        // Replies would arrive as posts of their own, and votes not at all: refused rather than half moved.
        if (try? await from.holdsConversation()) != false {
            throw .wall("\(source) holds replies, votes, reports or moderators, which copy does not move yet (issue 33): nothing was copied")
        }
        // Each batch is its own transaction: a copy that fails halfway leaves part of the wall.
        var written = false
        do {
            if try await !to.isEmptyWall() {
                guard replacing else {
                    throw ServerFailure.configuration("\(destination) already holds a wall: give --replace to remove its records first")
                }
                try await to.removeAllRecords()
            }
            var counts = Counts()
            let accounts = try await from.accountRecords(), sessions = try await from.sessionRecords(), params = try await from.configParams()
            written = true
            try await to.insert(accounts: accounts, sessions: sessions, params: params)
            try await to.changePostFields(adding: try await from.postSchema().types, deleting: [])
            try await to.setParams([:], deleting: [], masterKeyOnly: Dictionary(uniqueKeysWithValues: try await from.masterKeyOnlyParams().map { ($0, true) }))
            (counts.accounts, counts.sessions, counts.configKeys) = (accounts.count, sessions.count, params.count)
            var position: Int64 = 0
            while true {
                let batch = try await from.postBatch(after: position)
                guard let last = batch.last else { break }
                try await to.insert(posts: batch.posts)
                counts.posts += batch.posts.count
                position = last
            }
            try await to.finishCopy()
            return counts
        } catch let failure as ServerFailure {
            throw failure
        } catch {
            let reason = (error as? AnywallError)?.reason ?? "\(error)"
            let partial = written ? "; \(destination) may hold part of the wall: copy again with --replace" : ""
            throw .wall("copying from \(source) to \(destination) failed: \(reason)\(partial)")
        }
    }

    private static func open(_ location: WallLocation) async throws(ServerFailure) -> any WallRecordStore {
        switch location {
        case .file(let file):
            do {
                return EmbeddedRecordStore(wall: try EmbeddedWall(file: file))
            } catch {
                throw .wall((error as? AnywallError)?.reason ?? "\(error)")
            }
        case .postgres(let address, _):
            do {
                return try await PostgresWall(address, sessionLength: EmbeddedWall.defaultSessionLength)
            } catch {
                throw ServerFailure(error)
            }
        }
    }
}

/// A store as a copy reads and fills it.
protocol WallRecordStore {
    func isEmptyWall() async throws -> Bool
    func removeAllRecords() async throws
    func accountRecords() async throws -> [WallRecords.Account]
    func sessionRecords() async throws -> [WallRecords.OpenSession]
    func configParams() async throws -> [String: JSONValue]
    func postBatch(after position: Int64) async throws -> (posts: [WallRecords.PostRecord], last: Int64?)
    func insert(accounts: [WallRecords.Account], sessions: [WallRecords.OpenSession], params: [String: JSONValue]) async throws
    func insert(posts: [WallRecords.PostRecord]) async throws
    func postSchema() async throws -> PostSchema
    func masterKeyOnlyParams() async throws -> Set<String>
    func setParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) async throws
    func changePostFields(adding types: [String: FieldType], deleting names: Set<String>) async throws
    /// Whether the store holds replies, votes, reports or moderators, which a copy does not move yet.
    func holdsConversation() async throws -> Bool
    /// Readies the store to serve the posts a copy added, once the last is in.
    func finishCopy() async throws
    func close()
}

extension PostgresWall: WallRecordStore {}

/// The SQLite file, whose calls block: a copy is a command of its own, with nothing else to serve.
private struct EmbeddedRecordStore: WallRecordStore {
    let wall: EmbeddedWall

    func isEmptyWall() throws -> Bool { try wall.isEmptyWall() }
    func removeAllRecords() throws { try wall.removeAllRecords() }
    func accountRecords() throws -> [WallRecords.Account] { try wall.accountRecords() }
    func sessionRecords() throws -> [WallRecords.OpenSession] { try wall.sessionRecords() }
    func configParams() throws -> [String: JSONValue] { try wall.storedParams() }
    func postBatch(after position: Int64) throws -> (posts: [WallRecords.PostRecord], last: Int64?) { try wall.postBatch(after: position) }
    func insert(accounts: [WallRecords.Account], sessions: [WallRecords.OpenSession], params: [String: JSONValue]) throws {
        try wall.insert(accounts: accounts, sessions: sessions, params: params)
    }
    func insert(posts: [WallRecords.PostRecord]) throws { try wall.insert(posts: posts) }
    func postSchema() throws -> PostSchema { try wall.postSchema() }
    func masterKeyOnlyParams() throws -> Set<String> { try wall.masterKeyOnlyParams() }
    func setParams(_ params: [String: JSONValue], deleting: Set<String>, masterKeyOnly: [String: Bool]) throws {
        try wall.setParams(params, deleting: deleting, masterKeyOnly: masterKeyOnly)
    }
    func changePostFields(adding types: [String: FieldType], deleting names: Set<String>) throws {
        try wall.changePostFields(adding: types, deleting: names)
    }
    func holdsConversation() throws -> Bool { try wall.holdsConversation() }
    /// Nothing to do: the R*Tree places each post as it is inserted, as a build from scratch would.
    func finishCopy() {}
    func close() {}
}
