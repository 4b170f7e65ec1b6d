/// The one rule for a password, applied by every wall before it hashes one (sign-up, a change,
/// `passwd`): anything but nothing. anywall-server asks for a length of its own beside
/// (`--min-password-length`).
public enum Password {
    /// The password, refused when empty.
    public static func validated(_ raw: String) throws(AnywallError) -> String {
        guard !raw.isEmpty else { throw .inputRejected("the password is empty") }
        return raw
    }
}
