import Foundation
import TestSupport
import Testing
import WallDomain
import WallLocation

/// Random and mutated sentences never crash the parser, and nothing outside the valid
/// coordinate ranges ever comes out as a fix.
@Suite struct NMEAFuzzTests {
    @Test func oneHundredThousandRandomAndMutatedSentences() throws {
        var random = SeededGenerator(seed: 0x4E4D_4541)
        let seeds = try NMEAFixtures.logs.prefix(12).flatMap {
            try String(contentsOf: $0, encoding: .isoLatin1).split(whereSeparator: \.isNewline).map { Array($0.utf8) }
        }.filter { line in
            // Position sentences, valid or not, so that mutants reach the coordinate parsing.
            ["GGA,", "RMC,", "GLL,", "GNS,"].contains { String(decoding: line, as: UTF8.self).contains($0) }
        }
        let alphabet = Array("$*,.0123456789ABCDEFGNSWPRMLZ-\r\n ".utf8) + [0, 0xFF]
        var fixes = 0
        var decoder = NMEADecoder()
        for round in 0..<100_000 {
            var line: [UInt8]
            if round % 4 == 0 {
                line = (0..<Int.random(in: 0...120, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            } else {
                line = seeds.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 1...6, using: &random) where !line.isEmpty {
                    let at = Int.random(in: 0..<line.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: line[at] = alphabet.randomElement(using: &random)!
                    case 1: line.remove(at: at)
                    case 2: line.insert(alphabet.randomElement(using: &random)!, at: at)
                    default: line = Array(line[at...]) + Array(line[..<at])
                    }
                }
                // Half the mutants get a right checksum, so the field parsing is reached.
                if round % 2 == 0, let star = line.lastIndex(of: UInt8(ascii: "*")), let dollar = line.lastIndex(of: UInt8(ascii: "$")), dollar < star {
                    let sum = line[(dollar + 1)..<star].reduce(UInt8(0), ^)
                    line = Array(line[...star]) + Array(String(format: "%02X", sum).utf8)
                }
            }
            line.withUnsafeBufferPointer { buffer in
                if case .fix(_, let point, _, _) = NMEASentence.parse(buffer) {
                    fixes += 1
                    #expect(point.latitude > -90 && point.latitude < 90 && point.longitude > -180 && point.longitude < 180)
                }
            }
            line.append(0x0A)
            line.withUnsafeBytes { decoder.consume($0) { _ in } }
        }
        // Mutants with a right checksum often still read: the field parsing was exercised too.
        #expect(fixes > 1000)
    }
}
