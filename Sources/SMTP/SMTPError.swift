/// Why a message was not delivered. Holds no credentials and no part of the message, so it can be logged as is.
public enum SMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection: refused, unreachable, or the host name did not resolve.
    case couldNotConnect
    /// The TLS handshake or the certificate check failed, or the server did not offer STARTTLS.
    case tlsFailure
    /// The server refused the user name and password.
    case authenticationRefused(replyCode: Int)
    /// The server refused the sender (`MAIL FROM`).
    case senderRefused(replyCode: Int)
    /// The server refused the recipient (`RCPT TO`).
    case recipientRefused(replyCode: Int)
    /// The server refused the message itself (`DATA`, or the reply after it) or answered out of protocol.
    case messageRefused(replyCode: Int)
    /// The connect timeout or the delivery's timeout passed.
    case timedOut
    /// The connection broke during the exchange.
    case connectionLost
    /// Any other libcurl failure, by its `CURLcode`.
    case failed(curlCode: Int)

    /// Whether trying again later may succeed: network trouble and temporary (4xx) refusals, not wrong
    /// credentials, TLS failures or permanent (5xx) refusals.
    public var isTransient: Bool {
        switch self {
        case .couldNotConnect, .timedOut, .connectionLost: true
        case .senderRefused(let code), .recipientRefused(let code), .messageRefused(let code): (400...499).contains(code)
        case .tlsFailure, .authenticationRefused, .failed: false
        }
    }

    public var description: String {
        switch self {
        case .couldNotConnect: "could not connect"
        case .tlsFailure: "TLS failure"
        case .authenticationRefused(let code): "authentication refused (\(code))"
        case .senderRefused(let code): "sender refused (\(code))"
        case .recipientRefused(let code): "recipient refused (\(code))"
        case .messageRefused(let code): "message refused (\(code))"
        case .timedOut: "timed out"
        case .connectionLost: "connection lost"
        case .failed(let code): "libcurl error \(code)"
        }
    }
}
