/// The JOSE header of a JWS (RFC 7515 §4): the parameters JOSE reads. Other parameters are ignored, except `crit`,
/// which makes verification fail because JOSE understands no extensions.
public struct JWSHeader: Codable, Sendable, Equatable {
    /// The algorithm the token claims to use (`"RS256"`). Verification never trusts it to choose an algorithm.
    public var alg: String
    /// The key ID that selects the verification key.
    public var kid: String?
    /// The media type, `"JWT"` for tokens made by ``JWTSigner``.
    public var typ: String?

    /// Creates a header.
    public init(alg: String, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
    }
}

/// The protected header as read from a token: ``JWSHeader`` plus whether `crit` was present.
struct ProtectedHeader: Decodable, Sendable {
    var header: JWSHeader
    var hasCriticalParameters: Bool

    private enum CodingKeys: String, CodingKey {
        case alg, kid, typ, crit
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        header = JWSHeader(
            alg: try container.decode(String.self, forKey: .alg),
            kid: try container.decodeIfPresent(String.self, forKey: .kid),
            typ: try container.decodeIfPresent(String.self, forKey: .typ))
        hasCriticalParameters = container.contains(.crit)
    }
}
