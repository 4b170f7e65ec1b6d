import Foundation
import ParseClient
import ParseWire
import WallDomain

/// A Parse Server's answer body, read as the client reads each answer: the nearby results
/// through Codable (as ParseClient decodes them), the other shapes from the same JSON.
enum ParseAnswerFuzzing {
    static func run(_ input: [UInt8]) {
        let data = Data(input)
        if let found = try? JSONDecoder().decode(ParseResults<ParsePostObject>.self, from: data) {
            for post in found.results {
                if let point = try? post.location?.point() { _ = point.distance(to: point) }
                _ = ParseDate.string(from: post.createdAt)
            }
        }
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
        _ = try? ParseUserObject(json: json)
        _ = try? ParseError(json: json)
        _ = try? WhereClause(json: json)
        if case .object(let params)? = json.fields?["params"] {
            let remote = RemoteConfig(params: params)
            _ = remote.postMaxCharacterCount
            _ = remote.availableFilterDistances
        }
    }
}
