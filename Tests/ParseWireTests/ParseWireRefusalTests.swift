import Foundation
import ParseWire
import Testing
import WallDomain

/// What is not a shape of Parse's is refused with Parse's code, never taken for something else.
@Suite("Parse wire shapes refuse what is not theirs")
struct ParseWireRefusalTests {
    @Test("a GeoPoint without its type, out of range, or with text for a number")
    func badGeoPoints() {
        let cases: [JSONValue] = [
            .object(["latitude": .number(1), "longitude": .number(2)]),
            .object(["__type": .string("GeoPoint"), "latitude": .number(91), "longitude": .number(2)]),
            .object(["__type": .string("GeoPoint"), "latitude": .string("1"), "longitude": .number(2)]),
            .array([.number(1), .number(2)]), .null,
        ]
        for json in cases {
            #expect(throws: ParseError.self) { try ParseGeoPoint(json: json) }
        }
    }

    @Test("an ACL whose rights are not booleans is Parse's 123")
    func badACL() {
        #expect(throws: ParseError(ParseErrorCode.invalidACL, "Invalid ACL: * must map to {\"read\":bool,\"write\":bool}")) {
            try ParseACL(json: .object(["*": .object(["read": .string("yes")])]))
        }
    }

    @Test("a where-clause on a field posts lack, or with an unknown operator, is 102")
    func badWhere() {
        #expect(throws: ParseError.invalidQuery("Cannot query on ACL.")) {
            try WhereClause(json: .object(["ACL": .string("hi")]))
        }
        #expect(throws: ParseError.invalidQuery("anywall-server does not take $near on location")) {
            try WhereClause(json: .object(["location": .object(["$near": .null])]))
        }
    }

    @Test("an error answer with neither error nor message is not an error answer")
    func badError() {
        #expect(throws: ParseError.self) { try ParseError(json: .object(["code": .number(1)])) }
    }

    @Test("a post's date that is not ISO 8601 with milliseconds")
    func badDate() {
        #expect(throws: ParseError.self) {
            try ParsePostObject(json: .object(["objectId": .string("p"), "createdAt": .string("yesterday")]))
        }
    }
}
