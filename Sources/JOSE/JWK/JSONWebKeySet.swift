/// A JSON Web Key Set (RFC 7517 §5): `{"keys":[…]}`.
///
/// Decoding is forgiving per key, as RFC 7517 §5 asks: an entry that is not a JSON object with a string `kty` is
/// skipped instead of failing the whole set. Use ``JWTKeySet/init(jwks:)`` to turn a set into verification keys.
public struct JSONWebKeySet: Codable, Sendable, Equatable {
    /// The keys, in document order.
    public var keys: [JSONWebKey]

    /// Creates a set.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    private enum CodingKeys: String, CodingKey {
        case keys
    }

    /// Decodes any JSON value and ignores it; used to step over unusable entries.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var entries = try container.nestedUnkeyedContainer(forKey: .keys)
        var keys: [JSONWebKey] = []
        while !entries.isAtEnd {
            if let key = try? entries.decode(JSONWebKey.self) {
                keys.append(key)
            } else {
                // A failed decode does not advance the container; step over the entry explicitly.
                _ = try entries.decode(Skipped.self)
            }
        }
        self.keys = keys
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keys, forKey: .keys)
    }
}
