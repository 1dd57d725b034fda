/// The words of Hearth's own emails in each language it has (English, French, German, Spanish), chosen by the
/// request's locale (`X-Firebase-Locale`): its language, else English.
struct EmailWording: Sendable {
    /// The `lang` of the HTML part.
    var language: String
    var greeting: String
    var closing: String
    var thanks: String
    /// The signature, given the app's name.
    var team: @Sendable (String) -> String
    /// The subject and the lines of an email of a kind, given the recipient, the app's name and the other address.
    var content: @Sendable (OOBCodeRecord.Kind, _ to: String, _ app: String, _ other: String?) -> (String, [String])

    /// The wording for `locale` (`fr`, `fr-CA` …): its language's, else English.
    static func forLocale(_ locale: String?) -> EmailWording {
        let language = locale?.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        return all[language] ?? english
    }

    private static let all = ["en": english, "fr": french, "de": german, "es": spanish]

    static let english = EmailWording(
        language: "en", greeting: "Hello,", closing: "If you didn't ask for this, you can ignore this email.",
        thanks: "Thanks,", team: { "Your \($0) team" },
        content: { kind, to, app, other in
            switch kind {
            case .passwordReset:
                ("Reset your password for \(app)", ["Follow this link to reset your \(app) password for your \(to) account."])
            case .verifyEmail:
                ("Verify your email for \(app)", ["Follow this link to verify your email address."])
            case .emailSignIn:
                ("Sign in to \(app) requested at your email address",
                 ["We received a request to sign in to \(app) using this email address.", "Follow this link to sign in with \(to)."])
            case .verifyAndChangeEmail:
                ("Verify your new email for \(app)",
                 ["Follow this link to verify \(other ?? to) and make it the email of your \(app) account."])
            case .recoverEmail:
                ("Your sign-in email was changed for \(app)",
                 ["Your sign-in email for \(app) was changed to \(other ?? "another address").",
                  "If you didn't ask to change it, follow this link to reset your sign-in email to \(to)."])
            }
        })

    static let french = EmailWording(
        language: "fr", greeting: "Bonjour,",
        closing: "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer cet e-mail.", thanks: "Merci,",
        team: { "L'équipe \($0)" },
        content: { kind, to, app, other in
            switch kind {
            case .passwordReset:
                ("Réinitialisez votre mot de passe pour \(app)",
                 ["Suivez ce lien pour réinitialiser le mot de passe \(app) de votre compte \(to)."])
            case .verifyEmail:
                ("Validez votre adresse e-mail pour \(app)", ["Suivez ce lien pour valider votre adresse e-mail."])
            case .emailSignIn:
                ("Connexion à \(app) demandée avec votre adresse e-mail",
                 ["Nous avons reçu une demande de connexion à \(app) avec cette adresse e-mail.",
                  "Suivez ce lien pour vous connecter avec \(to)."])
            case .verifyAndChangeEmail:
                ("Validez votre nouvelle adresse e-mail pour \(app)",
                 ["Suivez ce lien pour valider \(other ?? to) et en faire l'adresse e-mail de votre compte \(app)."])
            case .recoverEmail:
                ("Votre adresse e-mail de connexion à \(app) a été modifiée",
                 ["Votre adresse e-mail de connexion à \(app) a été remplacée par \(other ?? "une autre adresse").",
                  "Si vous n'avez pas demandé ce changement, suivez ce lien pour rétablir \(to) comme adresse de connexion."])
            }
        })

    static let german = EmailWording(
        language: "de", greeting: "Hallo,",
        closing: "Wenn Sie dies nicht angefordert haben, können Sie diese E-Mail ignorieren.", thanks: "Vielen Dank,",
        team: { "Ihr \($0)-Team" },
        content: { kind, to, app, other in
            switch kind {
            case .passwordReset:
                ("Passwort für \(app) zurücksetzen",
                 ["Folgen Sie diesem Link, um das \(app)-Passwort Ihres Kontos \(to) zurückzusetzen."])
            case .verifyEmail:
                ("Bestätigen Sie Ihre E-Mail-Adresse für \(app)",
                 ["Folgen Sie diesem Link, um Ihre E-Mail-Adresse zu bestätigen."])
            case .emailSignIn:
                ("Anmeldung bei \(app) mit Ihrer E-Mail-Adresse angefordert",
                 ["Wir haben eine Anfrage erhalten, sich mit dieser E-Mail-Adresse bei \(app) anzumelden.",
                  "Folgen Sie diesem Link, um sich mit \(to) anzumelden."])
            case .verifyAndChangeEmail:
                ("Bestätigen Sie Ihre neue E-Mail-Adresse für \(app)",
                 ["Folgen Sie diesem Link, um \(other ?? to) zu bestätigen und als E-Mail-Adresse Ihres \(app)-Kontos festzulegen."])
            case .recoverEmail:
                ("Ihre Anmelde-E-Mail-Adresse für \(app) wurde geändert",
                 ["Ihre Anmelde-E-Mail-Adresse für \(app) wurde in \(other ?? "eine andere Adresse") geändert.",
                  "Wenn Sie diese Änderung nicht angefordert haben, folgen Sie diesem Link, um Ihre Anmelde-E-Mail-Adresse wieder auf \(to) zu setzen."])
            }
        })

    static let spanish = EmailWording(
        language: "es", greeting: "Hola:", closing: "Si no lo has solicitado, puedes ignorar este correo.",
        thanks: "Gracias,", team: { "El equipo de \($0)" },
        content: { kind, to, app, other in
            switch kind {
            case .passwordReset:
                ("Restablece tu contraseña de \(app)",
                 ["Sigue este enlace para restablecer la contraseña de \(app) de tu cuenta \(to)."])
            case .verifyEmail:
                ("Verifica tu correo electrónico para \(app)",
                 ["Sigue este enlace para verificar tu dirección de correo electrónico."])
            case .emailSignIn:
                ("Solicitud de inicio de sesión en \(app) con tu correo electrónico",
                 ["Hemos recibido una solicitud para iniciar sesión en \(app) con esta dirección de correo electrónico.",
                  "Sigue este enlace para iniciar sesión con \(to)."])
            case .verifyAndChangeEmail:
                ("Verifica tu nuevo correo electrónico para \(app)",
                 ["Sigue este enlace para verificar \(other ?? to) y convertirlo en el correo electrónico de tu cuenta de \(app)."])
            case .recoverEmail:
                ("Se ha cambiado tu correo electrónico de inicio de sesión en \(app)",
                 ["Tu correo electrónico de inicio de sesión en \(app) se ha cambiado a \(other ?? "otra dirección").",
                  "Si no has solicitado este cambio, sigue este enlace para restablecer \(to) como tu correo electrónico de inicio de sesión."])
            }
        })
}
