import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// "5 min ago": how long ago something happened, in the largest unit that fits.
enum RelativeAge {
    static func describe(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        case ..<(86_400 * 30): return "\(seconds / 86_400) d ago"
        default: return String(ParseDate.string(from: date).prefix(10))
        }
    }
}

