import WallDomain

/// Whether a reader may read a post at all, as every route that returns one decides it (a fetch,
/// an included thread post, an `Activity` row's included post) and as LiveQuery decides it for
/// every event: its ACL lets them, or a role they hold (the master key reads everything); and,
/// removed, it is theirs or they moderate.
struct PostSightCheck {
    /// Who reads: the master key, or a user (nil: nobody signed in) whose role names are read
    /// only when a post needs them.
    struct Reader: Sendable {
        let isMaster: Bool
        let userId: String?
        let roleNames: @Sendable () async throws -> Set<String>
    }

    let reader: Reader

    /// The caller of a request, their roles read from `wall`.
    init(_ context: ParseContext, wall: any WallStore) {
        let userId = context.caller.user?.objectId
        reader = Reader(isMaster: context.caller.isMaster, userId: userId) {
            guard let userId else { return [] }
            return try await wall.roleNames(ofUser: userId)
        }
    }

    init(_ reader: Reader) {
        self.reader = reader
    }

    func sees(_ post: StoredPost) async throws -> Bool {
        guard try await mayRead(post) else { return false }
        return try await seesRemoval(of: post)
    }

    private func mayRead(_ post: StoredPost) async throws -> Bool {
        if reader.isMaster || post.access.mayRead(reader.userId) { return true }
        guard post.access.namesRoles, let userId = reader.userId else { return false }
        return post.access.mayRead(userId, roles: try await reader.roleNames())
    }

    private func seesRemoval(of post: StoredPost) async throws -> Bool {
        guard post.removed != nil, !reader.isMaster, post.author?.objectId != reader.userId else { return true }
        guard reader.userId != nil else { return false }
        return try await reader.roleNames().contains(RoleName.moderators)
    }
}
