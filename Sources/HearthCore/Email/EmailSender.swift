/// One email Hearth sends: an action link (verify, reset, sign in, change or recover an email).
public struct EmailMessage: Sendable, Equatable {
    public var to: String
    public var subject: String
    /// Plain text body.
    public var text: String
    /// HTML body, when the template has one.
    public var html: String?
    /// What the email is for, for a sender that renders its own (the webhook's structured fields).
    public var action: EmailAction?

    public init(to: String, subject: String, text: String, html: String? = nil, action: EmailAction? = nil) {
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.action = action
    }
}

/// The action an email carries: its kind (`requestType`: `PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN`,
/// `VERIFY_AND_CHANGE_EMAIL`, `RECOVER_EMAIL`), the one-time code and the link holding it, the locale the request
/// asked for (`X-Firebase-Locale`, when it gave one) and the new address of an email change.
public struct EmailAction: Sendable, Equatable {
    public var kind: String
    public var code: String
    public var link: String
    public var locale: String?
    public var newEmail: String?

    public init(kind: String, code: String, link: String, locale: String? = nil, newEmail: String? = nil) {
        self.kind = kind
        self.code = code
        self.link = link
        self.locale = locale
        self.newEmail = newEmail
    }
}

/// Delivers emails (SMTP, a signed webhook, or the development log). Called after the write that made
/// the code has committed; throws when delivery failed for good (after its own retries).
public protocol EmailSender: Sendable {
    func send(_ message: EmailMessage) throws
}

/// The sender of a server with no email delivery configured: every send fails, so that actions needing
/// an email are refused instead of silently lost.
public struct UnavailableEmailSender: EmailSender {
    public init() {}

    public func send(_ message: EmailMessage) throws {
        throw EmailDeliveryError.notConfigured
    }
}

/// Why an email was not delivered. Never carries the message body (it holds a code).
public enum EmailDeliveryError: Error, Equatable, Sendable {
    case notConfigured
    /// The server or endpoint refused it, or could not be reached after the retries.
    case failed(reason: String)
}
