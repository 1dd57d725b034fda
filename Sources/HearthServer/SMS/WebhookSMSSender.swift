public import Foundation
public import HearthCore
import HearthCrypto

/// POSTs each message as JSON to a URL the operator runs (which then talks to any SMS provider):
///
/// ```
/// POST <url>
/// Content-Type: application/json
/// X-Hearth-Signature: sha256=<hex HMAC-SHA256 of the exact body under the secret>   (only with a secret)
///
/// {"to":"+15555550100","code":"123456","text":"123456 is your verification code for demo-hearth.","purpose":"sign-in"}
/// ```
///
/// `purpose` is `sign-in` or `enrollment`. Any 2xx is success. Network errors, 429 and 5xx are retried with
/// exponential backoff (`initialBackoff`, twice that, …) up to `maxAttempts` requests; other statuses (3xx, 4xx)
/// fail at once with ``SMSDeliveryError``. Retries re-send the identical body and signature, so a receiver may
/// deduplicate on it.
///
/// Receivers should verify the signature over the raw body bytes before parsing, comparing in constant time.
public final class WebhookSMSSender: SMSSender {
    public let url: URL
    private let secret: [UInt8]?
    private let attempts: DeliveryAttempts

    /// - Parameters:
    ///   - url: where to POST (https in production: the body carries the code).
    ///   - secret: the HMAC key for `X-Hearth-Signature`; `nil` (or empty) sends no signature.
    ///   - maxAttempts: requests made at most (at least 1).
    ///   - initialBackoff: the wait after the first failure; it doubles after each further one (capped at 30 s).
    ///   - transport: how requests are made; ``URLSessionPoster`` by default.
    ///   - sleep: how to wait between attempts (blocking); tests pass one that records.
    public init(
        url: URL, secret: String? = nil, maxAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500),
        transport: any HTTPPosting = URLSessionPoster(),
        sleep: @escaping @Sendable (Duration) -> Void = {
            Thread.sleep(forTimeInterval: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
        }
    ) {
        self.url = url
        self.secret = secret.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
        attempts = DeliveryAttempts(
            sender: .webhook, maxAttempts: maxAttempts, initialBackoff: initialBackoff, transport: transport,
            sleep: sleep)
    }

    public func send(_ message: SMSMessage) throws {
        let body = Self.body(for: message)
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let secret {
            headers["X-Hearth-Signature"] = "sha256=" + Self.hex(HMAC.sha256(key: secret, message: Array(body)))
        }
        try attempts.post(url, headers: headers, body: body, to: message.phoneNumber)
    }

    /// `{"to":…,"code":…,"text":…,"purpose":…}`, keys in that order, compact, strings escaped by `JSONEncoder`.
    static func body(for message: SMSMessage) -> Data {
        let fields = [
            ("to", message.phoneNumber), ("code", message.code), ("text", message.text),
            ("purpose", message.purpose.rawValue),
        ]
        let members = fields.map { "\(jsonString($0.0)):\(jsonString($0.1))" }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
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
