/// Comparison of secrets (the `state` of an authorization response) whose time does not depend on where the
/// values first differ.
enum ConstantTime {
    /// Whether `received` is present and equal to `expected`; the time depends only on the lengths.
    static func equals(_ received: String?, _ expected: String) -> Bool {
        guard let received else { return false }
        let a = Array(received.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
