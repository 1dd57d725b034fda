/// Who is looking at a console page, as the layout shows them, and the token the page's forms carry.
public struct ConsoleViewer: Sendable {
    /// The signed-in administrator's email (or uid); nil when the console is open without sign-in (`--dev` on loopback).
    public var name: String?
    /// The token every form posts (`csrf`), bound to the visitor's console cookie.
    public var csrfToken: String
    /// Whether the development pages (dev IdP accounts, codes waiting to be read) are offered.
    public var development: Bool

    public init(name: String?, csrfToken: String, development: Bool) {
        self.name = name
        self.csrfToken = csrfToken
        self.development = development
    }
}
