import Foundation

extension Duration {
    /// Reads a time as people type it: a number of seconds, or a number with `ms`, `s` or `min`
    /// (`30s`, `2min`, `500ms`); nil when it is not one or lies outside `seconds`.
    public init?(parsing text: String, seconds range: ClosedRange<Double>) {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("min", 60), ("s", 1), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite else { return nil }
            let seconds = number * unit.seconds
            guard range.contains(seconds) else { return nil }
            self = .milliseconds(Int64((seconds * 1000).rounded()))
            return
        }
        return nil
    }

    /// The duration in seconds as a Double.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Seconds for messages, without needless decimals: "10 s", "2.5 s".
    public var readable: String { "\(secondsText) s" }

    /// The form a flag or setting takes: "15s", "0.5s".
    public var flagForm: String { "\(secondsText)s" }

    private var secondsText: String {
        let seconds = (inSeconds * 1000).rounded() / 1000
        return Int(exactly: seconds).map(String.init) ?? "\(seconds)"
    }
}
