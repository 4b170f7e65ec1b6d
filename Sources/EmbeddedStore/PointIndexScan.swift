import GRDB
import GRDBSQLite
import WallDomain

/// Reads the points of a 2-D R*Tree in a box by walking its nodes where SQLite keeps them (the
/// layout `PointIndexBuild` writes, the rtree module's own), instead of through the module's
/// virtual table.
///
/// The module's cursor pushes every cell that passes onto a priority queue, copies each node out
/// of its page, and hands each point through the statement's program, three columns read one by
/// one: ~4,000 instructions a point found at a city, two thirds of a nearest search's. Here a cell
/// costs four float comparisons, and each node is one step of a cached statement, or none when
/// the wall keeps it (`IndexNodeCache`).
///
/// The file is the user's and may be damaged: a node shorter than its cell count or with more
/// cells than the module puts in one, a depth past `maximumDepth`, a child that is not a node or
/// an inner node reached twice (a cycle, which nodes kept in memory would walk without end, out of
/// reach of the find time limit) fails the scan with a `DatabaseError` (`SQLITE_CORRUPT`), never a
/// trap or a hang.
struct PointIndexScan {
    /// Deeper than any tree of 51-cell nodes can be (51^12 points); past it the file is damaged.
    static var maximumDepth: Int { 12 }


    let db: Database
    /// `SELECT data FROM "NAME_node" WHERE nodeno = ?`, cached.
    private let node: Statement
    /// The nodes the wall keeps, checked (`refresh`) in this read transaction.
    private let kept: IndexNodeCache

    /// The scan of `table` (e.g. `postLocation`: a name of the schema's, never the user's).
    init(_ db: Database, table: String, kept: IndexNodeCache) throws {
        self.db = db
        self.kept = kept
        node = try db.cachedStatement(sql: "SELECT data FROM \"\(table)_node\" WHERE nodeno = ?")
    }

    /// Hands `body` the id and the stored minimum corner (latitude, longitude) of each point whose
    /// stored box overlaps `box`, the test the virtual table's `WHERE maxLatitude >= ? AND
    /// minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?` makes.
    func forEachPoint(in box: BoundingBox, _ body: (_ id: Int64, _ latitude: Double, _ longitude: Double) throws -> Void) throws {
        // Nodes still to read, with how many levels they are above the leaves.
        var pending: [(node: Int64, height: Int)] = []
        // In a tree each node has one parent, so a walk reads each node once: an inner node
        // reached again is a damaged file (the leaves need no check: each is reached from one read
        // of an inner node, and those are bounded).
        var innerRead: Set<Int64> = [1]
        try read(node: 1) { cells, count, depth in
            guard depth <= Self.maximumDepth else { throw Self.damaged("a depth of \(depth)") }
            try visit(cells, count, height: depth, box, &pending, body)
        }
        while let (number, height) = pending.popLast() {
            if height > 0, !innerRead.insert(number).inserted { throw Self.damaged("node \(number) is reached twice") }
            try read(node: number) { cells, count, _ in try visit(cells, count, height: height, box, &pending, body) }
        }
    }

    /// Tests each cell of a node against `box`: a leaf's points go to `body`, an inner node's
    /// children onto `pending`.
    private func visit(_ cells: UnsafeRawBufferPointer, _ count: Int, height: Int, _ box: BoundingBox,
                       _ pending: inout [(node: Int64, height: Int)],
                       _ body: (Int64, Double, Double) throws -> Void) throws {
        for index in 0..<count {
            let offset = PointIndexNode.headerSize + index * PointIndexNode.cellSize
            let minLatitude = Self.coordinate(cells, offset + 8), maxLatitude = Self.coordinate(cells, offset + 12)
            let minLongitude = Self.coordinate(cells, offset + 16), maxLongitude = Self.coordinate(cells, offset + 20)
            guard maxLatitude >= box.minLatitude, minLatitude <= box.maxLatitude,
                  maxLongitude >= box.minLongitude, minLongitude <= box.maxLongitude else { continue }
            let id = Int64(bitPattern: UInt64(bigEndian: cells.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            if height == 0 {
                try body(id, minLatitude, minLongitude)
            } else {
                guard id > 1 else { throw Self.damaged("a child node \(id)") }
                pending.append((id, height - 1))
            }
        }
    }

    /// Hands `body` node `number`'s bytes, its cell count and the depth its first two bytes give
    /// (the tree's, in the root).
    private func read(node number: Int64,
                      _ body: (_ cells: UnsafeRawBufferPointer, _ count: Int, _ depth: Int) throws -> Void) throws {
        let bytes = try kept.node(number) ?? fetch(node: number)
        try bytes.withUnsafeBytes { cells in
            guard cells.count >= PointIndexNode.headerSize else { throw Self.damaged("node \(number) is empty") }
            let depth = Int(UInt16(bigEndian: cells.loadUnaligned(fromByteOffset: 0, as: UInt16.self)))
            let count = Int(UInt16(bigEndian: cells.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            guard count <= PointIndexNode.maximumCells else { throw Self.damaged("node \(number) has \(count) cells") }
            guard PointIndexNode.headerSize + count * PointIndexNode.cellSize <= cells.count else { throw Self.damaged("node \(number) is shorter than its cells") }
            try body(cells, count, depth)
        }
    }

    /// Node `number` as stored, read from the wall and kept: its header and cells, not the
    /// padding after them (nor whatever a damaged file put there).
    private func fetch(node number: Int64) throws -> [UInt8] {
        let statement = node.sqliteStatement
        defer { sqlite3_reset(statement) }
        sqlite3_bind_int64(statement, 1, number)
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW else {
            if code == SQLITE_DONE { throw Self.damaged("no node \(number)") }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        let stored = sqlite3_column_blob(statement, 0).map { UnsafeRawBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, 0))) }
        guard let stored, stored.count >= PointIndexNode.headerSize else { throw Self.damaged("node \(number) is empty") }
        let count = Int(UInt16(bigEndian: stored.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let bytes = [UInt8](stored.prefix(PointIndexNode.headerSize + min(count, PointIndexNode.maximumCells) * PointIndexNode.cellSize))
        kept.keep(number, bytes)
        return bytes
    }

    /// A stored coordinate: a big-endian 32-bit float.
    private static func coordinate(_ cells: UnsafeRawBufferPointer, _ offset: Int) -> Double {
        Double(Float(bitPattern: UInt32(bigEndian: cells.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
    }

    private static func damaged(_ what: String) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the location index is damaged: \(what)")
    }
}
