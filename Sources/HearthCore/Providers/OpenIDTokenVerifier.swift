import Foundation
import HearthCrypto
import HearthProtocol
import JOSE

/// An ID token that passed every check, with the client ID it was issued to.
struct VerifiedIDToken {
    var claims: [String: JSONValue]
    var subject: String
    /// The `aud` value that is one of the provider's client IDs.
    var clientID: String
}

/// The one ID-token check of `signInWithIdp`, for every provider: the signature against the keys of the issuer the
/// token names (among the provider's; refetched once on an unknown `kid`), `iss`, then by one ``ClaimsPolicy`` `aud` ∈
/// the provider's client IDs and `exp`/`iat` (and `auth_time`, `nbf` when present) with skew, then `sub`, the
/// provider's nonce rule, and `at_hash` when both it and an access token are given.
struct OpenIDTokenVerifier: Sendable {
    let time: any TimeSource
    /// Allowed clock difference for the token's times, in seconds.
    let clockSkew: Int64

    /// - Throws: `INVALID_IDP_RESPONSE` for a token that does not verify, `MISSING_OR_INVALID_NONCE`.
    func verify(_ idToken: String, for provider: IdentityProvider, accessToken: String?, nonce: String?) throws
        -> VerifiedIDToken
    {
        guard let unverified = try? InsecureJWT.decodeWithoutVerifying(idToken),
            case .object(let unverifiedClaims)? = try? JSONValue(parsing: unverified.payload)
        else { throw Self.invalid("Unable to parse the id_token.") }
        guard let issuerName = unverifiedClaims["iss"]?.stringValue,
            let issuer = provider.issuers.first(where: { $0.issuerNames.contains(issuerName) })
        else { throw Self.invalid("The id_token was not issued by a trusted issuer of \(provider.id).") }

        let verified: VerifiedJWT
        do {
            verified = try verifySignature(idToken, issuer: issuer)
        } catch let error as JOSEError {
            throw Self.invalid("The id_token signature could not be verified (\(error.code)).")
        }
        guard case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            claims["iss"]?.stringValue == issuerName
        else { throw Self.invalid("Unable to parse the id_token.") }

        let policy = ClaimsPolicy(
            audiences: provider.clientIDs, leeway: TimeInterval(clockSkew), required: [.expiresAt, .issuedAt])
        let clientID: String
        do {
            clientID = try policy.check(claims, now: time.nowSeconds).audience ?? ""
        } catch {
            throw Self.invalid(Self.detail(error))
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw Self.invalid("The id_token has no subject.")
        }
        try Self.check(nonce: nonce, claimed: claims["nonce"]?.stringValue, rule: provider.nonceRule)
        if let accessToken, !accessToken.isEmpty, let atHash = claims["at_hash"]?.stringValue {
            let digest = SHA256.hash(accessToken)
            guard atHash == Base64URL.encode(digest.prefix(digest.count / 2)) else {
                throw Self.invalid("The access_token does not belong to the id_token (at_hash).")
            }
        }
        return VerifiedIDToken(claims: claims, subject: subject, clientID: clientID)
    }

    private func verifySignature(_ token: String, issuer: any OpenIDIssuer) throws -> VerifiedJWT {
        do {
            return try issuer.verificationKeys(forceRefresh: false).verify(token)
        } catch let error as JOSEError where error.code == .unknownKeyID {
            return try issuer.verificationKeys(forceRefresh: true).verify(token)
        }
    }

    /// The nonce rule: `nonce` is the request's raw nonce, `claimed` the token's.
    static func check(nonce: String?, claimed: String?, rule: IdentityProvider.NonceRule) throws {
        let nonce = nonce.flatMap { $0.isEmpty ? nil : $0 }
        let hashed = nonce.map { Identifiers.hex(SHA256.hash($0)) }
        switch rule {
        case .checkedWhenGiven:
            guard let nonce else { return }
            guard let claimed, claimed == nonce || claimed == hashed else {
                throw WireError(.missingOrInvalidNonce, "The nonce in the id_token does not match the given nonce.")
            }
        case .hashedOnBothSides:
            switch (hashed, claimed) {
            case (nil, nil):
                return
            case (nil, _?):
                throw WireError(.missingOrInvalidNonce, "Nonce is missing in the request.")
            case (_?, nil):
                throw WireError(.missingOrInvalidNonce, "The id_token carries no nonce, but the request does.")
            case (let hashed?, let claimed?):
                guard claimed == hashed else {
                    throw WireError(
                        .missingOrInvalidNonce,
                        "The nonce in the id_token does not match the SHA256 hash of the raw nonce in the request.")
                }
            }
        }
    }

    /// The refusal's detail for a claim the policy refused.
    private static func detail(_ violation: ClaimsViolation) -> String {
        switch violation {
        case .missing("aud"), .wrongAudience: "The id_token audience is not a client ID of this project."
        case .missing, .wrongIssuer, .lifetimeTooLong:
            "The id_token's exp or iat is missing or not whole seconds between 1970 and 9999."
        case .expired: "The id_token has expired."
        case .issuedInFuture: "The id_token was issued in the future."
        case .authenticatedInFuture: "The id_token's auth_time is in the future."
        case .notYetValid: "The id_token is not valid yet (nbf)."
        }
    }

    static func invalid(_ detail: String) -> WireError { WireError(.invalidIdpResponse, detail) }
}
