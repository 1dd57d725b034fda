import HearthCore

/// A dev provider's answer posted by the browser: Apple's `response_mode=form_post`, SAML's HTTP-POST binding. A page
/// whose form POSTs the fields to the app's URI; a few lines of script submit it at once, without script the visible
/// button does.
struct FormPostPage {
    var action: String
    var fields: [(name: String, value: String)]
    /// Who answers, as the title names it: `Apple`, `SAML IdP`.
    var providerName = "Apple"

    var html: String {
        let inputs = fields.map { "<input type=\"hidden\" name=\"\(HTML.escape($0.name))\" value=\"\(HTML.escape($0.value))\">" }
            .joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <title>Signing in – Hearth development \(HTML.escape(providerName))</title></head>
            <body style="font-family:system-ui,sans-serif;padding:2rem">
            <form method="post" action="\(HTML.escape(action))" id="answer">
            \(inputs)
            <p>Returning to the app…</p>
            <button type="submit">Continue</button>
            </form>
            <script>document.getElementById('answer').submit();</script>
            </body></html>
            """
    }
}
