import AnywallSupport
import EmbeddedStore
import LocalState
import ParseClient
import ParseWire
import WallDomain
import WallLocation
/// The few terminal styles anywall uses (SGR escapes), each applied to one line at a time so that
/// a pager or a cut line never carries a style into the next.
enum TextStyle: String {
    case bold = "1"
    case dim = "2"
    /// The map's fix uncertainty ring.
    case yellow = "33"
    /// The map's filter circle.
    case cyan = "36"

    func apply(to line: String) -> String {
        "\u{1B}[\(rawValue)m\(line)\u{1B}[0m"
    }
}
