/// Where and how to hand messages over: a mail server (submission port) and its credentials.
public struct SMTPServer: Sendable {
    public enum Security: String, Sendable, Equatable {
        /// Plain connection upgraded with STARTTLS, which the server must offer (port 587).
        case startTLS = "starttls"
        /// TLS from the first byte (`smtps`, port 465).
        case implicitTLS = "implicit"
        /// No TLS at all: only for a relay on the same machine.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// User name and password for `AUTH` (PLAIN or LOGIN, whichever the server offers); nil sends no `AUTH`.
    public var credentials: (username: String, password: String)?
    /// PEM file of the certificate authorities trusted for the server's certificate; nil: the system's.
    public var caFile: String?
    /// Longest wait for the connection (TCP and TLS handshakes).
    public var connectTimeout: Duration
    /// Longest wait for a whole delivery, connecting included.
    public var timeout: Duration

    public init(
        host: String, port: Int, security: Security, credentials: (username: String, password: String)? = nil,
        caFile: String? = nil, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(15)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.credentials = credentials
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// `smtp://host:port` or `smtps://host:port` (an IPv6 address in brackets).
    var url: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(name):\(port)"
    }
}
