import ParseWire
import WallDomain

/// A `where` as a stock Parse Server's LiveQuery matches it: its matcher ignores
/// `$maxDistanceInKilometers` (parse-server #7526: such a subscription never fires), and takes
/// `$maxDistance` in radians, on the same 6371 km sphere.
enum StockWhere {
    static func adapted(_ clause: JSONValue) -> JSONValue {
        guard case .object(var fields) = clause else { return clause }
        if case .object(var location)? = fields["location"], let kilometers = location["$maxDistanceInKilometers"]?.number {
            location["$maxDistanceInKilometers"] = nil
            location["$maxDistance"] = .number(kilometers * 1000 / GreatCircle.earthRadius.meters)
            fields["location"] = .object(location)
        }
        return .object(fields)
    }
}
