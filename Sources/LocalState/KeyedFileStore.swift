import AnywallSupport
import Foundation

/// One small JSON file per key in a directory, written whole and atomically: the store behind
/// the result cache, the saved results of `--changes` and the config cache. A file that cannot
/// be read or decoded reads as none (the callers refetch or start over), never as an error.
struct KeyedFileStore: Sendable {
    let directory: URL
    /// Put before each key in the file's name (`config-`), so several stores can share a directory.
    private let prefix: String
    /// The files' mode: 0600 unless what they hold is meant for others too.
    private let mode: mode_t

    init(directory: URL, prefix: String = "", mode: mode_t = 0o600) {
        self.directory = directory
        self.prefix = prefix
        self.mode = mode
    }

    /// A key for a question made of `parts`: a digest, so any text makes a safe file name.
    static func key(_ parts: [String], bytes: Int = 12) -> String {
        HexDigest.sha256(parts.joined(separator: "\n"), bytes: bytes)
    }

    /// The value kept under `key`, or nil when there is none or it cannot be read.
    func load<Value: Decodable>(_ type: Value.Type, key: String, decoder: JSONDecoder = JSONDecoder()) -> Value? {
        guard let data = try? PrivateFile.read(file(key)) else { return nil }
        return try? decoder.decode(type, from: data)
    }

    /// Keeps `value` under `key`, replacing what was there.
    func save<Value: Encodable>(_ value: Value, key: String, encoder: JSONEncoder = JSONEncoder()) throws {
        try PrivateFile.write(try encoder.encode(value), to: file(key), mode: mode)
    }

    private func file(_ key: String) -> URL {
        directory.appendingPathComponent("\(prefix)\(key).json")
    }
}
