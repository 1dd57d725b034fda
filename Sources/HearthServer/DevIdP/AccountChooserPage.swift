import HearthCore

/// The dev IdPs' sign-in page: an account chooser (Google-style) with the accounts that exist, a form to add
/// one (with an auto-generate button), and Cancel. Everything posts back to the authorization endpoint
/// together with the original request's parameters. The dev Apple's page also offers "Hide my email".
struct AccountChooserPage {
    /// Who the page stands in for: `Google` or `Apple`.
    var providerName: String
    var clientID: String
    /// The authorization request's parameters, carried through every form.
    var parameters: [(String, String)]
    var accounts: [DevIdPAccount]
    var actionPath: String
    var errorMessage: String?
    var prefilledEmail: String?
    /// Apple's "Hide my email" choice: a second button per account (`hide_my_email=true`) and a checkbox
    /// instead of "Email verified" when adding an account.
    var offersHiddenEmail = false

    var html: String {
        let hidden = parameters.map { name, value in
            "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
        }.joined()
        let hideButton = offersHiddenEmail
            ? "<button type=\"submit\" name=\"hide_my_email\" value=\"true\" class=\"hide\">Hide my email</button>" : ""
        let accountRows = accounts.map { account in
            let picture = account.pictureURL.map { "<img src=\"\(escape($0))\" alt=\"\" class=\"avatar\">" }
                ?? "<span class=\"avatar initial\">\(escape(String((account.name ?? account.email).prefix(1)).uppercased()))</span>"
            let highlighted = account.email == prefilledEmail?.lowercased() ? " hinted" : ""
            return """
                <form method="post" action="\(escape(actionPath))" class="account\(highlighted)">\(hidden)
                <input type="hidden" name="action" value="choose"><input type="hidden" name="subject" value="\(escape(account.subject))">
                <button type="submit">\(picture)<span><strong>\(escape(account.name ?? "(No display name)"))</strong><br>\(escape(account.email))</span></button>\(hideButton)
                </form>
                """
        }.joined(separator: "\n")
        let error = errorMessage.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>" } ?? ""
        let emptyNote = accounts.isEmpty ? "<p class=\"note\">No accounts yet. Add one below.</p>" : ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in – Hearth development \(escape(providerName))</title>
            <style>
            body{font-family:system-ui,sans-serif;background:#f1f3f4;margin:0;padding:2rem}
            main{max-width:28rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 3px #0003}
            h1{font-size:1.4rem;font-weight:400}.note{color:#5f6368;font-size:.9rem}.error{color:#c5221f}
            .account button{display:flex;gap:.8rem;align-items:center;width:100%;text-align:left;background:none;border:0;border-bottom:1px solid #dadce0;padding:.7rem 0;cursor:pointer;font:inherit}
            .account.hinted button{background:#e8f0fe}.account button.hide{width:auto;color:#1a73e8;border:0;padding:0 0 .7rem 3rem}.avatar{width:2.2rem;height:2.2rem;border-radius:50%;object-fit:cover}
            .initial{display:inline-flex;align-items:center;justify-content:center;background:#1a73e8;color:#fff}
            label{display:block;margin:.6rem 0 .2rem}input[type=text],input[type=email],input[type=url]{width:100%;box-sizing:border-box;padding:.45rem}
            .buttons{display:flex;gap:.6rem;margin-top:1rem;flex-wrap:wrap}
            </style></head>
            <body><main>
            <h1>Choose an account</h1>
            <p class="note">to continue to <code>\(escape(clientID))</code> — this is Hearth's local stand-in for \(escape(providerName)); no real \(escape(providerName)) account is used.</p>
            \(error)
            \(accountRows)
            \(emptyNote)
            <h2 style="font-size:1.05rem;font-weight:500">Add an account</h2>
            <form method="post" action="\(escape(actionPath))" id="add">\(hidden)
            <input type="hidden" name="action" value="add">
            <label for="email">Email (required)</label><input type="email" id="email" name="email" required value="\(escape(prefilledEmail ?? ""))">
            <label for="name">Display name</label><input type="text" id="name" name="name">
            <label for="picture">Profile photo URL</label><input type="url" id="picture" name="picture">
            \(offersHiddenEmail
                ? "<label><input type=\"checkbox\" name=\"hide_my_email\" value=\"true\"> Hide my email</label>"
                : "<label><input type=\"checkbox\" name=\"email_verified\" value=\"true\" checked> Email verified</label>")
            <div class="buttons">
            <button type="button" id="generate">Auto-generate user information</button>
            <button type="submit">Sign in with \(escape(providerName))</button>
            </div>
            </form>
            <form method="post" action="\(escape(actionPath))">\(hidden)<input type="hidden" name="action" value="cancel">
            <div class="buttons"><button type="submit">Cancel</button></div></form>
            </main>
            <script>
            document.getElementById('generate').addEventListener('click', function () {
              var words = ['amber','birch','cedar','delta','ember','fable','garnet','harbor','iris','juniper','kestrel','lumen','maple','nova','orchid','pepper','quartz','raven','sierra','tundra'];
              function pick() { return words[Math.floor(Math.random() * words.length)]; }
              var first = pick(), last = pick(), n = Math.floor(Math.random() * 1000);
              function cap(w) { return w.charAt(0).toUpperCase() + w.slice(1); }
              document.getElementById('email').value = first + '.' + last + '.' + n + '@example.com';
              document.getElementById('name').value = cap(first) + ' ' + cap(last);
            });
            </script>
            </body></html>
            """
    }

    /// Escapes text for HTML content and attribute values.
    func escape(_ text: String) -> String { HTML.escape(text) }
}

enum HTML {
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// A minimal error page (no redirect is safe when the client or redirect URI is not trusted).
    static func errorPage(title: String, message: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title></head>
        <body style="font-family:system-ui,sans-serif;padding:2rem"><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>
        """
    }
}
