import Foundation
import HearthCrypto
import HearthHTTP

/// Apple's `/auth/token` and `/auth/revoke` as the test controls them (served by ``FakeAppleIssuer``): codes the test
/// hands out are exchanged once for a refresh token, every call is recorded with its form fields, and revocations
/// can be made to fail with an HTTP status, as Apple's outages do.
final class FakeAppleTokenEndpoints: Sendable {
    /// One form POST Hearth made.
    struct Call: Sendable {
        /// `/auth/token` or `/auth/revoke`.
        var path: String
        var contentType: String?
        var fields: [String: String]
    }

    private struct State {
        var calls: [Call] = []
        /// Unused codes → the refresh token their exchange yields and the Apple ID (`sub`) they were issued for.
        var codes: [String: (refreshToken: String, subject: String)] = [:]
        /// The status `/auth/revoke` answers with (200 is Apple's success).
        var revokeStatus = 200
    }

    private let state = Locked(State())

    var calls: [Call] { state.value.calls }
    func calls(to path: String) -> [Call] { calls.filter { $0.path == path } }

    /// A new authorization code of the Apple ID `subject`, and the refresh token its exchange will yield.
    func issueCode(for subject: String = "exchanged") -> (code: String, refreshToken: String) {
        let pair = ("c." + UUID().uuidString.lowercased(), "r." + UUID().uuidString.lowercased())
        state.withLock { $0.codes[pair.0] = (pair.1, subject) }
        return pair
    }

    /// Makes `/auth/revoke` answer `status` (503 for an outage, 200 again when Apple is back).
    func answerRevocations(with status: Int) {
        state.withLock { $0.revokeStatus = status }
    }

    /// Records the call and answers as Apple does: `/auth/token` exchanges a known code once (else `invalid_grant`)
    /// for tokens with an ID token `idToken(sub)` makes, `/auth/revoke` answers 200 with an empty body (or the status set).
    func handle(_ request: HTTPRequest, idToken: (String) -> String) -> HTTPResponse {
        var query = URLComponents()
        query.percentEncodedQuery = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
        var fields: [String: String] = [:]
        for item in query.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        let call = Call(path: request.path, contentType: request.headers["Content-Type"], fields: fields)
        switch request.path {
        case "/auth/token":
            let grant = state.withLock { state -> (refreshToken: String, subject: String)? in
                state.calls.append(call)
                return fields["code"].flatMap { state.codes.removeValue(forKey: $0) }
            }
            guard let grant else { return .json(Data(#"{"error":"invalid_grant"}"#.utf8), status: 400) }
            let answer: [String: Any] = [
                "access_token": "a." + UUID().uuidString, "token_type": "Bearer", "expires_in": 3600,
                "refresh_token": grant.refreshToken, "id_token": idToken(grant.subject),
            ]
            return .json((try? JSONSerialization.data(withJSONObject: answer)) ?? Data())
        case "/auth/revoke":
            let status = state.withLock { state -> Int in
                state.calls.append(call)
                return state.revokeStatus
            }
            return HTTPResponse(status: status)
        default:
            return HTTPResponse(status: 404)
        }
    }

    /// What is wrong with `secret` as the client secret Apple documents (an ES256 JWT, header `alg` ES256 and `kid`
    /// the key ID; claims `iss` the team ID, `sub` the client ID, `aud` https://appleid.apple.com, `iat` now, `exp`
    /// after it and at most 180 days later) signed by `key`; empty when nothing is.
    static func problems(
        clientSecret secret: String, key: P256PublicKey, teamID: String, keyID: String, clientID: String
    ) -> [String] {
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return ["not a JWS: \(parts.count) parts"] }
        var problems: [String] = []
        let header = JWTParts.decode(parts[0])
        let claims = JWTParts.decode(parts[1])
        if header["alg"] as? String != "ES256" { problems.append("alg \(header["alg"] ?? "none")") }
        if header["kid"] as? String != keyID { problems.append("kid \(header["kid"] ?? "none")") }
        if claims["iss"] as? String != teamID { problems.append("iss \(claims["iss"] ?? "none")") }
        if claims["sub"] as? String != clientID { problems.append("sub \(claims["sub"] ?? "none")") }
        if claims["aud"] as? String != "https://appleid.apple.com" { problems.append("aud \(claims["aud"] ?? "none")") }
        let now = Int(Date().timeIntervalSince1970)
        if let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int {
            if abs(iat - now) > 300 { problems.append("iat \(iat) is not now (\(now))") }
            if exp <= iat || exp - iat > 180 * 86_400 { problems.append("exp \(exp) for iat \(iat)") }
        } else {
            problems.append("iat/exp missing or not numbers")
        }
        let signingInput = Array(secret.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard let signature = Base64URL.decode(parts[2]), key.isValidSHA256Signature(signature, for: signingInput) else {
            return problems + ["the signature does not verify with the configured key"]
        }
        return problems
    }
}
