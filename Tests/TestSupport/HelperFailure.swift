/// Why a test helper (a server or daemon it starts, a connection it opens) could not do its part.
package struct HelperFailure: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}
