import Foundation
import FuzzSupport
import HearthCore
import HearthProtocol
import HearthVerify
import JOSE

/// The claim checks behind the signature: HearthVerify's `IDTokenVerifier` (backends verifying Hearth ID tokens)
/// and HearthCore's `IdentityProviderRegistry` (the server checking a Google ID token in `signInWithIdp`).
///
/// The input is a token payload. The target signs it with the fixed key each verifier trusts, so every input
/// reaches the claim checks, and verifies it at the fixed time. Neither verifier may crash on any claim value (a
/// huge `exp`, a negative `iat`, a wrong type), and a token either accepts must have passed every check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Data(UnsafeBufferPointer(start: data, count: size))
    // The signers refuse payloads that are not one JSON object, as a real issuer never signs one.
    if let token = try? TestKeys.session.signer.sign(payload: payload) {
        checkHearthVerify(token)
    }
    if let token = try? TestKeys.issuer.signer.sign(payload: payload) {
        checkGoogleCredential(token, payload: payload)
    }
    return 0
}

// MARK: - HearthVerify

private let projectID = "demo-hearth"
private let hearthIssuer = "http://hearth.test/demo-hearth"
private let now = TimeInterval(FixedTime.seconds)
private let clockSkew: TimeInterval = 60

/// Hands out the session key, as Hearth's JWKS endpoint would.
private struct FixedJWKS: OutboundHTTP {
    let body = (try? JSONEncoder().encode(TestKeys.session.jwks)) ?? Data()

    func send(_ request: OutboundRequest) throws -> OutboundResponse {
        OutboundResponse(status: 200, headers: ["Cache-Control": "max-age=3600"], body: body)
    }
}

private let verifier = IDTokenVerifier(
    projectID: projectID, issuer: hearthIssuer, jwksURL: URL(fileURLWithPath: "/jwks.json"), clockSkew: clockSkew,
    http: FixedJWKS(), clock: { Date(timeIntervalSince1970: now) })

private func checkHearthVerify(_ token: String) {
    guard let verified = try? verifier.verify(token) else { return }
    let claims = verified.claims
    require(claims["sub"]?.stringValue == verified.uid && !verified.uid.isEmpty, "accepted a token without its sub")
    require(claims["iss"]?.stringValue == hearthIssuer, "accepted a foreign issuer")
    let audience = claims["aud"]
    require(audience?.stringValue == projectID || audience?.arrayValue?.contains(.string(projectID)) == true,
            "accepted a foreign audience")
    require(verified.expiresAt.timeIntervalSince1970 > now - clockSkew, "accepted an expired token")
    require(verified.issuedAt.timeIntervalSince1970 <= now + clockSkew, "accepted a token issued in the future")
    require(verified.authTime.timeIntervalSince1970 <= now + clockSkew, "accepted an auth_time in the future")
}

// MARK: - Google credentials

private let googleIssuerName = "https://accounts.google.com"
private let clientID = "hearth-dev.apps.googleusercontent.com"
/// Passed with payloads that carry a `nonce`, and an access token with those that carry an `at_hash`.
private let nonce = "fuzz-nonce"
private let accessToken = "ya29.fuzz-access-token"

/// Google as the server sees it, with the issuer key and no network.
private struct FixedGoogle: GoogleAccessTokenIssuer {
    var issuerNames: Set<String> { [googleIssuerName, "accounts.google.com"] }
    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet { TestKeys.issuer.keySet }
    func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo? { nil }
    func userInfo(accessToken: String) throws -> [String: JSONValue] { [:] }
}

private let google = IdentityProviderRegistry(
    providers: [.google(issuers: [FixedGoogle()], clientIDs: [clientID])], time: FixedTime())

private func checkGoogleCredential(_ token: String, payload: Data) {
    let text = String(decoding: payload, as: UTF8.self)
    let profile: FederatedProfile
    do {
        let credential = IdpCredential(
            idToken: token, accessToken: text.contains("at_hash") ? accessToken : nil,
            nonce: text.contains("nonce") ? nonce : nil)
        profile = try google.verify(credential, providerID: "google.com", clientAddress: nil)
    } catch {
        require(error is WireError, "a refusal that is not a wire error: \(type(of: error))")
        return
    }
    guard case .object(let claims)? = try? JSONValue(parsing: payload) else {
        require(false, "accepted a payload that is not a JSON object")
        return
    }
    require(claims["sub"]?.stringValue == profile.rawID && !profile.rawID.isEmpty, "accepted a token without its sub")
    // NumericDate in whole seconds, as the verifier compares it.
    let seconds = { (name: String) -> Double? in
        switch claims[name] {
        case .integer(let value)?: Double(value)
        case .double(let value)?: value.rounded(.down)
        default: nil
        }
    }
    let skew = 300.0
    require((seconds("exp") ?? -.infinity) + skew > now, "accepted an expired Google token")
    require((seconds("iat") ?? .infinity) - skew <= now, "accepted a Google token issued in the future")
}
