import WallDomain

/// Whether the caller of a request may read a post at all, as every route that returns one
/// decides it (a fetch, an included thread post, an `Activity` row's included post): its ACL
/// lets them, or a role they hold (the master key reads everything); and, removed, it is theirs
/// or they moderate.
struct PostSightCheck {
    let wall: any WallStore

    func sees(_ post: StoredPost, _ context: ParseContext) async throws -> Bool {
        guard try await mayRead(post, context) else { return false }
        return try await seesRemoval(of: post, context)
    }

    private func mayRead(_ post: StoredPost, _ context: ParseContext) async throws -> Bool {
        if context.caller.isMaster || post.access.mayRead(context.caller.user?.objectId) { return true }
        guard post.access.namesRoles, let userId = context.caller.user?.objectId else { return false }
        return post.access.mayRead(userId, roles: try await wall.roleNames(ofUser: userId))
    }

    private func seesRemoval(of post: StoredPost, _ context: ParseContext) async throws -> Bool {
        guard post.removed != nil, !context.caller.isMaster, post.author?.objectId != context.caller.user?.objectId else { return true }
        guard let token = context.caller.sessionToken else { return false }
        return try await wall.isModerator(token: token)
    }
}
