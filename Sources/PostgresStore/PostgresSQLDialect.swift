import WallDomain
import WallStorage

/// PostgreSQL's SQL for `RecordConditionSQL`: the `posts` and `users` tables, added fields read
/// from `posts.fields` (jsonb) as their schema types, text compared byte by byte (`COLLATE "C"`)
/// as SQLite compares it, and `$regex` as PostgreSQL's own regular expressions.
struct PostgresSQLDialect: RecordSQLDialect {
    let engine = SQLEngine.postgres

    func extraField(_ name: String, as type: FieldType) -> String {
        // Names are letters, digits and `_` (`FieldType.isFieldName`): safe inside the literal.
        // jsonb's text must be cast to the schema's type to compare and sort as that type.
        switch type {
        case .number: return "(posts.fields->>'\(name)')::float8"
        case .boolean: return "(posts.fields->>'\(name)')::boolean"
        case .date: return "(posts.fields->'\(name)'->>'iso') COLLATE \"C\""
        case .pointer: return "(posts.fields->'\(name)'->>'objectId') COLLATE \"C\""
        default: return "(posts.fields->>'\(name)') COLLATE \"C\""
        }
    }

    func arrayContains(_ name: String, _ placeholder: String, holding value: FieldValue) -> String {
        // jsonb's containment is typed already: the bound text, number or boolean as itself.
        "coalesce(posts.fields->'\(name)' @> jsonb_build_array(\(placeholder)), false)"
    }

    /// PostgreSQL's embedded options stand for MongoDB's: `p` (Mongo's default: `.` stops at a
    /// line break, `^` and `$` only at the ends), `n` for `m`, `s` for `s`, `w` for both.
    func matches(_ expression: String, _ pattern: TextPattern, placeholder: String) -> String {
        var flags: String
        switch (pattern.multiline, pattern.dotMatchesNewlines) {
        case (false, false): flags = "p"
        case (true, false): flags = "n"
        case (false, true): flags = "s"
        case (true, true): flags = "w"
        }
        if pattern.ignoresCase { flags += "i" }
        if pattern.extended { flags += "x" }
        return "\(expression) ~ ('(?\(flags))' || \(placeholder))"
    }
}
