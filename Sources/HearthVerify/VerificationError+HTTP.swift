public import HearthProtocol

extension VerificationError {
    /// The HTTP status a backend should answer with: 401 when the token is at fault, 503 when the keys or the
    /// revocation check could not be reached (the token may be fine; the client should retry later).
    public var httpStatus: Int {
        switch code {
        case .keysUnavailable, .revocationCheckFailed: 503
        default: 401
        }
    }

    /// The `WWW-Authenticate` value for a 401 answer (RFC 6750 §3):
    /// `Bearer error="invalid_token", error_description="…"`.
    ///
    /// For ``Code/missingToken`` it is just `Bearer`, because RFC 6750 §3.1 asks servers not to send an error code
    /// to a request that carried no credentials. The description is the ``reason`` reduced to the characters
    /// RFC 6750 allows there (printable ASCII without `"` and `\`); it never contains the token.
    public var wwwAuthenticateHeader: String {
        if code == .missingToken { return "Bearer" }
        return "Bearer error=\"invalid_token\", error_description=\"\(Self.headerSafe("\(code): \(reason)"))\""
    }

    /// The error as a Firebase-style envelope (PROTOCOL.md §2), for backends that answer in that format:
    /// `UNAUTHENTICATED` (401) or `UNAVAILABLE` (503) with the reason as the message.
    public var wireError: WireError {
        WireError(httpStatus == 503 ? .unavailable : .unauthenticated, "\(code): \(reason)")
    }

    /// Keeps the characters RFC 6750 §3 allows in `error_description` (%x20-21 / %x23-5B / %x5D-7E), turning `"`
    /// and `\` into `'` and anything else into `?`; at most 200 characters.
    private static func headerSafe(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(min(text.unicodeScalars.count, 200))
        for scalar in text.unicodeScalars.prefix(200) {
            switch scalar.value {
            case 0x22, 0x5C: result.unicodeScalars.append("'")
            case 0x20...0x7E: result.unicodeScalars.append(scalar)
            default: result.unicodeScalars.append("?")
            }
        }
        return result
    }
}
