extension String {
    /// The text without white space or line breaks at either end: Unicode's White_Space set, the
    /// same as Foundation's `whitespacesAndNewlines`. Done without Foundation's NSString bridge,
    /// which was a tenth of an import's time, and without a copy when there is nothing to trim.
    public var trimmedOfWhitespace: String {
        // Printable ASCII at both ends (most texts): nothing to trim, known without Unicode's tables.
        let printable: ClosedRange<UInt8> = 0x21...0x7E
        if let head = utf8.first, let tail = utf8.last, printable.contains(head), printable.contains(tail) { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }
}
