/// Why a test helper (a server or daemon it starts, a connection it opens) could not do its part.
struct HelperFailure: Error, CustomStringConvertible {
    let description: String
}
