import CCurl
import Foundation

/// Sends messages to one SMTP server with libcurl's easy interface: one connection per message, from any
/// thread (no signals, no shared handles). Only `smtp` and `smtps` are spoken; proxies from the environment are
/// ignored; the server's certificate is always verified (against `caFile` when set).
public struct SMTPClient: Sendable {
    public let server: SMTPServer

    public init(server: SMTPServer) {
        self.server = server
    }

    /// Hands a message (``MailMessage/rendered()``) to the server for `recipient`, the envelope sender being
    /// `sender` (both plain addresses, as ``MailAddress`` checks them).
    public func send(_ message: [UInt8], from sender: String, to recipient: String) throws(SMTPError) {
        if case .failure(let failure) = CurlLibrary.initialized { throw .failed(curlCode: failure.code) }
        guard let handle = curl_easy_init() else { throw .failed(curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue)) }
        defer { curl_easy_cleanup(handle) }
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }
        let recipients = curl_slist_append(nil, "<\(recipient)>")
        defer { curl_slist_free_all(recipients) }
        guard recipients != nil else { throw .failed(curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue)) }

        let upload = Upload(bytes: message)
        let code = withExtendedLifetime(upload) { () -> CURLcode in
            var options: [CURLcode] = [
                hearth_curl_setopt_string(handle, CURLOPT_URL, server.url),
                hearth_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
                hearth_curl_setopt_string(handle, CURLOPT_PROXY, ""),
                hearth_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
                hearth_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(
                    (server.security == .none ? CURLUSESSL_NONE : CURLUSESSL_ALL).rawValue)),
                hearth_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
                hearth_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
                hearth_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(server.connectTimeout)),
                hearth_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(server.timeout)),
                hearth_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender)>"),
                hearth_curl_setopt_list(handle, CURLOPT_MAIL_RCPT, recipients),
                hearth_curl_setopt_long(handle, CURLOPT_UPLOAD, 1),
                hearth_curl_setopt_read_function(handle, Upload.read),
                hearth_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(upload).toOpaque()),
                hearth_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText),
            ]
            if let caFile = server.caFile { options.append(hearth_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
            if let credentials = server.credentials {
                options.append(hearth_curl_setopt_string(handle, CURLOPT_USERNAME, credentials.username))
                options.append(hearth_curl_setopt_string(handle, CURLOPT_PASSWORD, credentials.password))
            }
            if let failed = options.first(where: { $0 != CURLE_OK }) { return failed }
            return curl_easy_perform(handle)
        }
        guard code != CURLE_OK else { return }
        var reply = 0
        _ = hearth_curl_response_code(handle, &reply)
        throw SMTPError(code, replyCode: reply, detail: String(cString: errorText))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// The message bytes libcurl reads after `DATA` (it adds the dot-stuffing and the final `.`).
private final class Upload {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static let read: curl_read_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let upload = Unmanaged<Upload>.fromOpaque(context).takeUnretainedValue()
        let length = min(size * count, upload.bytes.count - upload.offset)
        upload.bytes.withUnsafeBytes { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + upload.offset, byteCount: length)
        }
        upload.offset += length
        return length
    }
}

/// `curl_global_init`, once per process, before the first handle (a Swift global is initialized once, thread-safely).
private enum CurlLibrary {
    static let initialized: Result<Void, CurlInitFailure> = {
        let code = hearth_curl_global_init()
        return code == CURLE_OK ? .success(()) : .failure(CurlInitFailure(code: Int(code.rawValue)))
    }()
}

private struct CurlInitFailure: Error {
    var code: Int
}

extension SMTPError {
    /// The error for a failed `curl_easy_perform`. `detail` is libcurl's error buffer, read only to tell apart the
    /// refusals libcurl reports with the same code (`MAIL failed: 550`, `RCPT failed: 550`, `DATA failed: 554`).
    init(_ code: CURLcode, replyCode: Int, detail: String) {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT:
            self = .couldNotConnect
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_USE_SSL_FAILED,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE:
            self = .tlsFailure
        case CURLE_LOGIN_DENIED, CURLE_AUTH_ERROR:
            self = .authenticationRefused(replyCode: replyCode)
        case CURLE_SEND_ERROR where detail.hasPrefix("MAIL failed"):
            self = .senderRefused(replyCode: replyCode)
        case CURLE_SEND_ERROR where detail.hasPrefix("RCPT failed"):
            self = .recipientRefused(replyCode: replyCode)
        case CURLE_SEND_ERROR where detail.hasPrefix("DATA failed"):
            self = .messageRefused(replyCode: replyCode)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            self = .connectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_REMOTE_ACCESS_DENIED:
            self = .messageRefused(replyCode: replyCode)
        default:
            self = .failed(curlCode: Int(code.rawValue))
        }
    }
}
