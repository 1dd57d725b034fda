import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why the last POST of an HTTP sender (SMS or email) did not deliver; secret-free, so it can be logged as is.
public enum HTTPDeliveryFailure: Sendable, Equatable {
    /// The gateway answered with this status (not 2xx).
    case status(Int)
    /// No HTTP answer: a short, secret-free reason such as `could not connect` or `timed out`.
    case network(String)

    /// `HTTP 503`, `network error (timed out)`; `providerErrorCode` (named after `sender`) follows a status.
    func describe(providerErrorCode: Int?, sender: String) -> String {
        switch self {
        case .status(let status):
            "HTTP \(status)" + (providerErrorCode.map { " (\(sender) error \($0))" } ?? "")
        case .network(let detail):
            "network error (\(detail))"
        }
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
