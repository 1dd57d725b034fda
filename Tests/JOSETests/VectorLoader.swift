import Foundation

/// Loads the JSON test vectors committed in `Vectors/` (copied into the test bundle as a folder).
enum VectorLoader {
    struct MissingVector: Error, CustomStringConvertible {
        var name: String
        var description: String { "no vector file Vectors/\(name).json in the test bundle" }
    }

    static func load<Vector: Decodable>(_ name: String, as type: Vector.Type = Vector.self) throws -> Vector {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw MissingVector(name: name)
        }
        return try JSONDecoder().decode(Vector.self, from: Data(contentsOf: url))
    }
}

/// `Vectors/rfc7515-a2-rs256.json`: RFC 7515 Appendix A.2, a JWS using RS256.
struct RFC7515RS256Vector: Decodable {
    struct PrivateJWK: Decodable {
        var kty: String
        var n, e, d, p, q, dp, dq, qi: String
    }

    var jwk: PrivateJWK
    var header: String
    var headerOctets: [UInt8]
    var payload: String
    var payloadOctets: [UInt8]
    var encodedHeader: String
    var encodedPayload: String
    var encodedSignature: String
    var compact: String
}

/// `Vectors/rfc7517-a1-public-keys.json`: RFC 7517 Appendix A.1, a JWKS with an EC and an RSA public key.
struct RFC7517PublicKeysVector: Decodable {
    /// The set as raw JSON, so it can be decoded by the code under test.
    var jwksJSON: Data
    var rsaKeyID: String
    var ecKeyID: String
    var rsaThumbprint: String

    private enum CodingKeys: String, CodingKey {
        case jwks, rsaKeyID, ecKeyID, rsaThumbprint
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rsaKeyID = try container.decode(String.self, forKey: .rsaKeyID)
        ecKeyID = try container.decode(String.self, forKey: .ecKeyID)
        rsaThumbprint = try container.decode(String.self, forKey: .rsaThumbprint)
        // Re-serialise the "jwks" member exactly as a server would send it.
        let raw = try container.decode(JSONValue.self, forKey: .jwks)
        jwksJSON = try JSONEncoder().encode(raw)
    }
}

/// Any JSON value, for handing vector fragments to the code under test as JSON text.
enum JSONValue: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
