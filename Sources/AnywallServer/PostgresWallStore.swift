import Foundation
import PostgresStore
import WallDomain

/// The wall in PostgreSQL with PostGIS, as the routes use it: many anywall-server processes may
/// serve one database, each answering any request.
extension PostgresWall: WallStore {
    package func configParams() async throws -> [String: JSONValue] {
        try await storedParams()
    }

    package func setConfigParams(_ params: [String: JSONValue]) async throws {
        try await setParams(params)
    }

    package func config() async throws -> RemoteConfig {
        try await fetchConfig()
    }

    package func find(_ query: PostQuery, for reader: String?) async throws -> (posts: [StoredPost], count: Int?) {
        try await PostSearch(query: query).run(on: self, for: reader)
    }

    package func post(objectId: String, for reader: String?) async throws -> StoredPost? {
        try await storedPost(objectId: objectId, for: reader)
    }

    package func createPost(text: String, at location: GeoPoint, token: String, requestId: String?) async throws -> StoredPost {
        try await createStoredPost(text: text, at: location, token: token, requestId: requestId)
    }

    package func user(token: String) async throws -> StoredUser {
        try await storedUser(token: token)
    }
}
