import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Hearth's emails in the request's language: English, French, German, Spanish; English otherwise")
struct EmailWordingTests {
    private func message(_ kind: OOBCodeRecord.Kind, _ locale: String?) -> EmailMessage {
        EmailTemplates.message(
            kind, to: "ada@example.com", appName: "Acme <Notes>", link: "https://auth.example.com/a?oobCode=C&x=1",
            newEmail: "new@example.com", locale: locale)
    }

    @Test("the subject, greeting and HTML lang follow the locale's language", arguments: [
        ("fr-CA", "fr", "Réinitialisez votre mot de passe pour Acme <Notes>", "Bonjour,"),
        ("de", "de", "Passwort für Acme <Notes> zurücksetzen", "Hallo,"),
        ("es-419", "es", "Restablece tu contraseña de Acme <Notes>", "Hola:"),
        ("en-GB", "en", "Reset your password for Acme <Notes>", "Hello,"),
        ("pt-BR", "en", "Reset your password for Acme <Notes>", "Hello,"),
        (nil, "en", "Reset your password for Acme <Notes>", "Hello,"),
    ] as [(String?, String, String, String)])
    func languages(locale: String?, language: String, subject: String, greeting: String) throws {
        let email = message(.passwordReset, locale)
        #expect(email.subject == subject)
        #expect(email.text.hasPrefix(greeting + "\n") && email.text.contains("https://auth.example.com/a?oobCode=C&x=1"))
        let html = try #require(email.html)
        #expect(html.contains(#"<html lang="\#(language)">"#))
        #expect(html.contains("Acme &lt;Notes&gt;") && !html.contains("<Notes>") && html.contains("oobCode=C&amp;x=1"))
    }

    @Test("every kind has its own words in every language, naming the addresses it is about")
    func everyKind() {
        for locale in ["en", "fr", "de", "es"] {
            var subjects = Set<String>()
            for kind in OOBCodeRecord.Kind.allCases {
                let email = message(kind, locale)
                subjects.insert(email.subject)
                if kind == .verifyAndChangeEmail || kind == .recoverEmail {
                    #expect(email.text.contains("new@example.com"), "\(locale) \(kind)")
                }
            }
            #expect(subjects.count == OOBCodeRecord.Kind.allCases.count, "\(locale)")
        }
    }
}
