import AnywallSupport
import EmbeddedStore
import Foundation
import TestSupport
import Testing
import WallDomain

@Suite("Reading Parse exports and NDJSON for import")
struct PostImportReaderTests {
    private func reader(_ text: String) throws -> PostImportReader {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-import-\(UUID().uuidString)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return PostImportReader(lines: try LineReader(path: url.path))
    }

    @Test("reads a pretty-printed Parse export with Parse's encodings")
    func parseExport() throws {
        let batch = try reader("""
            {
              "results": [
                {"objectId": "xWMyZ4YEGZ", "text": "Free coffee",
                 "location": {"__type": "GeoPoint", "latitude": 37.7793, "longitude": -122.4193},
                 "user": {"__type": "Pointer", "className": "_User", "objectId": "u1"},
                 "createdAt": "2026-11-21T10:00:00.000Z", "updatedAt": "2026-11-21T10:00:00.000Z",
                 "ACL": {"*": {"read": true}}},
                {"objectId": "b", "location": {"__type": "GeoPoint", "latitude": 1, "longitude": 2}},
                {"objectId": "c", "text": "when", "createdAt": {"__type": "Date", "iso": "2020-01-02T03:04:05.678Z"},
                 "location": {"latitude": 1, "longitude": 2}}
              ]
            }
            """).nextBatch(size: 100)
        #expect(batch.posts.map(\.objectId) == ["xWMyZ4YEGZ", "c"])
        #expect(batch.posts[0].author == ImportedPost.Author(objectId: "u1", username: nil, name: nil))
        #expect(batch.posts[0].createdAt == ParseDate.date(from: "2026-11-21T10:00:00.000Z"))
        #expect(batch.posts[1].createdAt == ParseDate.date(from: "2020-01-02T03:04:05.678Z"))
        #expect(batch.rejected.map(\.position) == ["record 2"] && batch.rejected.map(\.reason) == ["no text"])
    }

    @Test("an export simdjson refuses as a whole is read by the Codable reader, record by record")
    func exportSimdjsonRefuses() throws {
        // 1e400 is beyond a double: simdjson refuses the document, the Codable reader the record.
        let batch = try reader("""
            {"results":[
            {"objectId":"a","text":"far","location":{"latitude":1e400,"longitude":2}},
            {"objectId":"b","text":"near","location":{"__type":"GeoPoint","latitude":1,"longitude":2},
             "user":{"__type":"Pointer","className":"_User","objectId":"u1"}}
            ]}
            """).nextBatch(size: 10)
        #expect(batch.posts.map(\.objectId) == ["b"] && batch.posts[0].author?.objectId == "u1")
        #expect(batch.rejected.map(\.position) == ["record 1"])
    }

    @Test("a Parse export is read in batches, its records numbered across them")
    func exportBatches() throws {
        let records = (1...5).map { #"{"objectId":"p\#($0)","text":"t","location":{"latitude":1,"longitude":2}}"# }
        let reader = try reader(#"{"results":["# + "\n" + records.joined(separator: ",\n") + ",\n{\"text\":1}\n]}")
        #expect(try reader.nextBatch(size: 4).posts.map(\.objectId) == ["p1", "p2", "p3", "p4"])
        let second = try reader.nextBatch(size: 4)
        #expect(second.posts.map(\.objectId) == ["p5"] && second.rejected.map(\.position) == ["record 6"])
        #expect(try reader.nextBatch(size: 4).isEmpty)
    }

    @Test("reads NDJSON in batches and reports bad lines by number")
    func ndjson() throws {
        let reader = try reader("""
            {"objectId":"a","text":"one","location":{"latitude":1,"longitude":2},"author":"al"}
            not json

            {"objectId":"b","text":"two","location":{"latitude":95,"longitude":2}}
            {"objectId":"c","text":"three","location":{"latitude":1,"longitude":2},"createdAt":"yesterday"}
            {"objectId":"d","text":"four","location":{"latitude":1,"longitude":2}}
            """)
        let first = try reader.nextBatch(size: 3)
        #expect(first.posts.map(\.objectId) == ["a"])
        #expect(first.rejected.map(\.position) == ["line 2", "line 4"])
        #expect(first.rejected[1].reason.contains("latitude 95.0 is out of range"))
        let second = try reader.nextBatch(size: 3)
        #expect(second.posts.map(\.objectId) == ["d"])
        #expect(second.rejected.map(\.position) == ["line 5"])
        let end = try reader.nextBatch(size: 3)
        #expect(end.posts.isEmpty && end.rejected.isEmpty)
    }

    @Test("a bad first line of NDJSON is rejected on its own, not the file", arguments: [
        #"{"objectId":"a","text":"cut here"#, "{\"text\":\"deep\",\"x\":" + String(repeating: "[", count: 600), "{ }", "{}",
    ])
    func badFirstLine(_ line: String) throws {
        let batch = try reader(line + "\n" + #"{"objectId":"b","text":"two","location":{"latitude":1,"longitude":2}}"#).nextBatch(size: 10)
        #expect(batch.posts.map(\.objectId) == ["b"])
        #expect(batch.rejected.map(\.position) == ["line 1"])
    }

    @Test("a NUL in a text or an objectId rejects its record: the wall would keep only what precedes it")
    func nulCharacter() throws {
        let batch = try reader(#"""
            {"objectId":"a","text":"before\u0000after","location":{"latitude":1,"longitude":2}}
            {"objectId":"b\u0000c","text":"t","location":{"latitude":1,"longitude":2}}
            {"objectId":"d","text":"fine","location":{"latitude":1,"longitude":2}}
            """#).nextBatch(size: 10)
        #expect(batch.posts.map(\.objectId) == ["d"])
        #expect(batch.rejected.map(\.position) == ["line 1", "line 2"])
        #expect(batch.rejected.allSatisfy { $0.reason.contains("NUL") })
    }

    @Test("an export on one line, or opened by its results key, is still an export")
    func exportOpenings() throws {
        let post = #"{"objectId":"a","text":"one","location":{"latitude":1,"longitude":2}}"#
        for text in [#"{"results":["# + post + "]}", #"\#u{FEFF}{ "results": ["# + "\n" + post + "\n]}"] {
            let batch = try reader(text).nextBatch(size: 10)
            #expect(batch.posts.map(\.objectId) == ["a"] && batch.rejected.isEmpty)
        }
    }
}

@Suite("Cutting a Parse export into records as it is read")
struct ExportRecordStreamTests {
    private static func record(_ id: String, text: String = "t") -> String {
        #"{"objectId":"\#(id)","text":"\#(text)","location":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#
    }

    private func reader(_ text: String, chunkSize: Int = 1 << 20) throws -> PostImportReader {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-export-\(UUID().uuidString)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return PostImportReader(lines: LineReader(handle: try FileHandle(forReadingFrom: url), name: "export", chunkSize: chunkSize))
    }

    /// Every batch until the end, or the error that ended them.
    private func readAll(_ reader: PostImportReader, batch: Int = 2) -> (posts: [ImportedPost], rejected: [String], error: String?) {
        var posts: [ImportedPost] = [], rejected: [String] = []
        do {
            while true {
                let next = try reader.nextBatch(size: batch)
                if next.isEmpty { return (posts, rejected, nil) }
                posts += next.posts
                rejected += next.rejected.map(\.position)
            }
        } catch {
            return (posts, rejected, (error as? AnywallError)?.reason ?? "\(error)")
        }
    }

    @Test("records are the same whatever the chunks the input arrives in: brackets, commas and quotes inside strings, other members around results")
    func chunkBorders() throws {
        let export = """
            {
              "count": 4, "note": {"results": ["not these"], "quote": "a \\"]}\\" b"},
              "results" : [
                \(Self.record("p1", text: "a ] and a } and a , in \\\"quotes\\\" \\\\"))  ,
                {"objectId":"p2","text":"nested","location":{"latitude":1,"longitude":2},"extra":[{"a":[1,{"b":"]"}]}]},
                {"objectId":"bad","text":"x","location":{"latitude":1 "longitude":2}},
                \(Self.record("p4"))
              ],
              "after": [1, 2, {"x": "]}"}]
            }

            """
        let whole = readAll(try reader(export))
        #expect(whole.posts.map(\.objectId) == ["p1", "p2", "p4"])
        #expect(whole.posts.first?.text == #"a ] and a } and a , in "quotes" \"#)
        #expect(whole.rejected == ["record 3"] && whole.error == nil)
        for chunkSize in [1, 2, 3, 7, 64] {
            let cut = readAll(try reader(export, chunkSize: chunkSize), batch: 3)
            #expect(cut.posts == whole.posts && cut.rejected == whole.rejected && cut.error == nil, "chunks of \(chunkSize) bytes")
        }
    }

    @Test("a results key written with escapes is the results key")
    func escapedKey() throws {
        let read = readAll(try reader("{\n\"\\u0072esults\": [" + Self.record("p1") + "]}"))
        #expect(read.posts.map(\.objectId) == ["p1"] && read.error == nil)
    }

    @Test("an export coming down a pipe is read as it comes: the first batch before the input ends", .timeLimit(.minutes(1)))
    func streamed() throws {
        let pipe = Pipe()
        let reader = PostImportReader(lines: LineReader(handle: pipe.fileHandleForReading, name: "pipe", chunkSize: 64))
        pipe.fileHandleForWriting.write(Data(("{\"results\":[\n" + (1...3).map { Self.record("p\($0)") }.joined(separator: ",\n") + ",\n").utf8))
        #expect(try reader.nextBatch(size: 2).posts.map(\.objectId) == ["p1", "p2"])
        pipe.fileHandleForWriting.write(Data((Self.record("p4") + "]}\n").utf8))
        try pipe.fileHandleForWriting.close()
        #expect(try reader.nextBatch(size: 5).posts.map(\.objectId) == ["p3", "p4"])
        #expect(try reader.nextBatch(size: 5).isEmpty)
    }

    @Test("what cannot be cut into records ends the import there, after the records before it", arguments: [
        ("{\"results\":[R1,R2,{\"objectId\":\"x\",\"text\":\"cut", "ends inside record 3"),
        ("{\"results\":[R1,R2,", "ends after record 2"),
        ("{\"results\":[R1,R2]", "before its closing brace"),
        ("{\"results\":[R1,R2]} trailing", "text follows its closing brace"),
        ("{\"results\":[R1,R2,{\"a\":[1}]}", "record 3 of the Parse export cannot be read: a } closes nothing"),
        ("{\"results\":[R1,R2],\"results\":[]}", "two results arrays"),
        ("{\"results\":[R1,R2,]}", "record 3 of the Parse export cannot be read: it is empty"),
        ("{\"results\":[R1,R2,,R1]}", "record 3 of the Parse export cannot be read: it is empty"),
    ])
    func unusable(_ text: String, _ error: String) throws {
        let export = text.replacingOccurrences(of: "R1", with: Self.record("p1")).replacingOccurrences(of: "R2", with: Self.record("p2"))
        // A batch that ends with the array, and one that does not.
        for batch in [2, 10] {
            let read = readAll(try reader(export), batch: batch)
            #expect(read.posts.map(\.objectId) == ["p1", "p2"], "batches of \(batch)")
            #expect(read.error?.contains(error) == true, "batches of \(batch): \(read.error ?? "no error")")
        }
    }

    @Test("what follows an empty results array is checked too")
    func emptyArray() throws {
        let empty = readAll(try reader("{\"results\":[]}\n"))
        #expect(empty.posts.isEmpty && empty.rejected.isEmpty && empty.error == nil)
        let read = readAll(try reader("{\"results\":[]} trailing"))
        #expect(read.error?.contains("text follows its closing brace") == true, "\(read.error ?? "no error")")
    }

    @Test("a top-level value \"results\" is not the results key; white space between records is not a record")
    func valueNamedResults() throws {
        let read = readAll(try reader("{\n\"kind\": \"results\", \"results\": [\n\n  " + Self.record("p1") + "  \n ,\n\t " + Self.record("p2") + "\n\n]}"),
                           batch: 1)
        #expect(read.posts.map(\.objectId) == ["p1", "p2"] && read.rejected.isEmpty && read.error == nil)
        #expect(readAll(try reader("{\n\"kind\": \"results\"}")).error?.hasPrefix("not a Parse export") == true)
    }

    @Test("an export without a results array is refused before any record", arguments: [
        "{\n\"count\": 0}", "{\"results\": 5}", "{\"results\": {}}", "{\n",
    ])
    func notAnExport(_ text: String) throws {
        let read = readAll(try reader(text))
        #expect(read.posts.isEmpty && read.rejected.isEmpty)
        #expect(read.error?.hasPrefix("not a Parse export") == true, "\(read.error ?? "no error")")
    }

    @Test("an export on one line longer than a line may be (16 MiB) is read whole")
    func oneLongLine() throws {
        let count = 150_000
        let export = "{\"results\":[" + (1...count).map { Self.record("p\($0)", text: "a text of some length, as posts have") }.joined(separator: ",") + "]}"
        #expect(export.utf8.count > 16 << 20)
        let read = readAll(try reader(export), batch: 10_000)
        #expect(read.posts.count == count && read.posts.last?.objectId == "p\(count)" && read.rejected.isEmpty && read.error == nil)
    }

    @Test("a record longer than 16 MiB ends the import, the records before it read")
    func overlongRecord() throws {
        let long = #"{"objectId":"long","text":""# + String(repeating: "x", count: 17 << 20) + #"","location":{"latitude":1,"longitude":2}}"#
        let spaces = String(repeating: " ", count: 17 << 20)
        for export in ["{\"results\":[" + Self.record("p1") + "," + long + "]}",
                       "{\"results\":[" + Self.record("p1") + "," + spaces + Self.record("p2") + "]}"] {
            let read = readAll(try reader(export), batch: 10)
            #expect(read.posts.map(\.objectId) == ["p1"])
            #expect(read.error?.contains("record 2 of the Parse export cannot be read: it is longer than 16 MiB") == true)
        }
    }
}

@Suite("LineReader")
struct LineReaderTests {
    @Test("splits LF and CRLF lines across chunk borders, keeps a last line without LF, cuts overlong lines")
    func lines() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("anywall-lines-\(UUID().uuidString)")
        try Data("one\r\ntwo\n\(String(repeating: "x", count: 50))\nthree".utf8).write(to: url)
        let reader = LineReader(handle: try FileHandle(forReadingFrom: url), name: "test", chunkSize: 3, maxLineLength: 10)
        var lines: [String] = []
        while let line = try reader.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        #expect(lines == ["one", "two", String(repeating: "x", count: 10), "three"])
    }
}
