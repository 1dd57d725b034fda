import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An SMS could not be handed to the gateway, after the sender's retries.
///
/// It names the sender, the gateway's host, the masked phone number (`+*******0100`), the last failure and the
/// number of attempts; never the code, the message text, a token or a secret, so it can be logged as is.
public struct SMSDeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Sender: String, Sendable {
        case webhook
        case twilio
    }

    public enum Failure: Sendable, Equatable {
        /// The gateway answered with this status (not 2xx).
        case status(Int)
        /// No HTTP answer: a short, secret-free reason such as `could not connect` or `timed out`.
        case network(String)
    }

    public var sender: Sender
    /// The host the sender posts to (never the path or query, which may carry credentials).
    public var host: String
    /// The recipient with all but the last four digits hidden.
    public var maskedPhoneNumber: String
    /// The last attempt's failure.
    public var failure: Failure
    /// How many requests were made.
    public var attempts: Int
    /// The gateway's own numeric error code when it gave one (Twilio's `code`, e.g. 21211 for an invalid `To`).
    public var providerErrorCode: Int?

    public init(
        sender: Sender, host: String, maskedPhoneNumber: String, failure: Failure, attempts: Int,
        providerErrorCode: Int? = nil
    ) {
        self.sender = sender
        self.host = host
        self.maskedPhoneNumber = maskedPhoneNumber
        self.failure = failure
        self.attempts = attempts
        self.providerErrorCode = providerErrorCode
    }

    public var description: String {
        let reason: String
        switch failure {
        case .status(let status):
            reason = "HTTP \(status)" + (providerErrorCode.map { " (\(sender.rawValue) error \($0))" } ?? "")
        case .network(let detail):
            reason = "network error (\(detail))"
        }
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        return "\(sender.rawValue) SMS delivery to \(maskedPhoneNumber) via \(host) failed after \(tries): \(reason)"
    }

    /// A short reason for a transport error that says nothing about the request (no URL, no body).
    static func networkReason(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return String(describing: type(of: error)) }
        switch urlError.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "could not connect"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "connection lost"
        case .notConnectedToInternet: return "not connected"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return "TLS failure"
        case .badServerResponse: return "bad server response"
        default: return "URLError \(urlError.code.rawValue)"
        }
    }
}
