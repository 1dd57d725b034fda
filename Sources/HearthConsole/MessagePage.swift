/// Pages outside the signed-in console: the sign-in start, refusals and errors.
public enum MessagePage {
    /// "Sign in to the Hearth console" with one button that starts the sign-in at `providerName`.
    public static func signIn(providerName: String, message: String? = nil) -> String {
        ConsoleLayout.standalone(title: "Sign in", body: """
            \(ConsoleHTML.alert(message))
            <p>The console is for Hearth's administrators: accounts with the custom claim <code>"hearthAdmin": true</code>.</p>
            <p><a class="button" href="\(ConsolePaths.signIn)?start=1" id="sign-in">Sign in with \(ConsoleHTML.escape(providerName))</a></p>
            """)
    }

    /// A refusal or an error, with a way to start again.
    public static func message(title: String, text: String, again: Bool = true) -> String {
        ConsoleLayout.standalone(title: title, body: """
            <p class="alert" role="alert">\(ConsoleHTML.escape(text))</p>
            \(again ? "<p><a href=\"\(ConsolePaths.signIn)\">Sign in with another account</a></p>" : "")
            """)
    }

    /// The second step of an administrator's sign-in: the code from an authenticator app, posted with the CSRF token
    /// bound to the pending sign-in.
    public static func secondFactor(csrfToken: String, enrollmentID: String, factorName: String, error: String? = nil) -> String {
        ConsoleLayout.standalone(title: "Second factor", body: """
            \(ConsoleHTML.alert(error))
            <form method="post" action="\(ConsolePaths.secondFactor)">
            <input type="hidden" name="csrf" value="\(ConsoleHTML.escape(csrfToken))">
            <input type="hidden" name="enrollment" value="\(ConsoleHTML.escape(enrollmentID))">
            <label for="code">Code from \(ConsoleHTML.escape(factorName))</label>
            <input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
            <div class="actions"><button type="submit" id="verify">Verify</button></div></form>
            """)
    }

    /// After the sign-in callback: a same-site step into the console, so that the `SameSite=Strict` session cookie is
    /// sent with it even when the provider's redirect was a cross-site navigation.
    public static func continueInto(_ path: String) -> String {
        ConsoleLayout.standalone(title: "Signed in", body: """
            <p role="status">You are signed in.</p><p><a href="\(ConsoleHTML.escape(path))" id="continue" class="button">Continue to the console</a></p>
            """, refreshTo: path)
    }
}
