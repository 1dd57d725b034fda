public import Foundation
public import HearthProtocol
public import HearthVerify
import JOSE
import HearthCrypto

extension AdminAuth {
    /// The `aud` of custom tokens: the Identity Toolkit service.
    public static let customTokenAudience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// How long a custom token is valid: one hour, the most Hearth accepts.
    public static let customTokenLifetime: Int64 = 3600
    /// The `iss`/`sub` of unsigned development custom tokens, as firebase-admin writes them for the emulator.
    public static let developmentCustomTokenIssuer = "firebase-auth-emulator@example.com"
    /// The session cookie lifetimes Hearth accepts: 5 minutes to 14 days.
    public static let sessionCookieLifetimes: ClosedRange<TimeInterval> = 300...1_209_600

    /// Verifies an ID token: RS256 signature against Hearth's JWKS, `aud` = project, `iss` = ``idTokenIssuer``,
    /// `sub`, `exp`, `iat`, `auth_time` (see `IDTokenVerifier`).
    ///
    /// With `checkRevoked`, it then looks the user up (firebase-admin's `verify_id_token(check_revoked=True)`):
    /// a disabled user is refused, and so is a token issued (`iat`, whole seconds) before the user's `validSince`.
    ///
    /// A tenant's client (``TenantManager/auth(forTenant:)``) accepts only that tenant's tokens (`firebase.tenant`).
    ///
    /// - Throws: ``HearthAdminError``: `.invalidIDToken` (the message says why), `.idTokenExpired`, `.tenantIDMismatch`,
    ///   `.idTokenRevoked`, `.userDisabled`, `.userNotFound`, `.internalError` when no keys could be fetched.
    public func verifyIDToken(_ idToken: String, checkRevoked: Bool = false) async throws(HearthAdminError) -> VerifiedToken {
        try await verify(idToken, with: idTokens, checkRevoked: checkRevoked, kind: .idToken)
    }

    /// Verifies a session cookie as ``verifyIDToken(_:checkRevoked:)`` does, with `iss` = ``sessionCookieIssuer``.
    ///
    /// With `checkRevoked`, a cookie Hearth signed is compared with the user's `validSince` in milliseconds (the
    /// cookie's `firebase.hearth_issued_at_ms` and the lookup's `validSinceMillis`), so a cookie made in the second
    /// of a revocation but before it is refused; firebase-admin compares whole seconds and keeps accepting such a
    /// cookie. A console session (`iss` `hearth:console-session`) is never a session cookie.
    ///
    /// - Throws: ``HearthAdminError``: `.invalidSessionCookie`, `.sessionCookieExpired`, `.sessionCookieRevoked`, `.tenantIDMismatch`,
    ///   `.userDisabled`, `.userNotFound`, `.internalError` when no keys could be fetched.
    public func verifySessionCookie(_ cookie: String, checkRevoked: Bool = false) async throws(HearthAdminError) -> VerifiedToken {
        try await verify(cookie, with: sessionCookies, checkRevoked: checkRevoked, kind: .sessionCookie)
    }

    /// Exchanges a (recent) ID token for a session cookie (`:createSessionCookie`).
    ///
    /// - Parameters:
    ///   - idToken: the user's ID token.
    ///   - expiresIn: the cookie's lifetime in seconds, within ``sessionCookieLifetimes``.
    /// - Throws: ``HearthAdminError``: `.invalidSessionCookieDuration`, `.invalidIDToken`, `.idTokenExpired`, …
    public func createSessionCookie(idToken: String, expiresIn: TimeInterval) async throws(HearthAdminError) -> String {
        guard Self.sessionCookieLifetimes.contains(expiresIn) else {
            throw HearthAdminError(
                .invalidSessionCookieDuration, message: "a session cookie must last between 5 minutes and 14 days")
        }
        guard !idToken.isEmpty else { throw HearthAdminError(.invalidIDToken, message: "the ID token is empty") }
        let body: JSONValue = ["idToken": .string(idToken), "validDuration": .integer(Int64(expiresIn.rounded(.down)))]
        return try await backend.post(":createSessionCookie", body, as: WireReply.SessionCookie.self).sessionCookie
    }

    /// Makes a custom token that a client exchanges with `signInWithCustomToken` for the user `uid` (made on first
    /// use), with `claims` added to its ID tokens.
    ///
    /// With a service account the token is RS256, signed with its key (`kid` = `private_key_id`; `iss` and `sub` =
    /// `client_email`); with ``AdminCredential/owner`` it is unsigned (`alg: none`), as firebase-admin makes it for
    /// the emulator, and only `hearth serve --dev` accepts it.
    ///
    /// - Throws: ``HearthAdminError``: `.invalidUID`, `.forbiddenClaim`, `.claimsTooLarge`.
    public func createCustomToken(uid: String, claims: [String: JSONValue]? = nil) async throws(HearthAdminError) -> String {
        try Self.checkUID(uid)
        if let claims { _ = try CustomClaims.serialize(claims) }
        let issuedAt = Int64(backend.clock().timeIntervalSince1970.rounded(.down))
        switch backend.credential.kind {
        case .owner:
            let payload = customTokenPayload(
                issuer: Self.developmentCustomTokenIssuer, uid: uid, claims: claims, issuedAt: issuedAt)
            return Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
                + Base64URL.encode(payload.jsonData(sortedKeys: true)) + "."
        case .serviceAccount(let account):
            let payload = customTokenPayload(issuer: account.clientEmail, uid: uid, claims: claims, issuedAt: issuedAt)
            do {
                return try account.signer.sign(payload: payload.jsonData(sortedKeys: true))
            } catch {
                throw HearthAdminError(.internalError, message: "signing the custom token failed (\(type(of: error)))")
            }
        }
    }

    /// The custom token's claims; a tenant's client adds `tenant_id`, as firebase-admin does, so the token signs in
    /// only to that tenant.
    private func customTokenPayload(issuer: String, uid: String, claims: [String: JSONValue]?, issuedAt: Int64) -> JSONValue {
        var payload: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(issuer), "aud": .string(Self.customTokenAudience), "uid": .string(uid),
            "iat": .integer(issuedAt), "exp": .integer(issuedAt + Self.customTokenLifetime),
        ]
        if let claims, !claims.isEmpty { payload["claims"] = .object(claims) }
        if let tenantID { payload["tenant_id"] = .string(tenantID) }
        return .object(payload)
    }

    // MARK: - Verification

    enum VerifiedKind {
        case idToken, sessionCookie
    }

    private func verify(
        _ token: String, with verifier: IDTokenVerifier, checkRevoked: Bool, kind: VerifiedKind
    ) async throws(HearthAdminError) -> VerifiedToken {
        let verified: VerifiedToken
        do throws(VerificationError) {
            verified = try await verifier.verify(token)
        } catch {
            throw Self.refusal(error, kind: kind)
        }
        guard checkRevoked else { return verified }
        let user = try await wireUser(uid: verified.uid)
        if user.disabled == true {
            throw HearthAdminError(.userDisabled, message: "the user with uid \"\(verified.uid)\" is disabled")
        }
        if Self.wasRevoked(verified, kind: kind, user: user) {
            let code: HearthAdminError.Code = kind == .idToken ? .idTokenRevoked : .sessionCookieRevoked
            throw HearthAdminError(code, message: "the user's sessions were revoked after this token was issued")
        }
        return verified
    }

    /// Whether `token` was issued before the user's `validSince`. A session cookie says to the millisecond when Hearth
    /// signed it (`firebase.hearth_issued_at_ms`, agreeing with its `iat`) and Hearth's lookup says `validSince` to the
    /// millisecond: those are compared. Otherwise (ID tokens, and cookies or servers without them) whole seconds, as
    /// firebase-admin-python compares `iat` with `validSince`.
    static func wasRevoked(_ token: VerifiedToken, kind: VerifiedKind, user: HearthProtocol.UserRecord) -> Bool {
        let issuedAt = Int64(token.issuedAt.timeIntervalSince1970.rounded(.down))
        if kind == .sessionCookie, case .integer(let signedAt)? = token.claims["firebase"]?["hearth_issued_at_ms"],
            signedAt >= 0, signedAt / 1000 == issuedAt, let validSince = user.validSinceMillis.flatMap(Int64.init)
        {
            return signedAt < validSince
        }
        guard let validSince = user.validSince.flatMap(Int64.init) else { return false }
        return issuedAt < validSince
    }

    private static func refusal(_ error: VerificationError, kind: VerifiedKind) -> HearthAdminError {
        let code: HearthAdminError.Code
        switch (error.code, kind) {
        case (.keysUnavailable, _): code = .internalError
        case (.wrongTenant, _): code = .tenantIDMismatch
        case (.expired, .idToken): code = .idTokenExpired
        case (.expired, .sessionCookie): code = .sessionCookieExpired
        case (_, .idToken): code = .invalidIDToken
        case (_, .sessionCookie): code = .invalidSessionCookie
        }
        return HearthAdminError(code, message: error.reason)
    }
}
