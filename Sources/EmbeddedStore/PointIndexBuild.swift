import GRDB
import GRDBSQLite

/// Builds a 2-D R*Tree of points (SQLite's rtree module, `id, minLatitude, maxLatitude,
/// minLongitude, maxLongitude`) anew in one pass, for a wall loaded in bulk.
///
/// Inserted one by one, each point costs the rtree module a walk and splits of its nodes through
/// SQL on its tables: nine tenths of an import's time (docs/performance.md). Here the points are sorted
/// along a Hilbert curve and cut into full nodes, and so each level up (a Hilbert-packed
/// R-tree), and the nodes written straight into the module's own tables, as
/// sqlite.org/src/file/ext/rtree/rtree.c lays them out:
/// - `NAME_node(nodeno, data)`: node 1 is the root; `data` is a `PointIndexNode`, padded with
///   zeros to the node size the module chose when the table was made;
/// - `NAME_rowid(rowid, nodeno)`: the leaf holding each point;
/// - `NAME_parent(nodeno, parentnode)`: the parent of each node but the root.
/// Coordinates are rounded to floats as the module rounds them (minimum down, maximum up), so
/// the tree holds what inserting the points one by one would. `rtreecheck()` accepts the result
/// (the tests check it, and that searches find what they found before).
struct PointIndexBuild {
    /// A cell of a node: a point's or a child node's box, as the floats stored.
    private struct Cell {
        let id: Int64
        let minLatitude: Float, maxLatitude: Float, minLongitude: Float, maxLongitude: Float
    }

    /// The rtree table, e.g. `postLocation`: a name of the schema's, never the user's.
    let table: String

    /// A point to index: a post's id and place.
    struct Point {
        let id: Int64
        let latitude: Double, longitude: Double
    }

    /// Replaces the tree's content with `points`, given in id order: for a load into an empty
    /// wall, which keeps its points as they go in (`LoadedPoints`) and need not read them back.
    func rebuild(_ db: Database, points: [Point]) throws {
        var tree = try TreeBuilder(db, table: table)
        // A point's place on the curve above its index, sorted as one number: ties go by index, so by id.
        var order = points.indices.map { UInt64(Self.hilbertPosition(latitude: points[$0].latitude, longitude: points[$0].longitude)) << 32 | UInt64($0) }
        order.sort()
        var rank = [UInt32](repeating: 0, count: points.count)
        for (position, entry) in order.enumerated() {
            let index = Int(entry & 0xFFFF_FFFF)
            rank[index] = UInt32(position)
            try tree.add(points[index])
        }
        for (point, position) in zip(points, rank) { try tree.writeLeaf(of: point.id, rank: Int(position)) }
        try tree.finish()
    }

    /// Replaces the tree's content with the points `source` selects (`SELECT id, latitude,
    /// longitude FROM ...`). The points pass through SQLite's sorter and a temporary table, so
    /// memory holds only the level above the leaves (a 51st of the points), whatever the wall's size.
    func rebuild(_ db: Database, from source: String) throws {
        var tree = try TreeBuilder(db, table: table)
        // The points in curve order, numbered by it: the leaves are read from here in that order,
        // and a point's leaf follows from its number, so the leaf of each point is written in id
        // order, appending, instead of in curve order, all over its table (a third of the build).
        try db.execute(sql: "CREATE TEMP TABLE pointOrder (id INTEGER, latitude REAL, longitude REAL)")
        defer { try? db.execute(sql: "DROP TABLE temp.pointOrder") }
        try Self.hilbertOrder(in: db, defined: true)
        defer { try? Self.hilbertOrder(in: db, defined: false) }
        try db.execute(sql: """
            INSERT INTO temp.pointOrder SELECT id, latitude, longitude FROM (\(source)) ORDER BY \(Self.hilbertOrderName)(latitude, longitude)
            """)
        let points = try db.makeStatement(sql: "SELECT id, latitude, longitude FROM temp.pointOrder ORDER BY rowid")
        try db.forEachRow(of: points) { row in
            try tree.add(Point(id: sqlite3_column_int64(row, 0), latitude: sqlite3_column_double(row, 1), longitude: sqlite3_column_double(row, 2)))
        }
        let ranks = try db.makeStatement(sql: "SELECT id, rowid - 1 FROM temp.pointOrder ORDER BY id")
        try db.forEachRow(of: ranks) { row in try tree.writeLeaf(of: sqlite3_column_int64(row, 0), rank: Int(sqlite3_column_int64(row, 1))) }
        try tree.finish()
    }

    /// The tree, built from its points in curve order: full leaves, then each level up; and the
    /// map of each point to its leaf, once all are added, best written in id order (appending).
    private struct TreeBuilder {
        private let db: Database
        private var writer: NodeWriter
        private let writeLeafOf: Statement
        /// Cells a node holds.
        private let capacity: Int
        private var level: [Cell] = []
        private var leaf: [Cell] = []

        init(_ db: Database, table: String) throws {
            guard let nodeSize = try Int.fetchOne(db, sql: "SELECT length(data) FROM \"\(table)_node\" WHERE nodeno = 1") else {
                throw DatabaseError(message: "\(table) has no root node")
            }
            self.db = db
            writer = try NodeWriter(db, table: table, nodeSize: nodeSize)
            writeLeafOf = try db.makeStatement(sql: "INSERT INTO \"\(table)_rowid\" (rowid, nodeno) VALUES (?, ?)")
            capacity = (nodeSize - PointIndexNode.headerSize) / PointIndexNode.cellSize
            leaf.reserveCapacity(capacity)
        }

        /// Adds the next point along the curve.
        mutating func add(_ point: Point) throws {
            if leaf.count == capacity {
                level.append(try writer.node(leaf, leaves: true))
                leaf.removeAll(keepingCapacity: true)
            }
            leaf.append(Cell(id: point.id, minLatitude: PointIndexBuild.down(point.latitude), maxLatitude: PointIndexBuild.up(point.latitude),
                             minLongitude: PointIndexBuild.down(point.longitude), maxLongitude: PointIndexBuild.up(point.longitude)))
        }

        /// Records that the point `id`, of rank `rank` along the curve, is in its leaf: leaves are
        /// numbered from 2 in curve order (1 is the root, the only leaf when one node holds them all).
        func writeLeaf(of id: Int64, rank: Int) throws {
            sqlite3_bind_int64(writeLeafOf.sqliteStatement, 1, id)
            sqlite3_bind_int64(writeLeafOf.sqliteStatement, 2, level.isEmpty ? 1 : Int64(2 + rank / capacity))
            try db.run(writeLeafOf)
        }

        /// Writes the last leaf, the levels above and the root.
        mutating func finish() throws {
            guard !level.isEmpty else { return try writer.root(leaf, depth: 0) }
            level.append(try writer.node(leaf, leaves: true))
            var depth = 1
            // Each level up groups consecutive nodes: they follow the curve, so neighbours stay together.
            while level.count > capacity {
                level = try stride(from: 0, to: level.count, by: capacity).map {
                    try writer.node(Array(level[$0..<min($0 + capacity, level.count)]), leaves: false)
                }
                depth += 1
            }
            try writer.root(level, depth: depth)
        }
    }

    private static let hilbertOrderName = "anywall_hilbert_order"

    /// Defines (or, with `defined` false, removes) `anywall_hilbert_order(latitude, longitude)`,
    /// the position of a point along a Hilbert curve over a 65,536 x 65,536 grid of the globe:
    /// points near each other on the curve are near each other on the ground, so consecutive
    /// points make compact leaves (a Hilbert-packed R-tree, Kamel and Faloutsos 1993). Through the
    /// C API: GRDB's `DatabaseFunction` boxes each argument, a tenth of a load's index build.
    private static func hilbertOrder(in db: Database, defined: Bool) throws {
        let connection = db.sqliteConnection, flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        let code = defined
            ? sqlite3_create_function_v2(connection, hilbertOrderName, 2, flags, nil, hilbertOrderOfArguments, nil, nil, nil)
            : sqlite3_create_function_v2(connection, hilbertOrderName, 2, flags, nil, nil, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot define \(hilbertOrderName)") }
    }

    fileprivate static func hilbertPosition(latitude: Double, longitude: Double) -> Int64 {
        let side: Int64 = 1 << 16
        func cell(_ value: Double, _ low: Double, _ high: Double) -> Int64 {
            min(side - 1, max(0, Int64((value - low) / (high - low) * Double(side))))
        }
        var x = cell(longitude, -180, 180), y = cell(latitude, -90, 90)
        var position: Int64 = 0
        var half = side / 2
        while half > 0 {
            let right: Int64 = x & half > 0 ? 1 : 0, up: Int64 = y & half > 0 ? 1 : 0
            position += half * half * ((3 * right) ^ up)
            if up == 0 {
                if right == 1 {
                    x = side - 1 - x
                    y = side - 1 - y
                }
                swap(&x, &y)
            }
            half /= 2
        }
        return position
    }

    /// Writes nodes into the module's three tables, numbering them from 2 (1 is the root).
    private struct NodeWriter {
        private let db: Database
        private let nodeSize: Int
        private let writeNode, writeParent: Statement
        private var next: Int64 = 2

        init(_ db: Database, table: String, nodeSize: Int) throws {
            self.db = db
            self.nodeSize = nodeSize
            try db.execute(sql: "DELETE FROM \"\(table)_node\"; DELETE FROM \"\(table)_rowid\"; DELETE FROM \"\(table)_parent\"")
            writeNode = try db.makeStatement(sql: "INSERT INTO \"\(table)_node\" (nodeno, data) VALUES (?, ?)")
            writeParent = try db.makeStatement(sql: "INSERT INTO \"\(table)_parent\" (nodeno, parentnode) VALUES (?, ?)")
        }

        /// Writes a node holding `cells` (points when `leaves`) and gives its cell in the level above.
        mutating func node(_ cells: [Cell], leaves: Bool) throws -> Cell {
            let number = next
            next += 1
            try write(cells, as: number, depth: 0, leaves: leaves)
            return Cell(id: number, minLatitude: cells.map(\.minLatitude).min()!, maxLatitude: cells.map(\.maxLatitude).max()!,
                        minLongitude: cells.map(\.minLongitude).min()!, maxLongitude: cells.map(\.maxLongitude).max()!)
        }

        /// Writes the root, `depth` levels above the leaves (0: the root is the leaf).
        func root(_ cells: [Cell], depth: Int) throws {
            try write(cells, as: 1, depth: depth, leaves: depth == 0)
        }

        private func write(_ cells: [Cell], as number: Int64, depth: Int, leaves: Bool) throws {
            let node = writeNode.sqliteStatement
            sqlite3_bind_int64(node, 1, number)
            PointIndexBuild.blob(cells, depth: depth, size: nodeSize).withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(node, 2, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
            }
            try db.run(writeNode)
            // A point's leaf is written by `rebuild`, all at once.
            guard !leaves else { return }
            for cell in cells {
                sqlite3_bind_int64(writeParent.sqliteStatement, 1, cell.id)
                sqlite3_bind_int64(writeParent.sqliteStatement, 2, number)
                try db.run(writeParent)
            }
        }
    }

    /// A node as the rtree module stores it.
    private static func blob(_ cells: [Cell], depth: Int, size: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
        }
        append(UInt16(depth))
        append(UInt16(cells.count))
        for cell in cells {
            append(cell.id)
            for value in [cell.minLatitude, cell.maxLatitude, cell.minLongitude, cell.maxLongitude] { append(value.bitPattern) }
        }
        bytes.append(contentsOf: repeatElement(0, count: size - bytes.count))
        return bytes
    }

    // The module's rounding of a double to a float bound (rtreeValueDown and rtreeValueUp): a box
    // never shrinks below the point it holds.
    private static let towardZero = 1.0 - 1.0 / 8_388_608.0, awayFromZero = 1.0 + 1.0 / 8_388_608.0

    private static func down(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) > value ? Float(value * (value < 0 ? awayFromZero : towardZero)) : rounded
    }

    private static func up(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) < value ? Float(value * (value < 0 ? towardZero : awayFromZero)) : rounded
    }
}

/// `anywall_hilbert_order`'s body, as SQLite calls it (a C function: no Swift context).
private func hilbertOrderOfArguments(_ context: OpaquePointer?, _: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments else { return }
    sqlite3_result_int64(context, PointIndexBuild.hilbertPosition(latitude: sqlite3_value_double(arguments[0]),
                                                                  longitude: sqlite3_value_double(arguments[1])))
}
