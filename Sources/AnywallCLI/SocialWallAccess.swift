import AnywallSupport
import ArgumentParser
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

extension CommandContext {
    /// The wall, for the commands of the social layer (reply, vote, report, thread, delete,
    /// activity, moderate): refused, with the exit code of an unavailable service, on a wall that
    /// does not keep replies and votes yet.
    func openSocialWall(for command: String) throws -> SocialWall {
        let wall = try openBackendSendingOutbox()
        guard let social = wall as? SocialWall else {
            throw AnywallError.unsupported(wall: wall.description, feature: "'\(command)' (replies, votes, reports and moderators)")
        }
        return social
    }

    /// The reader's filter radius: the 'radius' setting, else Anywall's default.
    func filterRadius() throws -> Distance {
        try preferences().radius ?? FilterRadius.defaultRadius
    }
}
