import ArgumentParser
import Foundation
import WallDomain
import WallMap

/// `nearby --map`: the posts as a picture, its style and its size.
struct MapOptions: ParsableArguments {
    @Flag(help: "Draw the posts as a map around you, with a numbered list below it.")
    var map = false
    @Option(help: ArgumentHelp("With --map: braille, blocks or ascii (default: braille; ascii when TERM=dumb).", valueName: "STYLE"),
            completion: .list(MapStyle.allCases.map(\.rawValue)))
    var mapStyle: CheckedArgument<MapStyle>?
    @Option(help: ArgumentHelp("With --map: the frame's size, e.g. 100x30 (default: the terminal's; piped, COLUMNS and LINES, else 80x24).",
                               valueName: "COLSxROWS"))
    var size: CheckedArgument<MapSize>?

    func validate() throws {
        if !map, mapStyle != nil || size != nil { throw ValidationError("--map-style and --size go with --map") }
    }

    /// The flag's style; else ASCII on a terminal that says it is dumb; else braille.
    func style(environment: [String: String]) throws -> MapStyle {
        try mapStyle?.value() ?? (environment["TERM"] == "dumb" ? .ascii : .braille)
    }

    /// `--size`; else the terminal's size; else `COLUMNS` and `LINES`; else 80x24. A size too small
    /// for a map is refused.
    func frameSize(environment: [String: String]) throws -> MapSize {
        if let size {
            let size = try size.value()
            guard size.isEnoughForMap else {
                throw AnywallError.inputRejected("--size \(size) is too small: a map needs \(MapSize.minimum) at least")
            }
            return size
        }
        let size = Terminal.windowSize() ?? MapSize(
            columns: environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? MapSize.standard.columns,
            rows: environment["LINES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? MapSize.standard.rows)
        guard size.isEnoughForMap else { throw AnywallError.inputRejected("terminal too small (need \(MapSize.minimum))") }
        return size
    }
}

extension MapStyle: ArgumentText {
    init(argumentText text: String) throws {
        guard let style = MapStyle(rawValue: text) else {
            throw AnywallError.inputRejected("bad map style '\(text)': use \(MapStyle.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = style
    }
}

extension MapSize: ArgumentText {
    init(argumentText text: String) throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]), columns > 0, rows > 0, columns <= 1000, rows <= 1000 else {
            throw AnywallError.inputRejected("bad size '\(text)': expected COLSxROWS such as 80x24")
        }
        self.init(columns: columns, rows: rows)
    }
}
