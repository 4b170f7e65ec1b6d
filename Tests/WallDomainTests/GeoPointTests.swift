import TestSupport
import Testing
import WallDomain

@Suite("GeoPoint")
struct GeoPointTests {
    @Test("parses LAT,LON, negative values and spaces included")
    func parses() throws {
        let p = try GeoPoint(parsing: "-33.87, 151.21")
        #expect(p.latitude == -33.87)
        #expect(p.longitude == 151.21)
        #expect(try GeoPoint(parsing: "37.12345678901234,-122.98765432109876").latitude == 37.12345678901234)
    }

    @Test("refuses the poles, the antimeridian, NaN, infinities and text",
          arguments: ["90,0", "-90,0", "0,180", "0,-180", "nan,0", "0,NaN", "inf,0", "abc", "1", "1,2,3", ",", "1,", "91,0", "0,200"])
    func refuses(_ text: String) {
        #expect(throws: AnywallError.self) { try GeoPoint(parsing: text) }
    }

    @Test("says which coordinate is wrong and why")
    func messages() {
        #expect(throws: AnywallError.inputRejected("latitude 90.0 is out of range: it must be strictly between -90 and 90")) {
            try GeoPoint(latitude: 90, longitude: 0)
        }
        #expect(throws: AnywallError.inputRejected("bad coordinates '1,x': longitude 'x' is not a number")) {
            try GeoPoint(parsing: "1,x")
        }
        #expect(throws: AnywallError.inputRejected("bad coordinates '0x10,0': latitude '0x10' is not a number"), "hexadecimal, which Double reads") {
            try GeoPoint(parsing: "0x10,0")
        }
    }
}
