import AnywallSupport
import Foundation
import WallDomain

/// The records of a Parse export's `results` array, cut from the input as it is read, so an
/// export of any size is imported in bounded memory (parsing it whole held the file and its parse
/// in memory: some 12 GB for 10^7 posts).
///
/// Only the JSON structure between the records is followed here: strings, brackets, the top
/// object's keys. Each record's own JSON is judged by the record readers, so a record that is not
/// valid JSON is rejected alone. What cannot be cut into records (brackets that do not match, an
/// export that ends inside a record, text after its closing brace, a record longer than
/// `maximumRecordLength`) stops the import with an error; the records before it have been read.
final class ExportRecordStream {
    /// Some records, as one JSON document `{"results":[...]}` simdjson can parse at once.
    struct Records {
        var document: Data
        /// Where each record is in `document`.
        var ranges: [Range<Int>]
    }

    private static let documentHead = Array(#"{"results":["#.utf8)
    private static let documentTail = Array("]}".utf8)
    /// A key written longer is not `results`, however it is escaped (six bytes a letter at most).
    private static let longestKey = 64
    /// Deeper than any record or export needs; bounds the brackets kept.
    static let maximumNesting = 10_000
    /// The longest record read, with the white space before it: bounds the bytes a batch holds.
    private static let maximumRecordLength = 1 << 24
    private static let tooLong = "it is longer than \(maximumRecordLength >> 20) MiB"

    private enum Place {
        /// In the top object (before, or after, its `results` array).
        case topLevel
        /// In the `results` array, between records.
        case records
        /// After the top object's closing brace.
        case finished
    }

    private let input: LineReader
    private var buffer: [UInt8] = []
    /// The next byte to read in `buffer`.
    private var position = 0
    /// The bytes of the input dropped from the front of `buffer` so far: `dropped + position` is
    /// where the stream stands in the input.
    private var dropped = 0
    /// Whether bytes before `position` must stay where they are: from a batch's first record on,
    /// its records are cut out only when it is complete.
    private var holding = false
    private var inputEnded = false
    private var place = Place.topLevel
    /// The brackets open around `position`, innermost last, outside records.
    private var open: [UInt8] = []
    private var inString = false
    private var escaped = false
    /// In the top object: whether the next string is a key, and its bytes as written (up to `longestKey`).
    private var expectingKey = false
    private var key: [UInt8]?
    private var valueOfResults = false
    private var awaitingValue = false
    private var sawResults = false
    /// Whether anything but white space and a byte order mark was read.
    private var sawAnything = false
    /// In the `results` array: whether a record must come next (after `[` none need, after `,` one does).
    private var recordDue = false
    private var recordsCut = 0
    /// An error met after some records of a batch: thrown at the next call, once they are read.
    private var pendingError: AnywallError?

    /// The records of the export `input` holds from where it stands.
    init(input: LineReader) {
        self.input = input
    }

    /// The next records: up to `count`, stopping once they hold `byteLimit` bytes; none at the end.
    func next(count: Int, byteLimit: Int) throws -> Records {
        if let pendingError {
            self.pendingError = nil
            throw pendingError
        }
        buffer.removeFirst(position)
        dropped += position
        position = 0
        defer { holding = false }
        var ranges: [Range<Int>] = []
        do {
            while ranges.count < count, (ranges.last?.upperBound ?? 0) - (ranges.first?.lowerBound ?? 0) < byteLimit,
                  let record = try nextRecord() {
                ranges.append(record)
            }
        } catch let error as AnywallError where !ranges.isEmpty {
            pendingError = error
        }
        guard let first = ranges.first?.lowerBound, let last = ranges.last?.upperBound else { return Records(document: Data(), ranges: []) }
        var document = Data(capacity: Self.documentHead.count + last - first + Self.documentTail.count)
        document.append(contentsOf: Self.documentHead)
        document.append(contentsOf: buffer[first..<last])
        document.append(contentsOf: Self.documentTail)
        let shift = Self.documentHead.count - first
        return Records(document: document, ranges: ranges.map { ($0.lowerBound + shift)..<($0.upperBound + shift) })
    }

    /// The next record's bytes in `buffer`, or nil when the `results` array ends after records of
    /// this batch, or the input ends (what follows the array is read then, so it is always checked).
    private func nextRecord() throws -> Range<Int>? {
        while true {
            switch place {
            case .topLevel:
                try walkTopLevel()
            case .finished:
                try finish()
                return nil
            case .records:
                // White space before a record counts in its length: it is held with the batch.
                let gap = dropped + position
                guard let first = try nextSignificantByte(within: gap) else {
                    throw AnywallError.inputRejected("the Parse export ends after record \(recordsCut), inside its results array")
                }
                if first == UInt8(ascii: "]"), !recordDue {
                    position += 1
                    open.removeLast()
                    place = .topLevel
                    if holding { return nil }
                    continue
                }
                return try cutRecord(from: gap)
            }
        }
    }

    /// Reads the top object until its `results` array opens or the object ends.
    private func walkTopLevel() throws {
        while let byte = try nextByte() {
            position += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if let written = key {
                        expectingKey = false
                        valueOfResults = Self.isResults(written)
                        key = nil
                    }
                    continue
                }
                if key != nil, key!.count <= Self.longestKey { key!.append(byte) }
                continue
            }
            if Self.isWhitespace(byte) || (open.isEmpty && !sawAnything && Self.byteOrderMark.contains(byte)) { continue }
            sawAnything = true
            if awaitingValue, open.count == 1 {
                awaitingValue = false
                if valueOfResults {
                    guard byte == UInt8(ascii: "[") else { throw Self.notAnExport("its results is not an array") }
                    guard !sawResults else { throw Self.notAnExport("it has two results arrays") }
                    sawResults = true
                    open.append(byte)
                    place = .records
                    recordDue = false
                    return
                }
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                key = expectingKey && open.count == 1 ? [] : nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard !open.isEmpty || byte == UInt8(ascii: "{") else { throw Self.notAnExport("it is not an object") }
                guard open.count < Self.maximumNesting else { throw Self.notAnExport("it nests deeper than \(Self.maximumNesting)") }
                open.append(byte)
                if open.count == 1 { expectingKey = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let innermost = open.popLast(), Self.closes(byte, innermost) else {
                    throw Self.notAnExport("a \(Character(UnicodeScalar(byte))) closes nothing it opened")
                }
                if open.isEmpty {
                    place = .finished
                    return
                }
            case UInt8(ascii: ":") where open.count == 1:
                awaitingValue = true
            case UInt8(ascii: ",") where open.count == 1:
                expectingKey = true
                valueOfResults = false
            default:
                guard !open.isEmpty else { throw Self.notAnExport("it is not an object") }
            }
        }
        throw sawResults ? AnywallError.inputRejected("the Parse export ends after its results array, before its closing brace")
            : Self.notAnExport("it ends before a results array")
    }

    /// Only white space may follow the top object.
    private func finish() throws {
        while let byte = try nextByte() {
            guard Self.isWhitespace(byte) else { throw Self.notAnExport("text follows its closing brace") }
            position += 1
        }
        guard sawResults else { throw Self.notAnExport("it has no results array") }
    }

    /// Reads one record from `position`, to the `,` or `]` after it at the array's level; its
    /// bytes, without the white space before that.
    /// `gap` is where the white space before it began, in the input.
    private func cutRecord(from gap: Int) throws -> Range<Int> {
        holding = true
        let start = position
        var scan = RecordScan()
        while true {
            let outcome = buffer.withUnsafeBufferPointer { scan.scan($0, from: &position) }
            switch outcome {
            case .cut(let cut):
                var end = cut
                while end > start, Self.isWhitespace(buffer[end - 1]) { end -= 1 }
                guard end > start else { throw Self.unusable(recordsCut + 1, "it is empty: a comma too many") }
                recordDue = buffer[cut] == UInt8(ascii: ",")
                if recordDue { position += 1 }
                recordsCut += 1
                return start..<end
            case .tooDeep:
                throw Self.unusable(recordsCut + 1, "it nests deeper than \(Self.maximumNesting)")
            case .mismatched(let byte):
                throw Self.unusable(recordsCut + 1, "a \(Character(UnicodeScalar(byte))) closes nothing it opened")
            case .needMore:
                guard dropped + position - gap <= Self.maximumRecordLength else {
                    throw Self.unusable(recordsCut + 1, Self.tooLong)
                }
                guard try refill() else {
                    throw AnywallError.inputRejected("the Parse export ends inside record \(recordsCut + 1)")
                }
            }
        }
    }

    /// The byte at `position`, reading more when needed; nil at the end of the input.
    private func nextByte() throws -> UInt8? {
        if position == buffer.count, !(try refill()) { return nil }
        return buffer[position]
    }

    /// The next byte that is not white space, left at `position`; past `maximumRecordLength`
    /// bytes of white space from `gap` (where it began in the input), the next record cannot be read.
    private func nextSignificantByte(within gap: Int) throws -> UInt8? {
        while let byte = try nextByte() {
            guard Self.isWhitespace(byte) else { return byte }
            position += 1
            guard dropped + position - gap <= Self.maximumRecordLength else {
                throw Self.unusable(recordsCut + 1, Self.tooLong)
            }
        }
        return nil
    }

    /// Appends the input's next bytes; false at its end. Outside a batch, what was read is dropped first.
    private func refill() throws -> Bool {
        if inputEnded { return false }
        if !holding, position > 0 {
            buffer.removeFirst(position)
            dropped += position
            position = 0
        }
        guard let chunk = try input.nextChunk() else {
            inputEnded = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// Whether a key, as written between its quotes, is `results`: escapes are read as JSON reads them.
    private static func isResults(_ written: [UInt8]) -> Bool {
        guard written.contains(UInt8(ascii: "\\")) else { return written.elementsEqual("results".utf8) }
        return (try? JSONDecoder().decode(String.self, from: Data([UInt8(ascii: "\"")] + written + [UInt8(ascii: "\"")]))) == "results"
    }

    private static let byteOrderMark: Set<UInt8> = [0xEF, 0xBB, 0xBF]

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    fileprivate static func closes(_ byte: UInt8, _ opened: UInt8) -> Bool {
        (opened == UInt8(ascii: "{") && byte == UInt8(ascii: "}")) || (opened == UInt8(ascii: "[") && byte == UInt8(ascii: "]"))
    }

    private static func notAnExport(_ why: String) -> AnywallError {
        .inputRejected("not a Parse export: \(why) (expected {\"results\":[...]} or one post object per line)")
    }

    private static func unusable(_ record: Int, _ why: String) -> AnywallError {
        .inputRejected("record \(record) of the Parse export cannot be read: \(why)")
    }
}

/// Where the scan of one record stands between reads: the brackets open inside it, and whether
/// it is inside a string (just after a backslash there).
private struct RecordScan {
    enum Outcome: Equatable {
        /// The record ends before this index: a `,` or the array's `]`.
        case cut(Int)
        /// The bytes ran out first.
        case needMore
        case tooDeep
        case mismatched(UInt8)
    }

    private var brackets: [UInt8] = []
    private var inString = false
    private var escaped = false

    /// Reads `bytes` from `index` on, to where the record ends at the array's level; `index` is
    /// left where the scan stopped. A tight loop: it reads every byte of an import.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Outcome {
        var i = index, inString = inString, escaped = escaped
        defer { (index, self.inString, self.escaped) = (i, inString, escaped) }
        let end = bytes.count
        while i < end {
            if inString {
                if escaped {
                    escaped = false
                    i += 1
                    continue
                }
                // The next quote (memchr: most of an export's bytes are in strings) ends the string
                // unless an odd run of backslashes escapes it.
                guard let base = bytes.baseAddress, let found = memchr(base + i, Int32(UInt8(ascii: "\"")), end - i) else {
                    var run = end
                    while run > i, bytes[run - 1] == UInt8(ascii: "\\") { run -= 1 }
                    escaped = (end - run) % 2 == 1
                    i = end
                    break
                }
                let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                var run = quote
                while run > i, bytes[run - 1] == UInt8(ascii: "\\") { run -= 1 }
                inString = (quote - run) % 2 == 1
                i = quote + 1
                continue
            }
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard brackets.count < ExportRecordStream.maximumNesting else { return .tooDeep }
                brackets.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if brackets.isEmpty, byte == UInt8(ascii: "]") { return .cut(i) }
                guard let innermost = brackets.popLast(), ExportRecordStream.closes(byte, innermost) else { return .mismatched(byte) }
            case UInt8(ascii: ","):
                if brackets.isEmpty { return .cut(i) }
            default:
                break
            }
            i += 1
        }
        return .needMore
    }
}
