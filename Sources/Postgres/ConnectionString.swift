internal import CLibPQ

/// What may be shown of a libpq connection string (a `postgres://` or `postgresql://` URI, or a keyword/value
/// string), and of libpq's explanation of a failed connection: never a password, nor any part of one.
public enum PostgresConnectionString {
    /// `connectionString` as logs, banners and errors may show it.
    ///
    /// In a URI, everything between `://` and the *last* `@` is the user information; a password with an
    /// unencoded `/`, `?`, `#` or `@` in it cannot be told from the rest, so all of it is hidden: only a user name
    /// made of letters, digits, `-._~` and percent escapes, followed by `:` or by that `@`, stays. Everything from
    /// the value of the first `password=` or `sslpassword=` parameter on (its name may be percent-encoded) is
    /// hidden too. Each hidden stretch becomes `***`. In a keyword/value string the values of `password` and
    /// `sslpassword` become `***`, and so does everything from where the string stops parsing as keyword/value pairs.
    ///
    /// `postgres://hearth:S3c/ret@db:5432/hearth?sslmode=require` → `postgres://hearth:***@db:5432/hearth?sslmode=require`
    public static func masked(_ connectionString: String) -> String {
        let scheme = connectionString.prefix { $0 != ":" }
        let isURI = ["postgres", "postgresql"].contains(scheme.lowercased())
            && connectionString.dropFirst(scheme.count).hasPrefix("://")
        guard isURI else { return maskedKeywordValues(connectionString) }
        let rest = connectionString[connectionString.index(scheme.endIndex, offsetBy: 3)...]
        var hidden: [Range<String.Index>] = []
        if let at = rest.lastIndex(of: "@") {
            let user = rest[..<at].prefix { $0 != ":" }
            let password = user.endIndex < at ? rest.index(after: user.endIndex) : at
            hidden.append((user.unicodeScalars.allSatisfy(isPlainUserCharacter) ? password : rest.startIndex)..<at)
        }
        if let value = firstPasswordParameterValue(in: rest) {
            hidden.append(value..<rest.endIndex)
        }
        return String(connectionString[..<rest.startIndex]) + replacing(hidden, in: rest)
    }

    /// How a pooler between Hearth and PostgreSQL hands out server sessions, as said by a URI's `pool_mode`
    /// parameter (Hearth's own, named after PgBouncer's setting; libpq does not know it).
    public enum PoolMode: String, Sendable {
        /// No pooler, or one that gives each client a server session of its own: named statements are kept.
        case session
        /// Each transaction may run on another server session (PgBouncer's `pool_mode = transaction`): nothing may
        /// outlive a transaction on the session, so statements go unnamed.
        case transaction
    }

    /// `connectionString` without its `pool_mode` parameter (`?pool_mode=transaction`, `&pool_mode=session`), as
    /// libpq must be given it, and the mode that parameter says (`.session` without one). Keyword/value strings
    /// pass unchanged.
    ///
    /// `postgres://hearth@pgbouncer:6432/hearth?pool_mode=transaction&sslmode=require` →
    /// (`postgres://hearth@pgbouncer:6432/hearth?sslmode=require`, `.transaction`)
    ///
    /// - Throws: `PostgresError` (a connection failure) for another value; the message does not repeat the string.
    public static func poolMode(_ connectionString: String) throws -> (connectionString: String, poolMode: PoolMode) {
        let key = "pool_mode="
        var searchStart = connectionString.startIndex
        while let found = connectionString[searchStart...].firstRange(of: key) {
            searchStart = found.upperBound
            guard found.lowerBound > connectionString.startIndex else { continue }
            let separator = connectionString.index(before: found.lowerBound)
            guard connectionString[separator] == "?" || connectionString[separator] == "&" else { continue }
            let valueEnd = connectionString[found.upperBound...].firstIndex(of: "&") ?? connectionString.endIndex
            guard let mode = PoolMode(rawValue: String(connectionString[found.upperBound..<valueEnd])) else {
                throw PostgresError(
                    message: "the database URL's pool_mode must be session or transaction", isConnectionFailure: true)
            }
            // `?pool_mode=x&next=y` → `?next=y`; `?pool_mode=x` → ``; `&pool_mode=x` → ``.
            let removed: Range<String.Index> =
                connectionString[separator] == "?" && valueEnd < connectionString.endIndex
                ? found.lowerBound..<connectionString.index(after: valueEnd)
                : separator..<valueEnd
            var stripped = connectionString
            stripped.removeSubrange(removed)
            return (stripped, mode)
        }
        return (connectionString, .session)
    }

    private static func isPlainUserCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~%".unicodeScalars.contains(scalar))
    }

    /// Where the value of the first `password` or `sslpassword` parameter starts: after a `?` or `&`, a name (up to
    /// `=`, without `&?#@/`) that reads as one of them once percent-decoded.
    private static func firstPasswordParameterValue(in text: Substring) -> String.Index? {
        var index = text.startIndex
        while let separator = text[index...].firstIndex(where: { $0 == "?" || $0 == "&" }) {
            let nameStart = text.index(after: separator)
            let name = text[nameStart...].prefix { !"=&?#@/".contains($0) }
            if name.endIndex < text.endIndex, text[name.endIndex] == "=", isPasswordKeyword(percentDecoded(name)) {
                return text.index(after: name.endIndex)
            }
            index = nameStart
        }
        return nil
    }

    /// `text` with each stretch that `ranges` cover (they may overlap) replaced by one `***`.
    private static func replacing(_ ranges: [Range<String.Index>], in text: Substring) -> String {
        var shown = ""
        var position = text.startIndex
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound >= position {
                shown += text[position..<range.lowerBound] + "***"
            } else if range.upperBound <= position {
                continue
            }
            position = range.upperBound
        }
        return shown + text[position...]
    }

    /// A keyword/value string with its password values hidden; once it stops parsing, the rest is hidden too.
    private static func maskedKeywordValues(_ text: String) -> String {
        var scanner = KeywordValueScanner(text)
        var shown = ""
        while let pair = scanner.next() {
            shown += pair.leading
            shown += isPasswordKeyword(pair.keyword) ? text[pair.keywordAndEquals] + "***" : text[pair.whole]
        }
        if !scanner.atEnd { shown += "***" }
        return shown + scanner.trailingSpace
    }

    /// libpq's keywords that hold secrets: the password, and the passphrase of the client certificate's key.
    private static func isPasswordKeyword(_ keyword: String) -> Bool {
        ["password", "sslpassword"].contains(keyword.lowercased())
    }

    /// `%XX` escapes decoded (as libpq decodes a URI's parameter names); invalid escapes are kept as they are.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            let byte = text.utf8[index]
            let next = text.utf8.index(after: index)
            if byte == UInt8(ascii: "%"), text.utf8.distance(from: next, to: text.utf8.endIndex) >= 2,
               let value = UInt8(String(decoding: text.utf8[next..<text.utf8.index(next, offsetBy: 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = text.utf8.index(next, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = next
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// libpq's explanation of a connection that failed, as errors may carry it: the `connection to server at
    /// "host" (address), port N failed:` lead-in becomes `connection to the server failed:`, every line's quoted
    /// part (from its first `"` to its last) becomes `"***"`, and `password` (as libpq read it) is replaced by
    /// `***` wherever else it might appear. A password with an unencoded `@` or `/` is misread by libpq, which then
    /// quotes pieces of it as a host, port, user or database name; none of these are repeated.
    static func maskedFailure(_ message: String, password: String?) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var line = String(line)
            if line.hasPrefix("connection to server "), let failed = line.firstRange(of: " failed: ") {
                line = "connection to the server failed: " + line[failed.upperBound...]
            }
            guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\"") else { return line }
            return line[..<first] + "\"***\"" + (first == last ? "" : line[line.index(after: last)...])
        }
        let text = lines.joined(separator: "\n")
        guard let password, !password.isEmpty else { return text }
        return text.replacing(password, with: "***")
    }
}

/// Reads a libpq keyword/value connection string (`host=db port=5432 password='a b\'c'`) a pair at a time, as
/// libpq's `conninfo_parse` does: a keyword, `=` (spaces around it allowed), then a value that is either
/// single-quoted (with `\` escapes) or runs to the next space.
private struct KeywordValueScanner {
    struct Pair {
        /// The spaces before the pair.
        var leading: Substring
        var keyword: String
        /// From the keyword through the `=` and the spaces after it.
        var keywordAndEquals: Range<String.Index>
        var whole: Range<String.Index>
    }

    private let text: String
    private var position: String.Index
    private(set) var trailingSpace: Substring = ""

    init(_ text: String) {
        self.text = text
        position = text.startIndex
    }

    var atEnd: Bool { position == text.endIndex }

    /// The next pair, or nil at the end or where the text is not a pair (then `atEnd` is false).
    mutating func next() -> Pair? {
        let spaceStart = position
        skipSpaces()
        guard position < text.endIndex else {
            trailingSpace = text[spaceStart...]
            return nil
        }
        let keywordStart = position
        while position < text.endIndex, text[position] != "=", !text[position].isWhitespace { position = text.index(after: position) }
        let keyword = String(text[keywordStart..<position])
        skipSpaces()
        guard !keyword.isEmpty, position < text.endIndex, text[position] == "=" else { return failed(at: spaceStart) }
        position = text.index(after: position)
        skipSpaces()
        let valueStart = position
        let quoted = position < text.endIndex && text[position] == "'"
        if quoted { position = text.index(after: position) }
        while position < text.endIndex {
            let character = text[position]
            if character == "\\" {
                position = text.index(after: position)
                guard position < text.endIndex else { return failed(at: spaceStart) }
            } else if quoted ? character == "'" : character.isWhitespace {
                break
            }
            position = text.index(after: position)
        }
        if quoted {
            guard position < text.endIndex else { return failed(at: spaceStart) }
            position = text.index(after: position)
        }
        return Pair(
            leading: text[spaceStart..<keywordStart], keyword: keyword, keywordAndEquals: keywordStart..<valueStart,
            whole: keywordStart..<position)
    }

    private mutating func failed(at start: String.Index) -> Pair? {
        position = start
        return nil
    }

    private mutating func skipSpaces() {
        while position < text.endIndex, text[position].isWhitespace { position = text.index(after: position) }
    }
}

/// The password in a libpq connection URI or keyword/value string, or `nil` if it sets none.
///
/// - Throws: `PostgresError` (a connection failure) if libpq cannot parse the string. libpq's own explanation is
///   left out: it quotes the part it could not parse, which may be the password.
func passwordInConnectionString(_ connectionString: String) throws -> String? {
    var errorMessage: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(connectionString, &errorMessage) else {
        PQfreemem(errorMessage)
        throw PostgresError(
            message: "the database connection string is not a valid libpq URI or keyword/value string "
                + "(libpq's explanation is left out because it may quote the password)",
            isConnectionFailure: true)
    }
    defer { PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
        if String(cString: keyword) == "password", let value = option.pointee.val {
            return String(cString: value)
        }
        option += 1
    }
    return nil
}
