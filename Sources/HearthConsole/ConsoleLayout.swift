/// The frame of every console page: the header with the navigation and the sign-out button, the main part, and
/// the one stylesheet. No script and no outside asset.
public enum ConsoleLayout {
    /// The navigation entries.
    public enum Section: String, Sendable {
        case home, users, tenants, config, keys, audit, development
    }

    /// A whole page for `viewer`, with `section` marked as current in the navigation.
    public static func page(title: String, viewer: ConsoleViewer, section: Section?, body: String) -> String {
        var entries: [(Section, String, String)] = [
            (.home, "Overview", ConsolePaths.home), (.users, "Users", ConsolePaths.users), (.tenants, "Tenants", ConsolePaths.tenants),
            (.config, "Configuration", ConsolePaths.config),
            (.keys, "Signing keys", ConsolePaths.keys),
            (.audit, "Audit log", ConsolePaths.audit),
        ]
        if viewer.development { entries.append((.development, "Development", ConsolePaths.development)) }
        let navigation = entries.map { entry, label, path in
            let current = entry == section ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(path)\"\(current)>\(label)</a></li>"
        }.joined()
        let who: String = if let name = viewer.name {
            """
            <form method="post" action="\(ConsolePaths.signOut)" class="who">\(ConsoleHTML.csrfField(viewer))
            <span>\(ConsoleHTML.escape(name))</span> <button type="submit" id="sign-out">Sign out</button></form>
            """
        } else {
            "<p class=\"who\">Development: open on loopback</p>"
        }
        return document(title: title, body: """
            <header><a href="\(ConsolePaths.home)" class="brand">Hearth console</a>
            <nav aria-label="Console"><ul>\(navigation)</ul></nav>\(who)</header>
            <main id="main"><h1>\(ConsoleHTML.escape(title))</h1>
            \(body)
            </main>
            """)
    }

    /// A page outside the signed-in console (sign-in, refusal), without navigation.
    /// - Parameter refreshTo: a same-origin path the browser moves on to at once (`<meta http-equiv="refresh">`).
    public static func standalone(title: String, body: String, refreshTo: String? = nil) -> String {
        document(title: title, refreshTo: refreshTo, body: """
            <header><span class="brand">Hearth console</span></header>
            <main id="main" class="narrow"><h1>\(ConsoleHTML.escape(title))</h1>
            \(body)
            </main>
            """)
    }

    private static func document(title: String, refreshTo: String? = nil, body: String) -> String {
        let refresh = refreshTo.map { "<meta http-equiv=\"refresh\" content=\"0;url=\(ConsoleHTML.escape($0))\">\n" } ?? ""
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        \(refresh)<title>\(ConsoleHTML.escape(title)) – Hearth console</title>
        <link rel="stylesheet" href="\(ConsolePaths.stylesheet)">
        </head><body>
        <a href="#main" class="skip">Skip to content</a>
        \(body)
        </body></html>
        """
    }
}
