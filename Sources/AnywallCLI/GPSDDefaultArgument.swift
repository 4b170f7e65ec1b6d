import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// `--gpsd` may be given without a value (`--gpsd [HOST[:PORT]]`), which swift-argument-parser
/// cannot express: before parsing, a bare `--gpsd` gets gpsd's default address as its value.
enum GPSDDefaultArgument {
    /// `arguments` with `localhost:2947` after each `--gpsd` that is last or followed by another
    /// option, up to a `--` that ends the options.
    static func filled(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" {
                return result + arguments[index...]
            }
            result.append(argument)
            if argument == "--gpsd", index + 1 == arguments.count || arguments[index + 1].hasPrefix("-") {
                result.append(GPSDAddress().description)
            }
        }
        return result
    }
}
