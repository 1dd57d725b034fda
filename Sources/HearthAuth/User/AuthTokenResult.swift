public import Foundation
public import HearthProtocol

/// An ID token and what its payload says. HearthAuth does not verify the signature (the server and
/// your backend do); it only decodes the payload.
public struct AuthTokenResult: Sendable, CustomStringConvertible {
    /// The ID token (a JWT). A secret: send it only to your backend.
    public var token: String
    /// `exp`.
    public var expirationDate: Date
    /// `auth_time`: when the user last really signed in (a refresh does not move it).
    public var authDate: Date
    /// `iat`.
    public var issuedAtDate: Date
    /// `firebase.sign_in_provider`, e.g. `google.com`.
    public var signInProvider: String
    /// `firebase.sign_in_second_factor` (`phone`, `totp`) after a multi-factor sign-in.
    public var signInSecondFactor: String?
    /// The whole payload, custom claims included.
    public var claims: [String: JSONValue]

    public var description: String {
        "AuthTokenResult(token: <redacted>, signInProvider: \(signInProvider), expirationDate: \(expirationDate))"
    }

    /// Decodes `token`'s payload. `exp`, `auth_time`, `iat` and `firebase.sign_in_provider` are
    /// required, as in FirebaseAuth.
    init(token: String) throws(AuthError) {
        guard let claims = Self.payload(of: token) else {
            throw AuthError(code: .malformedJWT, message: "The ID token is not a JWT with a JSON payload.")
        }
        func date(_ name: String) throws(AuthError) -> Date {
            switch claims[name] {
            case .integer(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
            case .double(let seconds): return Date(timeIntervalSince1970: seconds)
            default: throw AuthError(code: .malformedJWT, message: "The ID token has no numeric \(name) claim.")
            }
        }
        guard let provider = claims["firebase"]?["sign_in_provider"]?.stringValue else {
            throw AuthError(code: .malformedJWT, message: "The ID token has no firebase.sign_in_provider claim.")
        }
        self.token = token
        expirationDate = try date("exp")
        authDate = try date("auth_time")
        issuedAtDate = try date("iat")
        signInProvider = provider
        signInSecondFactor = claims["firebase"]?["sign_in_second_factor"]?.stringValue
        self.claims = claims
    }

    /// The payload of a three-part JWT as a JSON object, or nil.
    static func payload(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64URLDecode(parts[1]) else { return nil }
        return (try? JSONValue(parsing: data))?.objectValue
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
