import Foundation
import WallDomain

extension Distance {
    /// The largest round distance (1, 2 or 5 times a power of ten, in the unit the reader's system
    /// prints a distance this long in) not longer than this one: range rings and the scale bar are
    /// drawn at such distances, so their labels read plainly.
    func roundedDown(in system: UnitSystem) -> Distance {
        let unit = readable(in: system).unit
        let value = converted(to: unit).value
        let power = pow(10, (log10(value)).rounded(.down))
        let step = [5.0, 2, 1].first { $0 * power <= value } ?? 1
        return Distance(step * power, unit)
    }
}
