import Foundation
import Testing

/// The domain knows what a wall holds, not how a store keeps it: no SQL and no store's row ids in
/// `Sources/WallDomain`. The SQL a query becomes, a post's access as columns keep it and a post's
/// row are WallStorage's, which both stores use (docs/architecture.md).
@Suite("The domain holds no SQL and no row ids")
struct DomainContentTests {
    @Test("no source of WallDomain holds SQL or a row id")
    func domainHoldsNoStorage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let domain = root.appendingPathComponent("Sources/WallDomain")
        let files = try #require(FileManager.default.enumerator(at: domain, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL })
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 20, "the domain's sources are where they were: \(domain.path)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            found += StorageTerms.found(in: text).map { "\(file.lastPathComponent): \($0)" }
        }
        #expect(found == [])
    }

    @Test("the check catches SQL and row ids, and lets the names of the databases pass",
          arguments: [("let query = \"SELECT id FROM post\"", true), ("\"DELETE FROM post WHERE id = ?\"", true),
                      ("public let rowId: Int64", true), ("protocol RecordSQLDialect {}", true), ("func sql(_ c: Condition)", true),
                      ("\"readers IS NULL\"", true), ("\"ORDER BY createdAt\"", true),
                      ("/// kept in SQLite or PostgreSQL, in wall.sqlite", false), ("let whereClause = where", false)])
    func checkerCatches(text: String, caught: Bool) {
        #expect(StorageTerms.found(in: text).isEmpty != caught, "\(text)")
    }
}

/// Words that are a store's and not the domain's.
enum StorageTerms {
    private static let patterns = [
        #"\bSELECT\b"#, #"\bINSERT\s+INTO\b"#, #"\bDELETE\s+FROM\b"#, #"\bUPDATE\s+\w+\s+SET\b"#, #"\bWHERE\b"#, #"\bORDER\s+BY\b"#,
        #"\bIS\s+(NOT\s+)?NULL\b"#, #"(?i)\brow_?id\b"#, #"\b\w*(SQL|Sql|sql)\w*\b"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// The databases' names and a wall file's extension, which the domain may mention.
    private static let names: Set = ["SQLite", "PostgreSQL", "sqlite"]

    static func found(in text: String) -> [String] {
        let whole = NSRange(text.startIndex..., in: text)
        return patterns.flatMap { pattern in
            pattern.matches(in: text, range: whole).compactMap { match in
                Range(match.range, in: text).map { String(text[$0]) }
            }
        }.filter { !names.contains($0) }
    }
}
