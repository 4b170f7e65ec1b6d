import EmbeddedStore
import Foundation
import Testing
import WallDomain

/// simdjson reads plain import records; the Codable reader, the reference, reads the rest and
/// words every rejection. Each record here must come out of `post` exactly as the Codable reader
/// alone reads it, and the plain ones must really take the fast path.
@Suite("Reading import records: simdjson beside Codable")
struct ImportRecordDecoderTests {
    private static let plain: [String] = [
        #"{"objectId":"a1","text":"coffee here","location":{"latitude":40.7,"longitude":-73.9},"createdAt":"2025-05-28T04:10:40.237Z","author":"ann"}"#,
        // Parse's REST encodings: a GeoPoint and a Date object, their __type ignored.
        #"{"text":"t","location":{"__type":"GeoPoint","latitude":-89.5,"longitude":179.9},"createdAt":{"__type":"Date","iso":"2025-01-01T00:00:00Z"}}"#,
        // Escapes, non-ASCII, whitespace to trim, a key written with an escape, integers as degrees.
        #"{"te\u0078t":"  caf\u00e9 \"quoted\" \ud83d\ude00 \n","location":{"latitude":1,"longitude":-0}}"#,
        // Unknown fields of every kind are ignored, nested ones included, given twice too.
        #"{"x":[1,{"y":null}],"x":true,"ACL":{"*":{"read":true}},"text":"t","location":{"latitude":1e1,"longitude":2.5E-3,"z":"w"}}"#,
        // An empty author names nobody; exponents and negative zero.
        #"{"text":"t","author":"","location":{"latitude":-0.0,"longitude":1.7976931348623157e2}}"#,
        "  {\"text\":\"t\",\"location\":{\"latitude\":0,\"longitude\":0}}\t ",
        // A user pointer, an included user (its `author` ignored), a user naming nobody, fields not strings ignored.
        #"{"text":"t","user":{"__type":"Pointer","className":"_User","objectId":"u1"},"location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","author":"bo","user":{"objectId":"u1","username":"ann","name":"Ann"},"location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","author":"bo","user":{"__type":"Pointer"},"location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","user":{"objectId":"u1","username":5,"name":null},"location":{"latitude":1,"longitude":2}}"#,
    ]

    private static let others: [String] = [
        "", "null", "[]", #""text""#, "{", #"{"text":"t","location":{"latitude":1,"longitude":2}} x"#,
        #"{"text":"t","location":{"latitude":1,"longitude":2}}{}"#,
        // A field given twice, a field of another type, null where a string goes.
        #"{"text":"a","text":"b","location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","location":{"latitude":1,"latitude":3,"longitude":2}}"#,
        #"{"text":7,"location":{"latitude":1,"longitude":2}}"#, #"{"objectId":null,"text":"t","location":{"latitude":1,"longitude":2}}"#,
        #"{"objectId":5,"text":"t","location":{"latitude":1,"longitude":2}}"#, #"{"text":"t","author":5,"location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","location":{"latitude":"1","longitude":2}}"#, #"{"text":"t","location":[1,2]}"#, #"{"text":"t"}"#,
        #"{"location":{"latitude":1,"longitude":2}}"#, #"{"text":"   ","location":{"latitude":1,"longitude":2}}"#,
        // Out of range, unrepresentable, too large for 64 bits, not JSON numbers.
        #"{"text":"t","location":{"latitude":91,"longitude":2}}"#, #"{"text":"t","location":{"latitude":-90,"longitude":180}}"#, #"{"text":"t","location":{"latitude":1e400,"longitude":2}}"#,
        #"{"text":"t","location":{"latitude":123456789012345678901234567890,"longitude":2}}"#,
        #"{"text":"t","location":{"latitude":NaN,"longitude":2}}"#, #"{"text":"t","location":{"latitude":01,"longitude":2}}"#,
        // Dates: not ISO 8601, null, a Date object without iso.
        #"{"text":"t","createdAt":"yesterday","location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","createdAt":null,"location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","createdAt":{"__type":"Date"},"location":{"latitude":1,"longitude":2}}"#,
        // A user that is not an object, a user field given twice, an author who cannot be a username.
        #"{"text":"t","user":null,"author":"bo","location":{"latitude":1,"longitude":2}}"#,
        #"{"text":"t","user":{"objectId":"u1","objectId":"u2"},"location":{"latitude":1,"longitude":2}}"#,
        "{\"text\":\"t\",\"author\":\"a\\u0007b\",\"location\":{\"latitude\":1,\"longitude\":2}}",
        // Strings: a lone surrogate, a NUL, a raw control character, invalid UTF-8.
        #"{"text":"\ud800","location":{"latitude":1,"longitude":2}}"#, #"{"text":"a\u0000b","location":{"latitude":1,"longitude":2}}"#,
        "{\"text\":\"a\u{1}b\",\"location\":{\"latitude\":1,\"longitude\":2}}",
        // Nesting deeper than a record's, in a field nobody reads.
        "{\"text\":\"t\",\"location\":{\"latitude\":1,\"longitude\":2},\"deep\":" + String(repeating: "[", count: 40)
            + String(repeating: "]", count: 40) + "}",
        "\u{FEFF}{\"text\":\"t\",\"location\":{\"latitude\":1,\"longitude\":2}}",
    ]

    @Test("plain records take the fast path and read as the Codable reader reads them", arguments: plain)
    func plainRecord(_ record: String) throws {
        let data = Data(record.utf8)
        let fast = try #require(ImportRecordDecoder().plainPost(data), "simdjson left a plain record to Codable")
        #expect(fast == (try JSONDecoder().decode(ImportedPost.self, from: data)))
    }

    @Test("every other record reads, or is rejected, as the Codable reader alone does", arguments: others)
    func otherRecord(_ record: String) {
        var data = Data(record.utf8)
        if record.isEmpty { data = Data([0xFF, 0xFE]) }
        let decoder = ImportRecordDecoder()
        let read = decoder.post(data)
        let reference = ImportRecordDecoder.attempt { try JSONDecoder().decode(ImportedPost.self, from: data) }
        #expect(read == reference)
        if let fast = decoder.plainPost(data) { #expect(.success(fast) == reference) }
    }

    @Test("valid JSON numbers that Foundation refuses are read", arguments: [("0e1", 0.0), ("0E5", 0.0), ("-1e-400", -0.0)])
    func numberFoundationRefuses(_ number: String, _ latitude: Double) throws {
        let data = Data(#"{"text":"t","location":{"latitude":\#(number),"longitude":2}}"#.utf8)
        #expect(throws: AnywallError.self) { try JSONDecoder().decode(ImportedPost.self, from: data) }
        let post = try ImportRecordDecoder().post(data).get()
        #expect(post.location == (try GeoPoint(latitude: latitude, longitude: 2)))
    }

    @Test("invalid UTF-8 inside a string is the Codable reader's to judge")
    func invalidUTF8() {
        var data = Data(#"{"text":"a"#.utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data(#"","location":{"latitude":1,"longitude":2}}"#.utf8))
        let decoder = ImportRecordDecoder()
        #expect(decoder.plainPost(data) == nil)
        #expect(decoder.post(data) == ImportRecordDecoder.attempt { try JSONDecoder().decode(ImportedPost.self, from: data) })
    }
}
