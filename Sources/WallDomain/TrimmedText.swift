extension String {
    /// The text without white space or line breaks at either end: Unicode's White_Space set, the
    /// same as Foundation's `whitespacesAndNewlines`. Done without Foundation's NSString bridge,
    /// which was a tenth of an import's time, and without a copy when there is nothing to trim.
    public var trimmedOfWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }
}
