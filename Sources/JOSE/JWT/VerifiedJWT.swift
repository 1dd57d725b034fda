public import Foundation
import HearthProtocol

/// A token whose signature ``JWTKeySet/verify(_:)`` has checked.
///
/// Only the signature, the key and the algorithm were checked. Claims such as `exp`, `nbf`, `iat`, `iss`, `aud` and
/// `sub` were **not**: check them before trusting the token.
public struct VerifiedJWT: Sendable {
    /// The token's protected header.
    public let header: JWSHeader
    /// The payload: the bytes of a JSON object.
    public let payload: Data

    init(header: JWSHeader, payload: Data) {
        self.header = header
        self.payload = payload
    }

    /// Decodes the payload as `type`.
    ///
    /// Dates are read as JWT NumericDate values (seconds since 1970, RFC 7519 §2), so a claim such as `exp` can be a
    /// `Date` property. They must be whole seconds from 1970 to the year 9999 (`NumericDate` in HearthProtocol): a
    /// date such as 1e300 or −2^63 is an ``JOSEError/Code/invalidPayload``, never a `Date` that traps when a caller
    /// converts it to an integer.
    ///
    /// - Parameter type: the claims type.
    /// - Returns: the decoded claims.
    /// - Throws: ``JOSEError`` with ``JOSEError/Code/invalidPayload`` when the payload does not match `type`.
    public func claims<T: Decodable>(as type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(Self.numericDate)
        do {
            return try decoder.decode(type, from: payload)
        } catch {
            throw JOSEError(.invalidPayload, reason: "the payload does not decode as \(type): \(Self.summary(of: error))")
        }
    }

    /// Reads a `Date` claim as a ``HearthProtocol/NumericDate``.
    private static func numericDate(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let date = if let seconds = try? container.decode(Int64.self) {
            NumericDate(secondsSince1970: seconds)
        } else {
            NumericDate(secondsSince1970: try container.decode(Double.self))
        }
        guard let date else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not whole seconds between 1970 and 9999")
        }
        return date.date
    }

    /// Describes a decoding failure by its kind and coding path only, never by the values it saw.
    private static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return "decoding failed" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \(JOSEError.quoted(key.stringValue)) at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context))"
        case .dataCorrupted(let context):
            return "invalid value at \(path(context))"
        @unknown default:
            return "decoding failed"
        }
    }
}
