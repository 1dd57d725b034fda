/// The emails of the actions: a subject, a plain text body and a simple HTML body each (``EmailWording``), naming the app and
/// carrying the action link (whose `continueUrl` brings the user back to the app afterwards); or the project's own
/// template (``CustomEmailTemplate``) where the config API set one.
public enum EmailTemplates {
    /// The email for `kind` to `to`, for the app called `appName`. `newEmail` is the address a
    /// `VERIFY_AND_CHANGE_EMAIL` changes to, or the one a `RECOVER_EMAIL` undoes. A `custom` template's subject and
    /// body replace Hearth's (an HTML body becomes the HTML part, Hearth's text staying the plain one; a plain body
    /// the only part), its placeholders filled in (escaped in HTML). Hearth's own are in the `locale`'s language
    /// where Hearth has it (English, French, German, Spanish), else English.
    public static func message(
        _ kind: OOBCodeRecord.Kind, to: String, appName: String, link: String, newEmail: String? = nil,
        displayName: String? = nil, custom: CustomEmailTemplate? = nil, locale: String? = nil
    ) -> EmailMessage {
        var message = builtIn(
            kind, to: to, appName: appName, link: link, newEmail: newEmail, wording: .forLocale(locale))
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

    /// Hearth's own email for `kind`, in `wording`'s language.
    private static func builtIn(
        _ kind: OOBCodeRecord.Kind, to: String, appName: String, link: String, newEmail: String?, wording: EmailWording
    ) -> EmailMessage {
        let (subject, lines) = wording.content(kind, to, appName, newEmail)
        let team = wording.team(appName)
        let text = ([wording.greeting, ""] + lines + ["", link, "", wording.closing, "", wording.thanks, team])
            .joined(separator: "\n") + "\n"
        let paragraphs = lines.map { "<p>\(escapeHTML($0))</p>" }.joined(separator: "\n")
        let html = """
            <!doctype html>
            <html lang="\(wording.language)"><head><meta charset="utf-8"><title>\(escapeHTML(subject))</title></head>
            <body>
            <p>\(escapeHTML(wording.greeting))</p>
            \(paragraphs)
            <p><a href="\(escapeHTML(link))">\(escapeHTML(link))</a></p>
            <p>\(escapeHTML(wording.closing))</p>
            <p>\(escapeHTML(wording.thanks))<br>\(escapeHTML(team))</p>
            </body></html>

            """
        return EmailMessage(to: to, subject: subject, text: text, html: html)
    }

    private static func escapeHTML(_ text: String) -> String { HTMLText.escape(text) }
}
