import Foundation
import HearthConsole
import HearthHTTP

/// The console's cookies, all `HttpOnly`, `Path=/console` and `Secure` when the public URL is https:
/// - `hearth_console`: the signed-in administrator's console session (``ConsoleSession``), `SameSite=Strict`;
/// - `hearth_console_open`: in development without sign-in, a random value the CSRF token is bound to, `SameSite=Strict`;
/// - `hearth_console_flow`: a sign-in in progress (state, PKCE verifier, nonce), `SameSite=Lax` so that it comes back
///   with the provider's redirect, for 10 minutes;
/// - `hearth_console_mfa`: an administrator's sign-in waiting for its second factor (the pending credential),
///   `SameSite=Strict`, for 10 minutes.
struct ConsoleCookies: Sendable {
    static let session = "hearth_console"
    static let open = "hearth_console_open"
    static let flow = "hearth_console_flow"
    static let secondFactor = "hearth_console_mfa"

    /// Whether cookies are marked `Secure` (the public URL is https).
    let secure: Bool

    /// A `Set-Cookie` value; `maxAge` 0 deletes the cookie.
    func setting(_ name: String, _ value: String, maxAge: Int64, sameSite: String = "Strict") -> String {
        "\(name)=\(value); Path=\(ConsolePaths.base); Max-Age=\(maxAge); HttpOnly; SameSite=\(sameSite)\(secure ? "; Secure" : "")"
    }

    /// A `Set-Cookie` value that deletes `name`.
    func deleting(_ name: String) -> String { setting(name, "", maxAge: 0) }

    /// The value of the cookie `name` the request carries (the first, if it carries several).
    static func value(_ name: String, in request: HTTPRequest) -> String? {
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }
}
