/// The filter radius: posts farther than it are hidden.
public enum FilterRadius {
    /// Anywall's default filter radius.
    public static let defaultRadius = Distance.meters(1000)

    /// The radii `settings set radius` accepts: the config's distances plus the default, nearest first.
    public static func choices(in config: RemoteConfig) -> [Distance] {
        var choices = config.availableFilterDistances
        if !choices.contains(defaultRadius) { choices.append(defaultRadius) }
        return choices.sorted()
    }

    /// The choice equal to `typed` (to within a centimetre, whatever unit either is in), or an error
    /// listing the choices.
    public static func choice(matching typed: Distance, in config: RemoteConfig) throws -> Distance {
        let all = choices(in: config)
        guard let match = all.first(where: { abs($0.meters - typed.meters) < 0.01 }) else {
            throw AnywallError.inputRejected(
                "radius \(typed) is not one of the choices: \(all.map(\.description).joined(separator: ", "))")
        }
        return match
    }

    /// Checks a per-call radius (`--radius`): any distance up to the search distance.
    public static func validatePerCall(_ radius: Distance, searchDistance: Distance) throws {
        guard radius <= searchDistance else {
            throw AnywallError.inputRejected("radius \(radius) is larger than the search distance \(searchDistance)")
        }
    }
}
