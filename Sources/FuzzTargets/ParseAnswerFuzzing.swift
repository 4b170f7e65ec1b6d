import Foundation
import ParseClient
import ParseWire
import WallDomain

/// A Parse Server's answer body, decoded as each call of the client decodes it.
enum ParseAnswerFuzzing {
    static func run(_ input: [UInt8]) {
        let data = Data(input)
        let decoder = JSONDecoder()
        if let found = try? decoder.decode(ParseResults<ParsePostObject>.self, from: data) {
            for post in found.results {
                if let point = try? post.location?.point() { _ = point.distance(to: point) }
                _ = ParseDate.string(from: post.createdAt)
            }
        }
        _ = try? decoder.decode(ParseUserObject.self, from: data)
        _ = try? decoder.decode(ParseCreated.self, from: data).createdAt
        _ = try? decoder.decode(ParseError.self, from: data)
        _ = try? decoder.decode(ParseConfigAnswer.self, from: data).params
        if let config = try? decoder.decode(ParseConfigAnswer.self, from: data) {
            let remote = RemoteConfig(params: config.params)
            _ = remote.postMaxCharacterCount
            _ = remote.availableFilterDistances
        }
        if let json = try? decoder.decode(JSONValue.self, from: data) { _ = try? WhereClause(json: json) }
    }
}
