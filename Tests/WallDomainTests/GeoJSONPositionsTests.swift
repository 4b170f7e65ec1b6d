import Testing
import WallDomain

/// GeoJSON whose positions GEOS 3.11 would read out of bounds (found by fuzzing: the process
/// died) is refused before GEOS sees it.
@Suite("GeoJSON positions are checked before GEOS reads them")
struct GeoJSONPositionsTests {
    @Test("short, empty, textual or non-finite positions are refused with one reason",
          arguments: [
            #"{"type":"Polygon","coordinates":[[[],[1,1],[0,0]]]}"#,
            #"{"type":"Polygon","coordinates":[[[0],[1,1],[0,1],[0,0]]]}"#,
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],["a",1],[0,0]]]]}"#,
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0,2,3],[1,1],[0,0]]]}}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[]]]}}]}"#,
            #"{"type":"Polygon","coordinates":[[0,0]]}"#,
          ])
    func refused(_ text: String) {
        #expect(throws: AnywallError.inputRejected(
            "bad GeoJSON: every position must be [longitude, latitude] (an optional third number is the height)")) {
            try Area(parsing: text)
        }
    }

    @Test("a NUL, behind which GEOS would read other text than was checked, is refused")
    func nul() {
        #expect(throws: AnywallError.inputRejected("the area holds a NUL character")) {
            try Area(parsing: #"{"type":"Polygon","coordinates":[[[],[1,1],[0,0]]]}"# + "\0\0")
        }
    }

    @Test("good positions still make an area")
    func accepted() throws {
        let area = try Area(parsing: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)
        #expect(area.covers(try GeoPoint(latitude: 0.25, longitude: 0.5)))
    }
}
