/// The units distances are printed in for people (`settings set units`).
/// Machine-readable output always uses metres.
public enum UnitSystem: String, CaseIterable, Sendable, Codable {
    case metric
    case imperial
}

extension Distance {
    /// The distance in the most readable unit of a system: metres below 1 km, else
    /// kilometres; feet below a tenth of a mile, else miles.
    public func readable(in system: UnitSystem) -> Distance {
        switch system {
        case .metric:
            return meters < 1000 ? Distance(meters.rounded(), .meters) : converted(to: .kilometers).roundedToTenths
        case .imperial:
            let feet = converted(to: .feet)
            return feet.value < 528 ? Distance(feet.value.rounded(), .feet) : converted(to: .miles).roundedToTenths
        }
    }

    private var roundedToTenths: Distance {
        Distance((value * 10).rounded() / 10, unit)
    }
}

extension DistanceUnit {
    /// The system this unit belongs to: metres and kilometres are metric, feet and miles imperial.
    public var system: UnitSystem {
        switch self {
        case .meters, .kilometers: return .metric
        case .feet, .miles: return .imperial
        }
    }
}
