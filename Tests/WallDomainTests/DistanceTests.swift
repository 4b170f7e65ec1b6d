import TestSupport
import Testing
import WallDomain

@Suite("Distance")
struct DistanceTests {
    @Test("parses every unit, and a bare number as metres",
          arguments: [("250ft", 76.2), ("2km", 2000), ("1.5mi", 2414.016), ("800m", 800), ("800", 800),
                      ("800 m", 800), ("2 KM", 2000), ("1e3m", 1000)])
    func parses(_ text: String, _ meters: Double) throws {
        #expect(abs(try Distance(parsing: text).meters - meters) < 1e-9)
    }

    @Test("keeps the unit it was given in", arguments: [("250ft", "250 ft"), ("1.5mi", "1.5 mi"), ("2km", "2 km"), ("800", "800 m")])
    func keepsUnit(_ text: String, _ printed: String) throws {
        #expect(try Distance(parsing: text).description == printed)
    }

    @Test("refuses bad distances", arguments: ["", "abc", "0", "-5m", "5 parsecs", "km", "nan", "inf"])
    func refuses(_ text: String) {
        #expect(throws: AnywallError.self) { try Distance(parsing: text) }
    }

    @Test("compares lengths, not numbers")
    func compares() {
        #expect(Distance.feet(5000) > .meters(1000))
        #expect(Distance.kilometers(1) == .meters(1000))
        #expect(Distance.feet(2000) < .meters(1000))
    }

    @Test("reads in metric and imperial units")
    func readable() {
        #expect(Distance.meters(182.4).readable(in: .metric).description == "182 m")
        #expect(Distance.meters(2442.5).readable(in: .metric).description == "2.4 km")
        #expect(Distance.meters(100).readable(in: .imperial).description == "328 ft")
        #expect(Distance.meters(2442.5).readable(in: .imperial).description == "1.5 mi")
    }
}
