import Foundation
import HearthProtocol
import JOSE

/// The OAuth 2.0 JWT-bearer grant (RFC 7523 §2.1) that google-auth's service-account credentials use: a signed
/// assertion posted form-encoded to the key file's `token_uri`, answered with an access token.
enum JWTBearerGrant {
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// The scopes firebase-admin asks for (`firebase_admin.credentials._scopes`).
    static let scopes = [
        "https://www.googleapis.com/auth/cloud-platform",
        "https://www.googleapis.com/auth/datastore",
        "https://www.googleapis.com/auth/devstorage.read_write",
        "https://www.googleapis.com/auth/firebase",
        "https://www.googleapis.com/auth/identitytoolkit",
        "https://www.googleapis.com/auth/userinfo.email",
    ]
    /// How long an assertion is valid, as google-auth makes them.
    static let assertionLifetime: Int64 = 3600

    private struct AssertionClaims: Encodable {
        var iss: String
        var scope: String
        var aud: String
        var iat: Int64
        var exp: Int64
    }

    /// The signed assertion: `iss` = client email, `aud` = token URI, `scope`, `iat`, `exp` one hour later; the
    /// header's `kid` is `private_key_id`.
    static func assertion(for account: ServiceAccount, now: Date) throws(HearthAdminError) -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = AssertionClaims(
            iss: account.clientEmail, scope: scopes.joined(separator: " "), aud: account.tokenURI.absoluteString,
            iat: issuedAt, exp: issuedAt + assertionLifetime)
        do {
            return try account.signer.sign(claims)
        } catch {
            throw HearthAdminError(.invalidCredential, message: "signing the token request failed (\(type(of: error)))")
        }
    }

    /// Gets an access token for `account`.
    ///
    /// - Throws: ``HearthAdminError``: `.invalidCredential` when the token endpoint refuses the grant (4xx, with its
    ///   `error` and `error_description`), `.internalError` for other statuses, `.unexpectedResponse` for a 200
    ///   without a usable `access_token`, `.networkError` without an answer.
    static func fetch(
        for account: ServiceAccount, transport: any AdminTransport, now: Date
    ) async throws(HearthAdminError) -> AccessToken {
        let form = FormEncoding.encode([("grant_type", grantType), ("assertion", try assertion(for: account, now: now))])
        let request = AdminHTTPRequest(
            method: "POST", url: account.tokenURI,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(form.utf8))
        let response = try await AdminBackend.send(request, over: transport)
        let json = (try? JSONValue(parsing: response.body))?.objectValue
        guard response.status == 200 else {
            throw refusal(status: response.status, json: json, body: response.body)
        }
        guard let token = json?["access_token"]?.stringValue, !token.isEmpty else {
            throw HearthAdminError(
                .unexpectedResponse, message: "the token endpoint's answer has no access_token", httpStatus: 200)
        }
        // Without expires_in the token is used for this call only.
        let lifetime: TimeInterval
        switch json?["expires_in"] {
        case .integer(let seconds)?: lifetime = TimeInterval(seconds)
        case .string(let text)?: lifetime = Int64(text).map(TimeInterval.init) ?? 0
        default: lifetime = 0
        }
        return AccessToken(value: token, expiresAt: now.addingTimeInterval(lifetime))
    }

    private static func refusal(status: Int, json: [String: JSONValue]?, body: Data) -> HearthAdminError {
        let code: HearthAdminError.Code = (400..<500).contains(status) ? .invalidCredential : .internalError
        if let error = json?["error"]?.stringValue {
            let detail = json?["error_description"]?.stringValue.map { ": \($0)" } ?? ""
            return HearthAdminError(
                code, message: "the token endpoint refused the grant (\(error)\(detail))", serverCode: error,
                httpStatus: status)
        }
        if let wire = WireError(envelope: body, httpStatus: status) {
            return HearthAdminError(
                code, message: "the token endpoint refused the grant (\(wire.message))", serverCode: wire.code.rawValue,
                httpStatus: status)
        }
        return HearthAdminError(code, message: "the token endpoint answered HTTP \(status)", httpStatus: status)
    }
}
