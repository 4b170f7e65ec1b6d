import WallDomain
import WallStorage

/// The embedded wall's SQL for `RecordConditionSQL`: the `post` and `user` tables, added fields
/// read from the JSON in `post.fields`, `$regex` through the `anywall_regexp` function each
/// connection registers (`EmbeddedRegexp`).
struct EmbeddedSQLDialect: RecordSQLDialect {
    let engine = SQLEngine.sqlite

    func extraField(_ name: String, as type: FieldType) -> String {
        // Names are letters, digits and `_` (`FieldType.isFieldName`): safe inside the path. JSON
        // keeps its own types, so only a date's or a Pointer's inner value needs naming.
        let path = switch type {
        case .date: "\(name).iso"
        case .pointer: "\(name).objectId"
        default: name
        }
        return "json_extract(post.fields, '$.\(path)')"
    }

    func arrayContains(_ name: String, _ placeholder: String, holding value: FieldValue) -> String {
        // `json_each` gives `true` as 1 and `"5"` as the text 5: its `type` tells them from 1 and 5.
        let types = switch value {
        case .bool: "'true', 'false'"
        case .number: "'integer', 'real'"
        default: "'text'"
        }
        return "EXISTS (SELECT 1 FROM json_each(post.fields, '$.\(name)') AS element WHERE element.type IN (\(types)) AND element.value = \(placeholder))"
    }

    func matches(_ expression: String, _ pattern: TextPattern, placeholder: String) -> String {
        "anywall_regexp(\(expression), \(placeholder), '\(EmbeddedRegexp.options(pattern))')"
    }
}
