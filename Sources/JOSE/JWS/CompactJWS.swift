import Foundation
import HearthCrypto
import Synchronization

/// The three parts of a JWS in compact serialisation (RFC 7515 §7.1), decoded.
struct CompactJWS {
    /// The decoded protected header.
    var header: JWSHeader
    /// Whether the header carried `crit`.
    var hasCriticalParameters: Bool
    /// The decoded payload bytes (not yet checked to be a JSON object).
    var payload: Data
    /// The decoded signature; empty when the third segment is empty.
    var signature: [UInt8]
    /// The ASCII bytes of `header.payload`, which the signature covers.
    var signingInput: ArraySlice<UInt8>

    /// Splits and decodes `token`.
    ///
    /// Refuses, as ``JOSEError/Code/malformedToken``: anything but exactly three dot-separated segments, an empty
    /// header or payload segment, `=` padding anywhere, and any text that is not base64url. A header that is not a
    /// JSON object with a string `alg` is ``JOSEError/Code/invalidHeader``. The payload is not inspected here.
    static func parse(_ token: String, headers: HeaderCache? = nil) throws(JOSEError) -> CompactJWS {
        let bytes = Array(token.utf8)
        var dots = (first: -1, second: -1)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard dots.second < 0 else {
                    throw JOSEError(.malformedToken, reason: "a compact JWS has exactly three segments")
                }
                if dots.first < 0 { dots.first = index } else { dots.second = index }
            } else if byte == UInt8(ascii: "=") {
                throw JOSEError(.malformedToken, reason: "base64url padding ('=') is not allowed in a JWS")
            }
            index += 1
        }
        guard dots.second >= 0 else {
            throw JOSEError(.malformedToken, reason: "a compact JWS has exactly three segments")
        }
        let headerSegment = bytes[..<dots.first]
        let payloadSegment = bytes[(dots.first + 1)..<dots.second]
        let signatureSegment = bytes[(dots.second + 1)...]
        guard !headerSegment.isEmpty else {
            throw JOSEError(.malformedToken, reason: "the header segment is empty")
        }
        guard !payloadSegment.isEmpty else {
            throw JOSEError(.malformedToken, reason: "the payload segment is empty")
        }
        guard let payloadBytes = decodeSegment(payloadSegment) else {
            throw JOSEError(.malformedToken, reason: "the payload segment is not base64url")
        }
        guard let signature = decodeSegment(signatureSegment) else {
            throw JOSEError(.malformedToken, reason: "the signature segment is not base64url")
        }
        let headerText = String(decoding: headerSegment, as: UTF8.self)
        let protected: ProtectedHeader
        if let cached = headers?.header(for: headerText) {
            protected = cached
        } else {
            guard let headerBytes = Base64URL.decode(headerText) else {
                throw JOSEError(.malformedToken, reason: "the header segment is not base64url")
            }
            do {
                protected = try JSONDecoder().decode(ProtectedHeader.self, from: Data(headerBytes))
            } catch {
                throw JOSEError(.invalidHeader, reason: "the header is not a JSON object with a string \"alg\"")
            }
            headers?.remember(protected, for: headerText)
        }
        return CompactJWS(
            header: protected.header,
            hasCriticalParameters: protected.hasCriticalParameters,
            payload: Data(payloadBytes),
            signature: signature,
            signingInput: bytes[..<dots.second])
    }

    private static func decodeSegment(_ segment: ArraySlice<UInt8>) -> [UInt8]? {
        if segment.isEmpty { return [] }
        return Base64URL.decode(bytes: segment)
    }
}

/// Parsed protected headers by their base64url text. A verifier sees the same few headers over and over
/// (one per signing key), so parsing each once saves most of the JSON work of verification.
final class HeaderCache: Sendable {
    private let entries = Mutex<[String: ProtectedHeader]>([:])
    private let capacity = 64

    func header(for segment: String) -> ProtectedHeader? {
        entries.withLock { $0[segment] }
    }

    func remember(_ header: ProtectedHeader, for segment: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[segment] = header
        }
    }
}
