/// The emails of the actions: a subject, a plain text body and a simple HTML body each, naming the app and
/// carrying the action link (whose `continueUrl` brings the user back to the app afterwards); or the project's own
/// template (``CustomEmailTemplate``) where the config API set one.
public enum EmailTemplates {
    /// The email for `kind` to `to`, for the app called `appName`. `newEmail` is the address a
    /// `VERIFY_AND_CHANGE_EMAIL` changes to, or the one a `RECOVER_EMAIL` undoes. A `custom` template's subject and
    /// body replace Hearth's (an HTML body becomes the HTML part, Hearth's text staying the plain one; a plain body
    /// the only part), its placeholders filled in (escaped in HTML).
    public static func message(
        _ kind: OOBCodeRecord.Kind, to: String, appName: String, link: String, newEmail: String? = nil,
        displayName: String? = nil, custom: CustomEmailTemplate? = nil
    ) -> EmailMessage {
        var message = builtIn(kind, to: to, appName: appName, link: link, newEmail: newEmail)
        guard let custom else { return message }
        let values = [
            "DISPLAY_NAME": displayName ?? "", "APP_NAME": appName, "LINK": link, "EMAIL": to, "NEW_EMAIL": newEmail ?? "",
        ]
        if let subject = custom.subject {
            // One line whatever the values hold (a display name is the user's to choose).
            message.subject = String(
                CustomEmailTemplate.render(subject, values: values, html: false).map { $0.isNewline ? " " : $0 })
        }
        if let body = custom.body {
            let rendered = CustomEmailTemplate.render(body, values: values, html: custom.isHTML)
            if custom.isHTML {
                message.html = rendered
            } else {
                message.text = rendered
                message.html = nil
            }
        }
        return message
    }

    /// Hearth's own email for `kind`.
    private static func builtIn(
        _ kind: OOBCodeRecord.Kind, to: String, appName: String, link: String, newEmail: String?
    ) -> EmailMessage {
        let (subject, lines) = content(kind, to: to, appName: appName, newEmail: newEmail)
        let closing = "If you didn't ask for this, you can ignore this email."
        let text = ([ "Hello,", "" ] + lines + ["", link, "", closing, "", "Thanks,", "Your \(appName) team"])
            .joined(separator: "\n") + "\n"
        let paragraphs = lines.map { "<p>\(escapeHTML($0))</p>" }.joined(separator: "\n")
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escapeHTML(subject))</title></head>
            <body>
            <p>Hello,</p>
            \(paragraphs)
            <p><a href="\(escapeHTML(link))">\(escapeHTML(link))</a></p>
            <p>\(escapeHTML(closing))</p>
            <p>Thanks,<br>Your \(escapeHTML(appName)) team</p>
            </body></html>

            """
        return EmailMessage(to: to, subject: subject, text: text, html: html)
    }

    private static func content(_ kind: OOBCodeRecord.Kind, to: String, appName: String, newEmail: String?)
        -> (subject: String, lines: [String])
    {
        switch kind {
        case .passwordReset:
            ("Reset your password for \(appName)",
             ["Follow this link to reset your \(appName) password for your \(to) account."])
        case .verifyEmail:
            ("Verify your email for \(appName)", ["Follow this link to verify your email address."])
        case .emailSignIn:
            ("Sign in to \(appName) requested at your email address",
             ["We received a request to sign in to \(appName) using this email address.",
              "Follow this link to sign in with \(to)."])
        case .verifyAndChangeEmail:
            ("Verify your new email for \(appName)",
             ["Follow this link to verify \(newEmail ?? to) and make it the email of your \(appName) account."])
        case .recoverEmail:
            ("Your sign-in email was changed for \(appName)",
             ["Your sign-in email for \(appName) was changed to \(newEmail ?? "another address").",
              "If you didn't ask to change it, follow this link to reset your sign-in email to \(to)."])
        }
    }

    private static func escapeHTML(_ text: String) -> String { HTMLText.escape(text) }
}
