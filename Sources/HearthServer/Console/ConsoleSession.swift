import Foundation
import HearthCore
import HearthProtocol

/// Checks a console session cookie on every request: a console session (`TokenService.mintConsoleSession`: the
/// console's own issuer and audience, so an app's session cookie from `createSessionCookie` is not one), unexpired,
/// whose account still exists, is enabled, has not revoked its sessions since the session was signed (compared in
/// milliseconds) and still has the `hearthAdmin` claim. Anything else signs the visitor out.
struct ConsoleSession: Sendable {
    let platform: IdentityPlatform

    /// Why a cookie no longer lets its holder in.
    enum Refusal: Error, Equatable {
        /// Not a console session, expired, or revoked with its account: sign in again.
        case signedOut
        /// The account is valid but not an administrator (any more).
        case notAdministrator
    }

    /// The administrator's account, re-read from the store.
    func administrator(cookie: String) throws -> Account {
        guard let account = try platform.tokens.consoleSessionAccount(cookie) else { throw Refusal.signedOut }
        guard Self.isAdministrator(account) else { throw Refusal.notAdministrator }
        return account
    }

    /// Whether the account's custom claims say `"hearthAdmin": true`.
    static func isAdministrator(_ account: Account) -> Bool {
        guard let text = account.customAttributes,
            case .object(let claims)? = try? JSONValue(parsing: Data(text.utf8))
        else { return false }
        return claims["hearthAdmin"] == .bool(true)
    }
}
