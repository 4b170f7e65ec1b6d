import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation
/// Breaks one line of text into lines of at most `width` display columns, at spaces; a word wider
/// than a whole line is broken where the line ends. Spaces between words collapse to one.
enum WordWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ") {
            var word = word
            var wordWidth = DisplayWidth.of(word)
            if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
            }
            while wordWidth > width {
                let (head, rest) = DisplayWidth.split(word, fitting: width)
                lines.append(String(head))
                word = rest
                wordWidth = DisplayWidth.of(rest)
            }
            line = String(word)
            lineWidth = wordWidth
        }
        lines.append(line)
        return lines
    }
}
