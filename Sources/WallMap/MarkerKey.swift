/// The keys readable posts are shown by on the map and in its legend: `1`-`9`, then `a`-`z`.
enum MarkerKey {
    static let all: [Character] = Array("123456789abcdefghijklmnopqrstuvwxyz")

    /// The key of the `index`-th readable post, nil past the 35th.
    static func key(_ index: Int) -> Character? {
        index < all.count ? all[index] : nil
    }
}
