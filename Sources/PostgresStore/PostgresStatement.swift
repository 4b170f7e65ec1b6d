import PostgresNIO
import WallDomain
import WallStorage

/// A statement built in parts: a `RecordCondition` translated with `PostgresSQLDialect`, and
/// further values bound after its own, each at the next placeholder.
struct PostgresStatement {
    private var bindings = PostgresBindings()

    /// `condition` as SQL over `posts` (and `users`), or over `users` alone, its values bound.
    mutating func condition(_ condition: RecordCondition, of recordClass: RecordClass = .posts, schema: [String: FieldType]) -> String {
        var translation = RecordConditionSQL(dialect: PostgresSQLDialect(), recordClass: recordClass, schema: schema,
                                             placeholdersBefore: bindings.count)
        let sql = translation.sql(condition)
        for value in translation.values {
            switch value {
            case .string(let text): bindings.append(text)
            case .number(let number): bindings.append(number)
            case .bool(let flag): bindings.append(flag)
            case .date(let date): bindings.append(PostgresWall.millisecond(date))
            case .null: bindings.appendNull()
            }
        }
        return sql
    }

    /// The ORDER BY terms of `order`.
    func sortTerms(_ order: [PostOrder], schema: [String: FieldType]) -> [String] {
        RecordConditionSQL(dialect: PostgresSQLDialect(), recordClass: .posts, schema: schema).sortTerms(order)
    }

    /// Binds `value`; its placeholder.
    mutating func bind(_ value: some PostgresNonThrowingEncodable) -> String {
        bindings.append(value)
        return "$\(bindings.count)"
    }

    /// The statement whose text is `sql`, with the values bound so far.
    func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
