public import Foundation
public import HearthCore
public import HearthOutbound
public import HearthProtocol

/// Sends through Twilio's Messages API, or any gateway that speaks it:
///
/// ```
/// POST {baseURL}/2010-04-01/Accounts/{accountSID}/Messages.json
/// Authorization: Basic base64(accountSID:authToken)
/// Content-Type: application/x-www-form-urlencoded
///
/// To=%2B15555550100&From=%2B15555550199&Body=123456+is+your+…      (or MessagingServiceSid=MG… instead of From)
/// ```
///
/// `from` is a sender number (`+1…`), an alphanumeric sender ID, or a Messaging Service SID (`MG` and 32 hex
/// digits), which is sent as `MessagingServiceSid`. Any 2xx (Twilio answers 201) is success. Network errors, 429
/// and 5xx are retried with exponential backoff up to `maxAttempts` requests; other statuses fail at once with
/// ``SMSDeliveryError``, which carries Twilio's numeric error `code` when the answer has one.
public final class TwilioSMSSender: SMSSender {
    /// The Messages resource every message is POSTed to.
    public let messagesURL: URL
    private let authorization: String
    private let fromField: (name: String, value: String)
    private let attempts: DeliveryAttempts

    /// - Parameters:
    ///   - baseURL: `https://api.twilio.com`, or a Twilio-compatible gateway (a path prefix is kept).
    ///   - accountSID: the account (`AC…`); also the Basic-auth user name.
    ///   - authToken: the account's auth token, the Basic-auth password.
    ///   - from: the sender number, alphanumeric sender ID, or Messaging Service SID.
    ///   - maxAttempts, initialBackoff, http, sleep: as for ``WebhookSMSSender``.
    public init(
        baseURL: URL = URL(string: "https://api.twilio.com")!, accountSID: String, authToken: String, from: String,
        maxAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500),
        http: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10), sleep: @escaping @Sendable (Duration) -> Void = blockingSleep
    ) {
        messagesURL = Self.messagesURL(baseURL: baseURL, accountSID: accountSID)
        authorization = "Basic " + Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
        fromField = Self.isMessagingServiceSID(from) ? ("MessagingServiceSid", from) : ("From", from)
        var attempts = DeliveryAttempts(
            maxAttempts: maxAttempts, initialBackoff: initialBackoff, http: http, sleep: sleep)
        attempts.providerErrorCode = Self.twilioErrorCode
        self.attempts = attempts
    }

    public func send(_ message: SMSMessage) throws {
        let form = FormEncoding.encode([("To", message.phoneNumber), fromField, ("Body", message.text)])
        let headers = [
            "Authorization": authorization,
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        ]
        if let failed = attempts.post(messagesURL, headers: headers, body: Data(form.utf8)) {
            throw SMSDeliveryError(sender: .twilio, url: messagesURL, phoneNumber: message.phoneNumber, failed: failed)
        }
    }

    static func messagesURL(baseURL: URL, accountSID: String) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            preconditionFailure("TwilioSMSSender: base URL cannot be parsed")
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path + "/2010-04-01/Accounts/" + FormEncoding.escape(accountSID) + "/Messages.json"
        guard let url = components.url else { preconditionFailure("TwilioSMSSender: cannot build the Messages URL") }
        return url
    }

    /// `MG` followed by 32 hexadecimal digits.
    static func isMessagingServiceSID(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count == 34, bytes[0] == UInt8(ascii: "M"), bytes[1] == UInt8(ascii: "G") else { return false }
        return bytes.dropFirst(2).allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }

    /// Twilio's error bodies look like `{"code": 21211, "message": "…", "more_info": "…", "status": 400}`; only the
    /// number is kept (the message may quote the phone number).
    @Sendable static func twilioErrorCode(_ body: Data) -> Int? {
        guard let value = try? JSONValue(parsing: body), case .integer(let code)? = value["code"] else { return nil }
        return Int(exactly: code)
    }
}
