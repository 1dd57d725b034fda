import HearthProtocol

/// The link an email carries: `<public-url>/__/auth/action?mode=…&oobCode=…&apiKey=…&continueUrl=…&lang=en`
/// (in development `/emulator/action`, as the emulator's links, PROTOCOL.md §3.8, §7.2), or the configured action
/// URL with the same parameters (a custom email action handler).
struct ActionLink {
    /// The action page's `mode` for each kind of code.
    static func mode(of kind: OOBCodeRecord.Kind) -> String {
        switch kind {
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .emailSignIn: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .recoverEmail: "recoverEmail"
        }
    }

    /// The link for `code` of `kind`. `apiKey` is the key the client called with (Firebase puts the project's
    /// web key there; the SDKs need one to finish the action); `lang` the request's locale, else `en`.
    static func url(
        settings: EmailActionSettings, kind: OOBCodeRecord.Kind, code: String, apiKey: String, continueURL: String?,
        locale: String? = nil
    ) -> String {
        var pairs = [("mode", mode(of: kind)), ("oobCode", code), ("apiKey", apiKey)]
        if let continueURL { pairs.append(("continueUrl", continueURL)) }
        pairs.append(("lang", locale ?? "en"))
        return settings.actionPage + "?" + FormEncoding.encode(pairs)
    }

    /// `text` as a continue URL: an absolute `http` or `https` URL that browsers read with the host Hearth reads
    /// (``BrowserURL``), else `INVALID_CONTINUE_URI` saying why.
    static func continueURL(_ text: String) throws -> BrowserURL {
        do {
            return try BrowserURL(parsing: text)
        } catch {
            throw WireError(.invalidContinueURI, "The continue URL must be an absolute http(s) URL that browsers read as Hearth does: \(error).")
        }
    }
}
