/// The version anywall reports (`--version`, and the `User-Agent` it sends to servers).
public enum AnywallVersion {
    public static let current = "0.1.0"
}
