/// The confirmation step of a change: what will happen, a button that posts it (with the CSRF token) to the
/// page's own path, and a way back. Opening it changes nothing.
public struct ConfirmPage: Sendable {
    public var title: String
    public var explanation: String
    /// The path the confirmation posts to.
    public var action: String
    public var button: String
    /// Where "Cancel" goes.
    public var back: String
    public var isDangerous: Bool

    public init(title: String, explanation: String, action: String, button: String, back: String, isDangerous: Bool = true) {
        self.title = title
        self.explanation = explanation
        self.action = action
        self.button = button
        self.back = back
        self.isDangerous = isDangerous
    }

    public func html(_ viewer: ConsoleViewer, section: ConsoleLayout.Section) -> String {
        ConsoleLayout.page(title: title, viewer: viewer, section: section, body: """
            <div class="panel"><p>\(ConsoleHTML.escape(explanation))</p>
            <form method="post" action="\(ConsoleHTML.escape(action))">\(ConsoleHTML.csrfField(viewer))
            <div class="actions"><button type="submit" id="confirm"\(isDangerous ? " class=\"danger\"" : "")>\(ConsoleHTML.escape(button))</button>
            <a href="\(ConsoleHTML.escape(back))" class="button secondary" id="cancel">Cancel</a></div></form></div>
            """)
    }
}
