import AnywallSupport
import EmbeddedStore
import Foundation
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation

/// How many terminal columns text takes, as the C library measures it (`wcwidth`): East Asian wide
/// characters and most emoji take two, combining marks none. This needs a UTF-8 `LC_CTYPE`, which
/// the entry point sets.
enum DisplayWidth {
    static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// A character (a grapheme cluster) is one glyph: as wide as its widest scalar. Summing them
    /// would count an emoji with a skin tone (two scalars of two columns) as four.
    static func of(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { max($0, of($1)) }
    }

    /// The longest start of `text` that fits in `width` columns, and what is left; the start holds at
    /// least one character, so that breaking text into pieces always moves on.
    static func split(_ text: Substring, fitting width: Int) -> (head: Substring, rest: Substring) {
        var used = 0
        var end = text.startIndex
        for character in text {
            let columns = of(character)
            if used + columns > width, end > text.startIndex { break }
            used += columns
            end = text.index(after: end)
        }
        return (text[..<end], text[end...])
    }

    /// A scalar the C library calls unprintable (-1) counts as one column: a line measured too
    /// wide still fits, one measured too narrow would not.
    private static func of(_ scalar: Unicode.Scalar) -> Int {
        let columns = Int(wcwidth(wchar_t(scalar.value)))
        return columns < 0 ? 1 : columns
    }

    /// glibc declares `wcwidth` only to X/Open builds, which Swift's Glibc module is not, so it is
    /// looked up by name once; every C library has it.
    private static let wcwidth: @convention(c) (wchar_t) -> Int32 = {
        unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "wcwidth")!, to: (@convention(c) (wchar_t) -> Int32).self)
    }()
}
