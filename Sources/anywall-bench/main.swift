// anywall-bench: times the embedded wall's nearby query in process, so the query's own cost
// can be told apart from process start-up (which scripts/bench-wall measures separately).
//
//   anywall-bench nearby --store PATH --places FILE [--rounds N] [--warmup N] [--limit N] [--json]
//
// FILE lists one place per line as `LAT,LON` (blank lines and lines starting with `#` are skipped).
import AnywallCore
import Foundation

do {
    let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    let report = try NearbyBenchmark(options: options).run()
    print(options.json ? report.json : report.text)
} catch let error as BenchOptions.UsageRequested {
    print(error.usage)
} catch let error as AnywallError {
    FileHandle.standardError.write(Data("anywall-bench: \(error.message)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("anywall-bench: \(error)\n".utf8))
    exit(1)
}
