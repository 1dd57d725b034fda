/// An absolute `http` or `https` URL that a browser and Hearth read the same way, for deciding where a browser is
/// sent (continue URLs, redirect URIs).
///
/// Browsers parse URLs by the WHATWG URL Standard; Foundation's `URLComponents` and most server libraries by RFC 3986.
/// The two disagree on inputs an attacker can choose: in `http://evil\@localhost/` a browser reads `\` as `/` (host
/// `evil`), RFC 3986 reads `evil\` as user info (host `localhost`); browsers silently drop tabs and newlines,
/// percent-decode hosts, and read `0x7f.1` or `2130706433` as `127.0.0.1`. So only a strict subset is accepted, one
/// on which both read the same scheme, host and port:
///
/// - no `\`, no control character, space or DEL, no non-ASCII (hosts in punycode, `xn--`);
/// - `http://` or `https://` exactly (any case), then a host, an optional port, and the path, query and fragment;
/// - no user info (no `@` before the path);
/// - a host that is a domain name (letters, digits, `-`, `_`; non-empty labels, so no trailing dot), a dotted-decimal
///   IPv4 address in canonical form (a host whose last label is a number, `127.1` or `0x7f.1`, is refused unless it
///   is one), or a bracketed IPv6 address in RFC 5952 form (`[::1]`, as browsers write it; hex in any case);
/// - a port of 1 to 65535 without leading zeros;
/// - a path, query and fragment in which every `%` starts an escape (`%` and two hex digits).
///
/// Once the authority has ended (at the first `/`, `?` or `#`, in both standards), no character can move the host,
/// so the path, query and fragment may hold any printable ASCII but `\` (browsers escape `"`, `<` or `{` themselves).
/// Scheme and host are lower-cased, as a browser reads them; everything else is kept as written.
public struct BrowserURL: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable {
        case http, https

        /// 80 or 443.
        public var defaultPort: Int { self == .http ? 80 : 443 }
    }

    /// Why a text is not a ``BrowserURL``.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// A `\`, which browsers read as `/`.
        case backslash
        /// A control character, space or DEL (browsers drop tabs, newlines and leading or trailing spaces silently).
        case controlOrSpace
        /// A character beyond ASCII (browsers map hosts with IDNA; write them in punycode).
        case nonASCII
        /// Not `http://` or `https://` (browsers read `http:evil.com` and `http:///evil.com` as host `evil.com`).
        case notHTTP
        /// User info before the host (`user@host`).
        case userInfo
        case emptyHost
        /// A host with a character other than letters, digits, `-`, `_` and `.` (`%` among them: browsers decode
        /// it), an empty label (a trailing dot among them), or over 253 characters or a label over 63.
        case invalidHost
        /// A host whose last label is a number (browsers read it as IPv4) but that is not a canonical dotted-decimal
        /// IPv4 address.
        case numericHost
        /// A bracketed host that is not an IPv6 address in RFC 5952 form.
        case invalidIPv6
        /// A port that is empty, not digits, has a leading zero, or is 0 or over 65535.
        case invalidPort
        /// A `%` not followed by two hex digits in the path, query or fragment.
        case malformedEscape

        public var description: String {
            switch self {
            case .backslash: "it contains a backslash"
            case .controlOrSpace: "it contains a control character or a space"
            case .nonASCII: "it contains a character beyond ASCII (write hosts in punycode and escape the rest)"
            case .notHTTP: "it does not start with http:// or https://"
            case .userInfo: "it has user info (an @ before the host)"
            case .emptyHost: "its host is empty"
            case .invalidHost: "its host is not a domain name (letters, digits, '-' and non-empty labels)"
            case .numericHost: "its host ends in a number but is not a dotted-decimal IPv4 address"
            case .invalidIPv6: "its IPv6 host is not in its canonical form (RFC 5952, e.g. [::1])"
            case .invalidPort: "its port is not a number from 1 to 65535 without leading zeros"
            case .malformedEscape: "its path, query or fragment has a % not followed by two hex digits"
            }
        }
    }

    public let scheme: Scheme
    /// In lower case: a domain name, a dotted-decimal IPv4 address, or an IPv6 address in brackets (`[::1]`).
    public let host: String
    /// The port as written; nil when none is.
    public let port: Int?
    /// The path as written: empty or starting with `/`.
    public let path: String
    /// The query as written, without its `?`.
    public let query: String?
    /// The fragment as written, without its `#`.
    public let fragment: String?

    /// Reads `text`, or says why it is not in the strict form.
    public init(parsing text: String) throws(Refusal) {
        let bytes = Array(text.utf8)
        if bytes.contains(ASCII.backslash) { throw .backslash }
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { throw .controlOrSpace }
        if bytes.contains(where: { $0 >= 0x80 }) { throw .nonASCII }

        guard let colon = bytes.firstIndex(of: ASCII.colon),
            let scheme = Scheme(rawValue: String(decoding: bytes[..<colon], as: UTF8.self).lowercased()),
            bytes[(colon + 1)...].starts(with: [ASCII.slash, ASCII.slash])
        else { throw .notHTTP }
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { [ASCII.slash, ASCII.question, ASCII.hash].contains($0) }
            ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        if authority.contains(ASCII.at) { throw .userInfo }

        let (host, portText) = try Self.split(authority)
        self.scheme = scheme
        self.host = try Self.checkedHost(host)
        self.port = try portText.map { (text) throws(Refusal) in try Self.checkedPort(text) }
        (path, query, fragment) = try Self.checkedRest(bytes[authorityEnd...])
    }

    /// `scheme://host[:port]`, without the scheme's default port: the origin a browser sends for a page at this URL.
    public var origin: String {
        let shownPort = port.flatMap { $0 == scheme.defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme.rawValue)://\(host)\(shownPort)"
    }

    /// The URL as text, with scheme and host in lower case.
    public var description: String {
        "\(scheme.rawValue)://\(host)\(port.map { ":\($0)" } ?? "")\(path)\(query.map { "?\($0)" } ?? "")"
            + (fragment.map { "#\($0)" } ?? "")
    }

    /// This URL as text with `encodedPairs` (form-encoded, `a=1&b=2`) added to its query, before any fragment.
    public func addingQuery(_ encodedPairs: String) -> String {
        let existing = query.flatMap { $0.isEmpty ? nil : $0 }
        let url = BrowserURL(
            scheme: scheme, host: host, port: port, path: path,
            query: existing.map { "\($0)&\(encodedPairs)" } ?? encodedPairs, fragment: fragment)
        return url.description
    }

    private init(scheme: Scheme, host: String, port: Int?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    // MARK: Authority

    /// The host and the port's text (nil without a `:`).
    private static func split(_ authority: ArraySlice<UInt8>) throws(Refusal) -> (host: ArraySlice<UInt8>, port: ArraySlice<UInt8>?) {
        if authority.first == ASCII.openBracket {
            guard let close = authority.firstIndex(of: ASCII.closeBracket) else { throw .invalidIPv6 }
            let after = authority[(close + 1)...]
            guard after.isEmpty || after.first == ASCII.colon else { throw .invalidIPv6 }
            return (authority[...close], after.isEmpty ? nil : after.dropFirst())
        }
        guard let colon = authority.firstIndex(of: ASCII.colon) else { return (authority, nil) }
        return (authority[..<colon], authority[(colon + 1)...])
    }

    private static func checkedHost(_ host: ArraySlice<UInt8>) throws(Refusal) -> String {
        if host.isEmpty { throw .emptyHost }
        if host.first == ASCII.openBracket { return try checkedIPv6(host.dropFirst().dropLast()) }
        guard host.count <= 253, host.allSatisfy(isHostCharacter) else { throw .invalidHost }
        let labels = host.split(separator: ASCII.dot, omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 }) else { throw .invalidHost }
        let lowered = String(decoding: host, as: UTF8.self).lowercased()
        // The WHATWG host parser reads a host whose last label is a number (decimal, or hex after 0x) as IPv4, in
        // any of the forms inet_aton takes.
        if let last = labels.last, isIPv4Number(last), !isCanonicalIPv4(labels) { throw .numericHost }
        return lowered
    }

    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == ASCII.hyphen || byte == ASCII.underscore || byte == ASCII.dot
    }

    /// Digits only, or `0x`/`0X` and hex digits only (possibly none): the WHATWG "ends in a number" test.
    private static func isIPv4Number(_ label: ArraySlice<UInt8>) -> Bool {
        if label.allSatisfy(isDigit) { return true }
        let prefix = Array(label.prefix(2))
        return prefix.count == 2 && prefix[0] == ASCII.zero && prefix[1] | 0x20 == UInt8(ascii: "x")
            && label.dropFirst(2).allSatisfy { hexValue($0) != nil }
    }

    /// Four decimal numbers 0–255 without leading zeros.
    private static func isCanonicalIPv4(_ labels: [ArraySlice<UInt8>]) -> Bool {
        labels.count == 4 && labels.allSatisfy { label in
            label.count <= 3 && label.allSatisfy(isDigit) && (label.count == 1 || label.first != ASCII.zero)
                && Int(String(decoding: label, as: UTF8.self)).map { $0 <= 255 } == true
        }
    }

    /// The text between brackets, if it is the RFC 5952 form of an IPv6 address (what browsers serialize; hex digits in
    /// any case), in brackets.
    private static func checkedIPv6(_ text: ArraySlice<UInt8>) throws(Refusal) -> String {
        guard let groups = IPv6Text.groups(text) else { throw .invalidIPv6 }
        let canonical = IPv6Text.canonical(groups)
        guard canonical.utf8.elementsEqual(text.map { isAlphanumeric($0) && !isDigit($0) ? $0 | 0x20 : $0 }) else {
            throw .invalidIPv6
        }
        return "[\(canonical)]"
    }

    private static func checkedPort(_ text: ArraySlice<UInt8>) throws(Refusal) -> Int {
        guard (1...5).contains(text.count), text.allSatisfy(isDigit), text.first != ASCII.zero,
            let port = Int(String(decoding: text, as: UTF8.self)), port <= 65535
        else { throw .invalidPort }
        return port
    }

    // MARK: Path, query and fragment

    /// The path, query and fragment of what follows the authority (printable ASCII without `\` by now), where
    /// every `%` starts an escape.
    private static func checkedRest(_ rest: ArraySlice<UInt8>) throws(Refusal) -> (String, String?, String?) {
        var index = rest.startIndex
        while let percent = rest[index...].firstIndex(of: ASCII.percent) {
            guard percent + 2 < rest.endIndex, hexValue(rest[percent + 1]) != nil, hexValue(rest[percent + 2]) != nil
            else { throw .malformedEscape }
            index = percent + 3
        }
        let fragmentStart = rest.firstIndex(of: ASCII.hash)
        let beforeFragment = rest[..<(fragmentStart ?? rest.endIndex)]
        let queryStart = beforeFragment.firstIndex(of: ASCII.question)
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        return (
            text(beforeFragment[..<(queryStart ?? beforeFragment.endIndex)]),
            queryStart.map { text(beforeFragment[($0 + 1)...]) }, fragmentStart.map { text(rest[($0 + 1)...]) }
        )
    }

    // MARK: Bytes

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private enum ASCII {
        static let backslash = UInt8(ascii: "\\")
        static let colon = UInt8(ascii: ":")
        static let slash = UInt8(ascii: "/")
        static let question = UInt8(ascii: "?")
        static let hash = UInt8(ascii: "#")
        static let at = UInt8(ascii: "@")
        static let dot = UInt8(ascii: ".")
        static let hyphen = UInt8(ascii: "-")
        static let underscore = UInt8(ascii: "_")
        static let percent = UInt8(ascii: "%")
        static let zero = UInt8(ascii: "0")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
    }
}
