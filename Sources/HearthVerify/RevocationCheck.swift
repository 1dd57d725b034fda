public import Foundation
public import HearthOutbound
public import HearthProtocol

/// Asks Hearth whether a verified token's user is disabled or deleted, or its sessions were revoked, the way
/// firebase-admin's `verify_id_token(check_revoked=True)` does: one `accounts:lookup` with the token
/// (and its `firebase.tenant` as `tenantId`, so a tenant's user is looked up in its tenant).
///
/// ```swift
/// let revocation = RevocationCheck(hearthURL: URL(string: "http://127.0.0.1:9099")!, apiKey: "backend-key")
/// let user = try verifier.verify(token, checkRevoked: revocation)
/// ```
public struct RevocationCheck: Sendable {
    /// The lookup endpoint, API key included.
    public let lookupURL: URL
    private let http: any OutboundHTTP

    /// Creates a check.
    ///
    /// - Parameters:
    ///   - hearthURL: the server's public URL, such as `http://127.0.0.1:9099`.
    ///   - apiKey: an API key Hearth accepts (any non-empty key with `--dev`).
    ///   - http: how the request is sent (a JSON POST; a 10-second timeout by default).
    public init(hearthURL: URL, apiKey: String, http: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10)) {
        var base = hearthURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        var components = URLComponents(string: base + "/identitytoolkit.googleapis.com/v1/accounts:lookup")
        components?.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        // URLComponents leaves "+" alone in queries; servers read it as a space.
        let query = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components?.percentEncodedQuery = query
        guard let url = components?.url else {
            preconditionFailure("RevocationCheck needs an http(s) URL, got \(hearthURL)")
        }
        self.lookupURL = url
        self.http = http
    }

    /// Looks the token's user up and throws if the token must no longer be accepted.
    ///
    /// The token was verified just before, so any refusal from Hearth is about the user or the session:
    /// `USER_DISABLED` or `disabled: true` → ``VerificationError/Code/userDisabled``; `USER_NOT_FOUND` or no user →
    /// ``VerificationError/Code/userNotFound``; `TOKEN_EXPIRED` or an `iat` before the user's `validSince` →
    /// ``VerificationError/Code/revoked``. Anything else, including no answer, is
    /// ``VerificationError/Code/revocationCheckFailed``.
    func check(token: String, verified: VerifiedToken) throws(VerificationError) {
        let body: Data
        do {
            body = try JSONEncoder().encode(TenantLookup(idToken: token, tenantId: verified.tenantID))
        } catch {
            throw VerificationError(.revocationCheckFailed, reason: "the lookup request could not be encoded")
        }
        let answer: OutboundResponse
        do {
            answer = try http.send(.post(lookupURL, headers: ["Content-Type": "application/json"], body: body))
        } catch {
            throw VerificationError(.revocationCheckFailed, reason: "Hearth did not answer the lookup: \(OutboundFailure.describe(error))")
        }
        guard answer.status == 200 else {
            throw Self.refusal(status: answer.status, body: answer.body)
        }
        guard let response = try? JSONDecoder().decode(LookupResponse.self, from: answer.body) else {
            throw VerificationError(.revocationCheckFailed, reason: "Hearth's lookup answer is not a lookup response")
        }
        guard let user = response.users?.first else {
            throw VerificationError(.userNotFound, reason: "user \(VerificationError.quoted(verified.uid)) does not exist")
        }
        guard user.localId == verified.uid else {
            throw VerificationError(.revocationCheckFailed, reason: "Hearth's lookup answered for another user")
        }
        if user.disabled == true {
            throw VerificationError(.userDisabled, reason: "user \(VerificationError.quoted(verified.uid)) is disabled")
        }
        // Compared in whole seconds, as Hearth and firebase-admin do (as doubles, so no value can overflow).
        if let validSince = user.validSince.flatMap(Int64.init),
            verified.issuedAt.timeIntervalSince1970.rounded(.down) < Double(validSince)
        {
            throw Self.revoked(verified.uid)
        }
    }

    /// `accounts:lookup` with the token, naming its tenant as the SDKs do (Hearth answers `TENANT_ID_MISMATCH` for a
    /// token looked up in another scope).
    private struct TenantLookup: Encodable {
        var idToken: String
        var tenantId: String?
    }

    private static func revoked(_ uid: String) -> VerificationError {
        VerificationError(.revoked, reason: "the sessions of user \(VerificationError.quoted(uid)) were revoked after this token was issued")
    }

    private static func refusal(status: Int, body: Data) -> VerificationError {
        guard let wire = WireError(envelope: body, httpStatus: status) else {
            return VerificationError(.revocationCheckFailed, reason: "Hearth's lookup answered HTTP \(status)")
        }
        switch wire.code {
        case .tokenExpired:
            return VerificationError(.revoked, reason: "Hearth says the token's session was revoked (TOKEN_EXPIRED)")
        case .userDisabled:
            return VerificationError(.userDisabled, reason: "Hearth says the user is disabled (USER_DISABLED)")
        case .userNotFound:
            return VerificationError(.userNotFound, reason: "Hearth says the user does not exist (USER_NOT_FOUND)")
        default:
            return VerificationError(
                .revocationCheckFailed,
                reason: "Hearth's lookup answered HTTP \(status) \(VerificationError.quoted(wire.code.rawValue))")
        }
    }
}
