import Foundation
import HearthCrypto
import HearthProtocol

/// The webhook senders' request (SMS and email): a compact JSON object POSTed to the operator's URL, signed with
/// `X-Hearth-Signature: sha256=<hex HMAC-SHA256 of the exact body under the secret>` when there is a secret, and
/// retried by ``DeliveryAttempts`` (each retry re-sends the identical body and signature, so a receiver may
/// deduplicate on it).
struct SignedWebhook: Sendable {
    let url: URL
    private let secret: [UInt8]?
    private let attempts: DeliveryAttempts

    /// - Parameter secret: the HMAC key; `nil` (or empty) sends no signature. The others are ``DeliveryAttempts``'.
    init(
        url: URL, secret: String?, maxAttempts: Int, initialBackoff: Duration, http: any OutboundHTTP,
        sleep: @escaping @Sendable (Duration) -> Void
    ) {
        self.url = url
        self.secret = secret.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
        attempts = DeliveryAttempts(
            maxAttempts: maxAttempts, initialBackoff: initialBackoff, http: http, sleep: sleep)
    }

    /// POSTs `body`, signed.
    /// - Returns: nil when delivered, else the last failure.
    func post(_ body: Data) -> DeliveryAttempts.Failed? {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let secret {
            headers["X-Hearth-Signature"] = "sha256=" + Self.hex(HMAC.sha256(key: secret, message: Array(body)))
        }
        return attempts.post(url, headers: headers, body: body)
    }

    /// `{"name":"value",…}` with the members in the given order, compact, strings escaped by `JSONEncoder`.
    static func body(_ members: [(name: String, value: String)]) -> Data {
        let encoded = members.map { "\(jsonString($0.name)):\(jsonString($0.value))" }
        return Data(("{" + encoded.joined(separator: ",") + "}").utf8)
    }

    private static func jsonString(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a String cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
