import HearthCore

/// The HTML of the action page: self-contained (no outside assets, no script), one form per step, labelled
/// fields, errors announced (`role="alert"`).
enum ActionPage {
    /// The new-password form of a password reset.
    static func resetForm(path: String, oobCode: String, email: String, error: String? = nil) -> String {
        page(title: "Reset your password", body: """
            <p>for <strong>\(escape(email))</strong></p>
            \(alert(error))
            <form method="post" action="\(escape(path))">
            <input type="hidden" name="oobCode" value="\(escape(oobCode))">
            <input type="text" name="username" value="\(escape(email))" autocomplete="username" hidden readonly>
            <label for="newPassword">New password</label>
            <input type="password" id="newPassword" name="newPassword" autocomplete="new-password" required>
            <button type="submit" id="save">Save</button>
            </form>
            """)
    }

    /// A button that applies a code (verify, change or recover an email): nothing happens on opening the link, so
    /// mail scanners that fetch links do not use the code up.
    static func confirmForm(path: String, oobCode: String, title: String, explanation: String) -> String {
        page(title: title, body: """
            <p>\(escape(explanation))</p>
            <form method="post" action="\(escape(path))">
            <input type="hidden" name="oobCode" value="\(escape(oobCode))">
            <button type="submit" id="confirm">\(escape(title))</button>
            </form>
            """)
    }

    static func done(title: String, message: String, continueURL: String?) -> String {
        let next = continueURL.map { "<p><a href=\"\(escape($0))\" id=\"continue\">Continue</a></p>" } ?? ""
        return page(title: title, body: "<p role=\"status\">\(escape(message))</p>\n\(next)")
    }

    static func failure(title: String, message: String) -> String {
        page(title: title, body: alert(message))
    }

    private static func alert(_ message: String?) -> String {
        message.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>" } ?? ""
    }

    private static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        body{font-family:system-ui,sans-serif;background:#f1f3f4;margin:0;padding:2rem}
        main{max-width:26rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 3px #0003}
        h1{font-size:1.4rem;font-weight:400}.error{color:#c5221f}
        label{display:block;margin:.8rem 0 .3rem}input[type=password]{width:100%;box-sizing:border-box;padding:.5rem}
        button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit}
        </style></head>
        <body><main>
        <h1>\(escape(title))</h1>
        \(body)
        </main></body></html>
        """
    }

    private static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
