/// The claims the verifier checks or reports, decoded in one pass with no generic JSON values.
///
/// Security claims with the wrong JSON type make decoding fail with ``ClaimTypeError``; informational ones (`email`,
/// `email_verified`, `firebase.*`) with the wrong type are treated as absent. A `sub` that is not a string is kept
/// as "present but invalid" so the verifier can report ``VerificationError/Code/invalidSubject``.
struct IDTokenClaims: Decodable {
    enum Audience {
        case one(String)
        case several([String])
    }

    var issuer: String?
    var audience: Audience?
    /// `nil` when absent; `.some(nil)` when present but not a string.
    var subject: String??
    var expiresAt: Double?
    var issuedAt: Double?
    var authTime: Double?
    var email: String?
    var emailVerified: Bool?
    var signInProvider: String?
    var signInSecondFactor: String?

    /// A registered claim had the wrong JSON type.
    struct ClaimTypeError: Error {
        var claim: String
        var expected: String
    }

    private enum Key: String, CodingKey {
        case iss, aud, sub, exp, iat, auth_time, email, email_verified, firebase
    }

    private enum FirebaseKey: String, CodingKey {
        case sign_in_provider, sign_in_second_factor
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        issuer = try Self.string(container, .iss)
        if container.contains(.aud) {
            if let one = try? container.decode(String.self, forKey: .aud) {
                audience = .one(one)
            } else if let several = try? container.decode([String].self, forKey: .aud) {
                audience = .several(several)
            } else {
                throw ClaimTypeError(claim: "aud", expected: "a string or an array of strings")
            }
        }
        if container.contains(.sub) {
            subject = .some(try? container.decode(String.self, forKey: .sub))
        }
        expiresAt = try Self.numericDate(container, .exp)
        issuedAt = try Self.numericDate(container, .iat)
        authTime = try Self.numericDate(container, .auth_time)
        email = try? container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try? container.decodeIfPresent(Bool.self, forKey: .email_verified)
        if let firebase = try? container.nestedContainer(keyedBy: FirebaseKey.self, forKey: .firebase) {
            signInProvider = try? firebase.decodeIfPresent(String.self, forKey: .sign_in_provider)
            signInSecondFactor = try? firebase.decodeIfPresent(String.self, forKey: .sign_in_second_factor)
        }
    }

    private static func string(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> String? {
        do {
            return try container.decodeIfPresent(String.self, forKey: key)
        } catch {
            throw ClaimTypeError(claim: key.rawValue, expected: "a string")
        }
    }

    /// A NumericDate (RFC 7519 §2): seconds since 1970, integer or not.
    private static func numericDate(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Double? {
        let value: Double?
        do {
            value = try container.decodeIfPresent(Double.self, forKey: key)
        } catch {
            throw ClaimTypeError(claim: key.rawValue, expected: "a number of seconds")
        }
        guard let value, value.isFinite else { return nil }
        return value
    }
}
