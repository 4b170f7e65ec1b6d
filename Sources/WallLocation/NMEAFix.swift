import AnywallSupport
import Foundation
import WallDomain

/// A position read from one NMEA sentence, with the time the receiver gave it.
public struct NMEAFix: Equatable, Sendable {
    /// The sentence it came from.
    public let kind: NMEAFixKind
    public let point: GeoPoint
    /// UTC time of day from the sentence, if it carried one.
    public let timeOfDay: Duration?
    /// The full UTC time, once the feed has told the date (RMC or ZDA).
    public let time: Date?
}
