internal import CMicroHTTPD
import Glibc

/// Whether a request's head — its request line and header fields — is written exactly as RFC 9112 says, so that no
/// proxy in front of the server can read its lines differently from libmicrohttpd.
///
/// libmicrohttpd 0.9.75 ends a line at a bare LF as well as at CR LF, keeps a bare CR inside a header value, accepts
/// several spaces between the parts of the request line and a space inside the target, and joins folded lines
/// (obs-fold); it has no option to refuse any of these. What it does keep is the head itself: the request line and
/// the fields stay in its read buffer, in order, each NUL-terminated where its CR LF was, and the strings it hands out
/// (method, target, version, each field's name and value) point into that buffer, whose size it reports
/// (`MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`). So the head is strict exactly when those strings follow each other as
/// `method SP target SP version CRLF (name ":" OWS value CRLF)* CRLF` would put them: one space, then each line
/// start two bytes after the previous line's end, and the head's end four bytes after the last line's. Only the
/// addresses are compared and only the strings libmicrohttpd hands out are read; a layout that is not the expected one
/// (another libmicrohttpd, a field it moved, a line it joined) is refused, never read past.
///
/// Also refused: a method that is not a token, a target with a space, a control character or DEL, a field name that
/// is not a token, and a field value with a control character other than HTAB (a bare CR among them).
struct RequestHeadSyntax {
    /// Where the previous line of the head ended (its terminating NUL), while the fields are walked.
    private var lineEnd: UnsafePointer<CChar>
    private var isStrict = true

    /// Checks the head of the request on `connection`, whose request line libmicrohttpd split into `method`, `url`
    /// (where the target starts in the line; its query is cut off) and `version`. `target` is the whole target as the
    /// URI-log callback saw it, `targetLength` its length in bytes.
    static func isStrict(
        connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
        target: String, targetLength: Int
    ) -> Bool {
        guard let info = hearth_mhd_connection_info(connection, .CONNECTION_INFO_REQUEST_HEADER_SIZE) else { return false }
        let methodLength = strlen(method)
        guard methodLength > 0, UnsafeRawBufferPointer(start: method, count: methodLength).allSatisfy(isTokenCharacter),
              url == method + methodLength + 1, target.utf8.allSatisfy(isTargetCharacter), version == url + targetLength + 1
        else { return false }
        var syntax = RequestHeadSyntax(lineEnd: version + strlen(version))
        withUnsafeMutablePointer(to: &syntax) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, hearthCheckFieldLine, pointer)
        }
        return syntax.isStrict && method + info.pointee.header_size == syntax.lineEnd + 4
    }

    /// A field libmicrohttpd handed out without a name or a value.
    mutating func refuse() {
        isStrict = false
    }

    /// The next field line, `name: value`: it must start two bytes (CR LF) after the previous line ended.
    mutating func check(name: UnsafePointer<CChar>, nameLength: Int, value: UnsafePointer<CChar>, valueLength: Int) {
        let nameBytes = UnsafeRawBufferPointer(start: name, count: nameLength)
        let valueBytes = UnsafeRawBufferPointer(start: value, count: valueLength)
        isStrict = isStrict && name == lineEnd + 2 && nameLength > 0 && nameBytes.allSatisfy(isTokenCharacter)
            && value > name + nameLength && valueBytes.allSatisfy(isFieldValueCharacter)
        lineEnd = value + valueLength
    }
}

/// RFC 9110 §5.6.2 `tchar`.
private func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        return true
    default:
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

/// A byte a request target may hold as sent: anything but a space, a control character and DEL (bytes above 0x7F
/// are left to the routes, which decode the path as UTF-8).
private func isTargetCharacter(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte != 0x7F
}

/// A byte of a field value (RFC 9110 §5.5): visible characters, SP, HTAB and obs-text; no CR, LF, NUL or other
/// control character.
private func isFieldValueCharacter(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
}

private func hearthCheckFieldLine(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls else { return .NO }
    let syntax = cls.assumingMemoryBound(to: RequestHeadSyntax.self)
    guard let key, let value else {
        syntax.pointee.refuse()
        return .NO
    }
    syntax.pointee.check(name: key, nameLength: keySize, value: value, valueLength: valueSize)
    return .YES
}
