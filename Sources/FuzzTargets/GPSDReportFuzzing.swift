import Foundation
import WallLocation

/// A line from gpsd, decoded as the gpsd source decodes each one.
enum GPSDReportFuzzing {
    static func run(_ input: [UInt8]) {
        guard let report = try? JSONDecoder().decode(GPSDReport.self, from: Data(input)) else { return }
        if case .fix(let point, _, let accuracy) = report.meaning {
            precondition(abs(point.latitude) < 90 && abs(point.longitude) < 180, "a fix out of range")
            _ = accuracy?.meters
        }
    }
}
