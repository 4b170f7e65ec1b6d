import AnywallServer
import ArgumentParser
import Foundation

extension AnywallBench {
    struct LiveMatching: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live-matching",
            abstract: "Time matching writes against LiveQuery subscriptions: through the place index, and against every subscription.",
            discussion: "Subscriptions are city-scale $nearSphere queries, 80 % in fourteen cities; so are the posts written. Prints one JSON object.")

        @Option(help: "Subscriptions.") var subscriptions = 100_000
        @Option(help: "Writes, each matched both ways.") var writes = 2000
        @Option(help: "The seed of the random places.") var seed: UInt64 = 1

        func validate() throws {
            guard subscriptions >= 1, writes >= 1 else { throw ValidationError("--subscriptions and --writes must be at least 1") }
        }

        func run() throws {
            let result = try LiveMatchingBenchmark.run(subscriptions: subscriptions, writes: writes, seed: seed)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        }
    }
}
