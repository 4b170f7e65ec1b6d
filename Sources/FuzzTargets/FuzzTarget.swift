/// The places where bytes from outside enter anywall, each as a function that must return,
/// never trap, whatever it is given. libFuzzer drives them (`anywall-fuzz`, built by
/// scripts/fuzz); the suite replays each one's seed corpus (`fixtures/fuzz/NAME/`).
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// An NMEA 0183 feed, as `--nmea` reads it.
    case nmea
    /// Lines from gpsd, as `--gpsd` reads them.
    case gpsd
    /// A Parse Server's answers, as the client decodes them.
    case parseAnswer = "parse-answer"
    /// An area, as `--within` and `$polygon` take it: GeoJSON, WKT or a box.
    case area
    /// A file given to `anywall import`: a Parse export or NDJSON.
    case `import`
    /// A request to anywall-server, handled in process: query parameters, where-clauses, bodies.
    case serverRequest = "server-request"
    /// A LiveQuery client's WebSocket frames and messages, handled by the server's hub in process.
    case liveQuery = "live-query"

    /// Hands `input` to the target.
    package func run(_ input: [UInt8]) {
        switch self {
        case .nmea: NMEAFeedFuzzing.run(input)
        case .gpsd: GPSDReportFuzzing.run(input)
        case .parseAnswer: ParseAnswerFuzzing.run(input)
        case .area: AreaFuzzing.run(input)
        case .import: ImportFuzzing.run(input)
        case .serverRequest: ServerRequestFuzzing.run(input)
        case .liveQuery: LiveQueryFuzzing.run(input)
        }
    }
}
