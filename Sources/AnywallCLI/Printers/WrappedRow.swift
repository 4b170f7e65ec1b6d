import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation
/// One row of readable output: a head (the columns before the text, already aligned) and the text,
/// wrapped to the width of the reader's terminal.
///
/// With room for `minimumTextWidth` columns beside the head, the text's lines stand under each
/// other beside it; with less (a narrow terminal), the text goes on lines of its own under the
/// head, indented. With no width (output that is not a terminal), a row is one line, so that
/// `grep` sees each post whole.
enum WrappedRow {
    static let separator = "  "
    static let minimumTextWidth = 20
    static let stackedIndent = 4

    static func lines(head: String, text: String, width: Int?) -> [String] {
        guard let width else { return [head + separator + text] }
        let textColumn = DisplayWidth.of(head) + separator.count
        if width - textColumn >= minimumTextWidth {
            let indent = String(repeating: " ", count: textColumn)
            return WordWrap.lines(text, width: width - textColumn).enumerated().map { i, line in
                (i == 0 ? head + separator : indent) + line
            }
        }
        // Only a terminal narrower than the head's columns needs the head cut.
        let trimmedHead = head.replacing(#/ +$/#, with: "")
        let shownHead = String(DisplayWidth.split(Substring(trimmedHead), fitting: width).head)
        // The indent gives way on a terminal too narrow for it, so that every line still fits.
        let indent = String(repeating: " ", count: max(0, min(stackedIndent, width - 1)))
        return [shownHead] + WordWrap.lines(text, width: width - indent.count).map { indent + $0 }
    }
}
