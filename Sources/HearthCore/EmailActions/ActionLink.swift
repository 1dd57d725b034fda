import Foundation
import HearthProtocol

/// The link an email carries: `<public-url>/__/auth/action?mode=…&oobCode=…&apiKey=…&continueUrl=…&lang=en`
/// (in development `/emulator/action`, as the emulator's links, PROTOCOL.md §3.8, §7.2).
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
    /// web key there; the SDKs need one to finish the action).
    static func url(
        settings: EmailActionSettings, kind: OOBCodeRecord.Kind, code: String, apiKey: String, continueURL: String?
    ) -> String {
        var pairs = [("mode", mode(of: kind)), ("oobCode", code), ("apiKey", apiKey)]
        if let continueURL { pairs.append(("continueUrl", continueURL)) }
        pairs.append(("lang", "en"))
        return settings.publicURL + settings.actionPath + "?" + FormEncoding.encode(pairs)
    }

    /// Whether `text` is a URL a continue URL may be: absolute `http` or `https` with a host.
    static func isValidContinueURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
