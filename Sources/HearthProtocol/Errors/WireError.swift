public import Foundation

/// An error as Firebase Auth sends it: an HTTP status and the JSON envelope
/// `{"error":{"code":400,"message":"CODE : detail","errors":[…]}}` (PROTOCOL.md §2).
///
/// Clients split `message` at the first `:` (iOS, Python) or at `" : "` (JS), so the spaces matter.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    /// Human-readable detail. Must never contain a token, password, secret or SQL.
    public var detail: String?
    public var httpStatus: Int
    /// `errors[0].reason`; iOS maps a reason starting with `keyInvalid` to its invalid-API-key error.
    public var reason: String

    public init(_ code: ErrorCode, _ detail: String? = nil, httpStatus: Int? = nil, reason: String = "invalid") {
        self.code = code
        self.detail = detail
        self.httpStatus = httpStatus ?? code.httpStatus
        self.reason = reason
    }

    /// The envelope's `message`: `CODE`, `CODE : detail`, or for canonical codes the detail sentence.
    public var message: String {
        if code.isCanonical { return detail ?? code.rawValue }
        guard let detail, !detail.isEmpty else { return code.rawValue }
        return "\(code.rawValue) : \(detail)"
    }

    public var description: String { "\(httpStatus) \(message)" }

    /// The JSON envelope. Application 400s leave out `status`, as the Firebase emulator does.
    public func envelope() -> Data {
        let entry = Envelope.Body.Entry(message: message, reason: reason, domain: "global")
        let body = Envelope.Body(
            code: httpStatus, message: message, errors: [entry], status: code.isCanonical ? code.rawValue : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(Envelope(error: body))) ?? Data()
    }

    /// Reads an envelope as a client receives it. Returns nil if `data` is not one.
    public init?(envelope data: Data, httpStatus: Int) {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: data) else { return nil }
        let message = envelope.error.message
        if let status = envelope.error.status {
            self.init(ErrorCode(rawValue: status), message, httpStatus: httpStatus)
        } else if let colon = message.firstIndex(of: ":") {
            let code = message[..<colon].trimmingCharacters(in: .whitespaces)
            let detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            self.init(ErrorCode(rawValue: code), detail, httpStatus: httpStatus)
        } else {
            self.init(ErrorCode(rawValue: message), nil, httpStatus: httpStatus)
        }
        reason = envelope.error.errors?.first?.reason ?? "invalid"
    }

    private struct Envelope: Codable {
        struct Body: Codable {
            struct Entry: Codable {
                var message: String
                var reason: String
                var domain: String
            }
            var code: Int
            var message: String
            var errors: [Entry]?
            var status: String?
        }
        var error: Body
    }

    public static func == (lhs: WireError, rhs: WireError) -> Bool {
        lhs.code == rhs.code && lhs.detail == rhs.detail && lhs.httpStatus == rhs.httpStatus
    }
}
