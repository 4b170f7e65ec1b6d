import TestSupport
import Testing
import WallDomain
import WallLocation

@Suite struct LocationSpecTests {
    @Test func settingsFormsOfEverySource() throws {
        #expect(try LocationSpec(parsing: "at:37.7793,-122.4193") == .fixed(try GeoPoint(latitude: 37.7793, longitude: -122.4193)))
        #expect(try LocationSpec(parsing: "gpsd") == .gpsd(GPSDAddress(host: "localhost", port: 2947)))
        #expect(try LocationSpec(parsing: "gpsd:pi.local") == .gpsd(GPSDAddress(host: "pi.local", port: 2947)))
        #expect(try LocationSpec(parsing: "gpsd:10.0.0.2:3000") == .gpsd(GPSDAddress(host: "10.0.0.2", port: 3000)))
        #expect(try LocationSpec(parsing: "gpsd:[::1]:2948") == .gpsd(GPSDAddress(host: "::1", port: 2948)))
        #expect(try LocationSpec(parsing: "nmea:/dev/ttyUSB0") == .nmea(path: "/dev/ttyUSB0"))
        for spec in ["at:1.5,2.5", "gpsd:localhost:2947", "gpsd:[::1]:2948", "nmea:/dev/ttyACM0"] {
            #expect(try LocationSpec(parsing: spec).description == spec, "round trip")
        }
    }

    @Test func badSpecsAreRefusedWithTheForms() {
        for bad in ["home", "nmea:", "gpsd:host:0", "gpsd:host:70000", "gpsd:host:port", "gpsd:[::1", "gpsd:[::1]x", "at:91,0"] {
            #expect(throws: AnywallError.self, "\(bad)") { try LocationSpec(parsing: bad) }
        }
        #expect(throws: AnywallError.inputRejected("bad location 'home': expected at:LAT,LON, gpsd[:HOST[:PORT]] or nmea:PATH")) {
            try LocationSpec(parsing: "home")
        }
    }

    @Test func sourcesNameThemselvesAsWhereReportsThem() throws {
        #expect(LocationSpec.gpsd(try GPSDAddress(parsing: "127.0.0.1:2999")).makeSource().name == "gpsd:127.0.0.1:2999")
        #expect(LocationSpec.nmea(path: "-").makeSource().name == "nmea:-")
        #expect(LocationSpec.fixed(try GeoPoint(latitude: 1, longitude: 2)).makeSource().name == "fixed")
    }
}
