import HearthProtocol

/// The claims the verifier checks or reports, read from the payload's one `JSONValue` parse.
///
/// Security claims with the wrong JSON type make reading fail with ``ClaimTypeError``; informational ones (`email`,
/// `email_verified`, `firebase.*`) with the wrong type are treated as absent (so a `firebase.tenant` that is not a
/// string counts as no tenant, which a verifier asked to check the tenant refuses). A `sub` that is not a string is kept
/// as "present but invalid" so the verifier can report ``VerificationError/Code/invalidSubject``. A `null` value
/// counts as absent, except for `aud` (a type error) and `sub` (present but invalid).
struct IDTokenClaims {
    enum Audience {
        case one(String)
        case several([String])
    }

    var issuer: String?
    var audience: Audience?
    /// `nil` when absent; `.some(nil)` when present but not a string.
    var subject: String??
    var expiresAt: NumericDate?
    var issuedAt: NumericDate?
    var authTime: NumericDate?
    var notBefore: NumericDate?
    /// The time claims, as the ``HearthProtocol/ClaimsPolicy`` checks them.
    var times: TokenTimes {
        TokenTimes(expiresAt: expiresAt, issuedAt: issuedAt, authTime: authTime, notBefore: notBefore)
    }
    /// `aud` as a list (one value or several).
    var audiences: [String]? {
        switch audience {
        case .one(let audience): [audience]
        case .several(let audiences): audiences
        case nil: nil
        }
    }
    var email: String?
    var emailVerified: Bool?
    var signInProvider: String?
    var signInSecondFactor: String?
    /// `firebase.tenant`: the tenant that issued the token (Identity Platform); `nil` for the project's own tokens.
    var tenant: String?

    /// A registered claim had the wrong JSON type.
    struct ClaimTypeError: Error {
        var claim: String
        var expected: String
    }

    init(_ claims: [String: JSONValue]) throws(ClaimTypeError) {
        issuer = try Self.string(claims, "iss")
        switch claims["aud"] {
        case nil:
            break
        case .string(let one)?:
            audience = .one(one)
        case .array(let elements)?:
            var several: [String] = []
            several.reserveCapacity(elements.count)
            for element in elements {
                guard case .string(let one) = element else {
                    throw ClaimTypeError(claim: "aud", expected: "a string or an array of strings")
                }
                several.append(one)
            }
            audience = .several(several)
        default:
            throw ClaimTypeError(claim: "aud", expected: "a string or an array of strings")
        }
        if let sub = claims["sub"] {
            subject = .some(sub.stringValue)
        }
        expiresAt = try Self.numericDate(claims, "exp")
        issuedAt = try Self.numericDate(claims, "iat")
        authTime = try Self.numericDate(claims, "auth_time")
        notBefore = try Self.numericDate(claims, "nbf")
        email = claims["email"]?.stringValue
        emailVerified = claims["email_verified"]?.boolValue
        if case .object(let firebase)? = claims["firebase"] {
            signInProvider = firebase["sign_in_provider"]?.stringValue
            signInSecondFactor = firebase["sign_in_second_factor"]?.stringValue
            tenant = firebase["tenant"]?.stringValue
        }
    }

    private static func string(_ claims: [String: JSONValue], _ name: String) throws(ClaimTypeError) -> String? {
        switch claims[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw ClaimTypeError(claim: name, expected: "a string")
        }
    }

    /// A NumericDate (RFC 7519 §2) as ``HearthProtocol/NumericDate`` accepts it: whole seconds from 1970 to 9999.
    /// Anything else present (a fraction, 1e300, −2^63, a string) is a type error, never a trap.
    private static func numericDate(_ claims: [String: JSONValue], _ name: String) throws(ClaimTypeError) -> NumericDate? {
        switch claims[name] {
        case nil, .null?: return nil
        case let value?:
            guard let date = NumericDate(value) else {
                throw ClaimTypeError(claim: name, expected: "whole seconds between 1970 and 9999")
            }
            return date
        }
    }
}
