/// Hearth's version: the one place it is set. `hearth --version` and `hearth version` print `hearth <version>`,
/// and `hearth --help` names it.
enum HearthVersion {
    static let current = "0.1.0"
    static var line: String { "hearth \(current)" }
}
