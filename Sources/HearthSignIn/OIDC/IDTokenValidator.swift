import Foundation
import HearthProtocol

/// Checks an ID token for one issuer and client: the signature against the issuer's key set, then the claims.
/// Shared by Google (keys from discovery) and Apple (keys at `/auth/keys`).
struct IDTokenValidator: Sendable {
    var issuer: String
    /// Another spelling of the issuer that tokens may carry (Google: `accounts.google.com`).
    var alsoAcceptedIssuer: String?
    var clientID: String
    /// The issuer's JWKS document, in the key cache Hearth's verifiers share: kept for its `Cache-Control`
    /// lifetime, fetched once for concurrent sign-ins, refetched for an unknown `kid` at most every 30 s.
    var keySets: KeySetCache<Data>
    var verifier: any IDTokenSignatureVerifier
    var clock: @Sendable () -> Date
    var fetchKeySet: @Sendable () async throws -> KeySetCache<Data>.Fetched

    /// The largest accepted difference between an ID token's `iat` and now, as AppAuth allows.
    static let issuedAtTolerance: TimeInterval = 600

    /// Verifies the signature against the issuer's key set (refetched once for an unknown `kid`), then the claims:
    /// `iss` is the issuer (for Google also `accounts.google.com`), `aud` contains the client ID or `azp` is it,
    /// `exp` is in the future, `iat` is within 600 s of now, `nonce` is `nonce` when one was sent, and `sub` is
    /// present (and equal to `subject` when given: a refresh must not switch accounts).
    func validate(_ token: String, nonce: String?, subject expectedSubject: String?) async throws(SignInError)
        -> ValidatedIDToken
    {
        func reject(_ reason: String) -> SignInError {
            SignInError(.unknown, "The ID token was rejected: \(reason).")
        }
        // Keys rotate: on an unknown kid, try newer keys once (the cache decides whether to fetch), then give up.
        let lookup: KeySetCache<Data>.Lookup
        do { lookup = try await keySets.keys(fetch: fetchKeySet) } catch { throw Self.keysUnavailable(error) }
        var verified = try checkSignature(token, jwks: lookup.keys)
        if verified == nil, !lookup.justFetched {
            let newer: Data
            do { newer = try await keySets.keysAfterUnknownKeyID(fetch: fetchKeySet) } catch { throw Self.keysUnavailable(error) }
            verified = try checkSignature(token, jwks: newer)
        }
        guard let payload = verified else { throw reject("its key is not in the issuer's key set") }
        guard let claims = (try? JSONValue(parsing: payload))?.objectValue else {
            throw reject("the claims are not a JSON object")
        }
        let now = clock()

        guard let iss = claims["iss"]?.stringValue else { throw reject("no iss") }
        guard iss == issuer || (alsoAcceptedIssuer != nil && iss == alsoAcceptedIssuer) else {
            throw reject("iss is \(iss), expected \(issuer)")
        }
        let audiences: [String] =
            switch claims["aud"] {
            case .string(let value)?: [value]
            case .array(let values)?: values.compactMap(\.stringValue)
            default: []
            }
        guard audiences.contains(clientID) || claims["azp"]?.stringValue == clientID else {
            throw reject("neither aud nor azp is the client ID \(clientID)")
        }
        guard let exp = NumericDate(claims["exp"]) else { throw reject("no exp in whole seconds between 1970 and 9999") }
        guard exp.isAfter(now) else { throw reject("it expired at \(Self.timestamp(exp.date))") }
        guard let iat = NumericDate(claims["iat"]) else { throw reject("no iat in whole seconds between 1970 and 9999") }
        guard abs(iat.date.timeIntervalSince(now)) <= Self.issuedAtTolerance else {
            throw reject("iat \(Self.timestamp(iat.date)) is more than 600 seconds from now (\(Self.timestamp(now)))")
        }
        if let nonce {
            guard let claimed = claims["nonce"]?.stringValue else { throw reject("no nonce, but the request sent one") }
            guard claimed == nonce else { throw reject("the nonce does not match the request's") }
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw reject("no sub") }
        if let expectedSubject, subject != expectedSubject {
            throw reject("sub changed from \(expectedSubject) to \(subject)")
        }
        return ValidatedIDToken(token: token, claims: claims, subject: subject, expiration: exp.date)
    }

    /// The payload if the signature verifies with `jwks`; nil when no key there has the token's `kid`.
    private func checkSignature(_ token: String, jwks: Data) throws(SignInError) -> Data? {
        do {
            return try verifier.verify(token, jwks: jwks)
        } catch IDTokenSignatureError.unknownKeyID {
            return nil
        } catch IDTokenSignatureError.invalid(let reason) {
            throw SignInError(.unknown, "The ID token was rejected: invalid signature (\(reason)).")
        } catch {
            throw SignInError(.unknown, "The ID token was rejected: invalid signature.")
        }
    }

    /// No signing keys at all: `.canceled` when the task was, else `.unknown` with the reason.
    private static func keysUnavailable(_ error: KeySetUnavailable) -> SignInError {
        if Task.isCancelled { return SignInError.canceled }
        return SignInError(.unknown, "The issuer's signing keys are unavailable: \(error.reason)")
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

extension HTTPExchange {
    /// A JWKS document and its freshness lifetime.
    func keySet(at url: URL) async throws(SignInError) -> KeySetCache<Data>.Fetched {
        let reply = try await get(url, purpose: "the issuer's signing keys")
        guard reply.isSuccess else {
            throw SignInError(.unknown, "The issuer's key set at \(url.absoluteString) answered HTTP \(reply.status).")
        }
        return (reply.body, reply.freshnessLifetime)
    }
}
