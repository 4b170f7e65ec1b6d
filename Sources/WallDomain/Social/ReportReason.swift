/// Why a post is reported, as Yik Yak's report form asks.
public enum ReportReason: String, CaseIterable, Sendable, Codable {
    case offensive
    case targetsSomeone = "targets-someone"
    case spam
    case other

    /// The reason named `text`, or a one-line refusal naming the choices.
    public static func parsed(_ text: String) throws(AnywallError) -> ReportReason {
        guard let reason = ReportReason(rawValue: text) else {
            throw .inputRejected("'\(text)' is not a reason to report: it is \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return reason
    }
}
