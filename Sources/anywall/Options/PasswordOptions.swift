import AnywallCore
import ArgumentParser
import Foundation

/// Where a password comes from. Never a flag value and never the environment: a prompt
/// without echo on a terminal, else stdin or a file.
struct PasswordOptions: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Option(help: ArgumentHelp("Read the password from the first line of a file.", valueName: "PATH"),
            completion: .file())
    var passwordFile: String?

    /// The password; `confirm` asks twice at a prompt (sign-up: "enter the same password twice").
    func read(confirm: Bool) throws -> String {
        if passwordStdin && passwordFile != nil {
            throw ValidationError("use either --password-stdin or --password-file, not both")
        }
        if passwordStdin {
            return try firstLine(of: LineReader.readAll(.standardInput, name: "standard input", limit: Terminal.inputLimit),
                                 from: "standard input")
        }
        if let passwordFile {
            guard let handle = FileHandle(forReadingAtPath: passwordFile) else {
                throw AnywallError.fileUnreadable("cannot read the password file \(passwordFile)")
            }
            return try firstLine(of: LineReader.readAll(handle, name: passwordFile, limit: Terminal.inputLimit), from: passwordFile)
        }
        guard Terminal.stdinIsTerminal else {
            throw ValidationError("no password: use --password-stdin or --password-file when not on a terminal")
        }
        let password = try Prompt.secret("Password: ")
        if confirm, try Prompt.secret("Password (again): ") != password {
            throw AnywallError.inputRejected("the two passwords differ")
        }
        return password
    }

    private func firstLine(of data: Data, from source: String) throws -> String {
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        guard !password.isEmpty else { throw AnywallError.inputRejected("the password from \(source) is empty") }
        return password
    }
}
