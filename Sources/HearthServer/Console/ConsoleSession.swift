import Foundation
import HearthCore
import HearthProtocol
import JOSE

/// Checks a console session cookie on every request: a Firebase-style session cookie (signed with the session keys,
/// issued by `https://session.firebase.google.com/<project>` for the project, unexpired), whose account still exists,
/// is enabled, has not revoked its sessions since the cookie's sign-in (`auth_time` before `validSince`) and still
/// has the `hearthAdmin` claim. Anything else signs the visitor out.
struct ConsoleSession: Sendable {
    let platform: IdentityPlatform

    /// Why a cookie no longer lets its holder in.
    enum Refusal: Error, Equatable {
        /// Not a valid cookie, expired, or revoked with its account: sign in again.
        case signedOut
        /// The account is valid but not an administrator (any more).
        case notAdministrator
    }

    /// The administrator's account, re-read from the store.
    func administrator(cookie: String) throws -> Account {
        guard let verified = try? platform.sessionKeys.verify(cookie),
            case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            claims["iss"]?.stringValue == "https://session.firebase.google.com/\(platform.project.projectID)",
            claims["aud"]?.stringValue == platform.project.projectID,
            let subject = claims["sub"]?.stringValue, !subject.isEmpty,
            let expiresAt = NumericDate(claims["exp"])?.secondsSince1970,
            let authTime = NumericDate(claims["auth_time"])?.secondsSince1970
        else { throw Refusal.signedOut }
        guard expiresAt > platform.time.nowSeconds else { throw Refusal.signedOut }
        guard let account = try platform.store.read({ try $0.account(localID: subject) }), !account.disabled,
            authTime >= account.validSinceMillis / 1000
        else { throw Refusal.signedOut }
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
