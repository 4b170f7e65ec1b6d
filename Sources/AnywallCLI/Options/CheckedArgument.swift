import ArgumentParser
import WallDomain
import WallLocation

/// A value that a flag's text is parsed into, refusing bad text with `AnywallError.inputRejected`.
protocol ArgumentText {
    init(argumentText text: String) throws
}

/// A flag's value, parsed by its type as the arguments are read. Text that does not parse is
/// kept with its refusal, and the command gets it when it asks for the value: anywall answers
/// bad values with the input-rejected exit code (65) and one line, where a parser's own refusal
/// would be a usage error (64) with the whole usage text.
///
/// `Value` is constrained where the parsing is, not on the type: a constraint on the type makes
/// the Swift runtime search every protocol conformance of the binary for each `Value` the first
/// time the type is instantiated, as swift-argument-parser does for every flag of a command.
struct CheckedArgument<Value> {
    private let parsed: Result<Value, AnywallError>

    /// The value, or the refusal of the text it was given.
    func value() throws -> Value {
        try parsed.get()
    }
}

extension CheckedArgument: ExpressibleByArgument where Value: ArgumentText {
    init?(argument: String) {
        do {
            parsed = .success(try Value(argumentText: argument))
        } catch let error as AnywallError {
            parsed = .failure(error)
        } catch {
            parsed = .failure(.inputRejected("bad value '\(argument)': \(error)"))
        }
    }
}

extension Distance: ArgumentText {
    init(argumentText text: String) throws { try self.init(parsing: text) }
}

extension GeoPoint: ArgumentText {
    init(argumentText text: String) throws {
        do {
            try self.init(parsing: text)
        } catch let error as AnywallError {
            // `--at -122.4193,37.7793`: read the other way round, the pair is a place.
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = Double(parts[0]), abs(latitude) > 90,
                  (try? GeoPoint(parsing: "\(parts[1]),\(parts[0])")) != nil else { throw error }
            throw AnywallError.inputRejected("\(error.reason); latitude and longitude swapped? LAT comes first: --at \(parts[1]),\(parts[0])")
        }
    }
}

extension GPSDAddress: ArgumentText {
    init(argumentText text: String) throws { try self.init(parsing: text) }
}

extension BaudRate: ArgumentText {
    init(argumentText text: String) throws { try self.init(parsing: text) }
}

extension CachePolicy: ArgumentText {
    init(argumentText text: String) throws { try self.init(named: text) }
}

/// `--limit`: how many posts at most, 1 to 1000.
struct ResultLimit: ArgumentText {
    let count: Int

    init(argumentText text: String) throws {
        guard let count = Int(text) else {
            throw AnywallError.inputRejected("bad limit '\(text)': expected a whole number from 1 to 1000")
        }
        self.count = try WallQuery.checked(limit: count)
    }
}

/// `--fix-timeout`: seconds, more than 0 and at most a day.
struct FixTimeout: ArgumentText {
    static let longest = 86_400.0
    static let standard = Duration.seconds(10)
    let duration: Duration

    init(argumentText text: String) throws {
        guard let seconds = Double(text), seconds > 0, seconds <= Self.longest else {
            throw AnywallError.inputRejected(
                "bad --fix-timeout '\(text)': expected seconds, more than 0 and at most \(Int(Self.longest)) (a day)")
        }
        duration = .milliseconds(Int64(seconds * 1000))
    }
}

/// `--interval`: a number of seconds, or a number with `ms`, `s` or `min`, from 100 ms to a day.
struct WatchInterval: ArgumentText {
    let duration: Duration

    init(argumentText text: String) throws {
        guard let duration = Duration(parsing: text, seconds: 0.1...86_400) else {
            throw AnywallError.inputRejected("bad --interval '\(text)': expected a time from 100ms to a day, such as 30s or 2min")
        }
        self.duration = duration
    }
}
