import FuzzTargets
import Foundation

// anywall-fuzz TARGET ARGS...
//
// Built for fuzzing (scripts/fuzz: -DFUZZING, coverage instrumentation and libFuzzer's library
// without its main), it hands ARGS to libFuzzer's driver. Built as usual, it replays inputs:
// each ARG is a file or a directory of files, each run once through TARGET.

let usage = "usage: anywall-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) ARGS..."
let arguments = CommandLine.arguments
guard arguments.count >= 2, let chosen = FuzzTarget(rawValue: arguments[1]) else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<CInt>,
               _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The target libFuzzer's callback runs: a C callback captures nothing.
nonisolated(unsafe) var target = chosen
// libFuzzer reads its own flags from argv: the program name, then what followed TARGET.
var driverArguments = [arguments[0]] + arguments.dropFirst(2)
var cStrings = driverArguments.map { strdup($0) } + [nil]
var argc = CInt(driverArguments.count)
var status: CInt = 0
cStrings.withUnsafeMutableBufferPointer { buffer in
    var argv = buffer.baseAddress
    status = runDriver(&argc, &argv) { data, size in
        target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
}
exit(status)
#else
var inputs = 0
for path in arguments.dropFirst(2) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("anywall-fuzz: no such file or directory: \(path)\n".utf8))
        exit(66)
    }
    let files = isDirectory.boolValue
        ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" }
        : [path]
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        chosen.run(Array(data))
        inputs += 1
    }
}
print("\(chosen.rawValue): \(inputs) inputs, no trap")
#endif
