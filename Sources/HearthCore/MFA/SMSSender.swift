/// Delivers SMS verification codes. Implementations: the development log sender (codes readable over
/// REST), a webhook that POSTs JSON, and a Twilio-compatible REST sender (in HearthServer).
public protocol SMSSender: Sendable {
    /// Sends one message; throws if it could not be handed over (after the sender's own retries).
    func send(_ message: SMSMessage) throws
}

/// One verification code on its way to a phone.
public struct SMSMessage: Sendable, Equatable {
    public enum Purpose: String, Sendable {
        case enrollment
        case signIn = "sign-in"
    }

    /// E.164, e.g. `+15555550100`.
    public var phoneNumber: String
    /// Six digits.
    public var code: String
    /// The human text, e.g. `123456 is your verification code for demo-hearth.`
    public var text: String
    public var purpose: Purpose
    /// The `sessionInfo` the code belongs to (the development sender lists codes by it).
    public var sessionInfo: String

    public init(phoneNumber: String, code: String, text: String, purpose: Purpose, sessionInfo: String) {
        self.phoneNumber = phoneNumber
        self.code = code
        self.text = text
        self.purpose = purpose
        self.sessionInfo = sessionInfo
    }
}

/// The sender used when none is configured: every send fails, so phone factors cannot be used.
public struct UnavailableSMSSender: SMSSender {
    public struct NotConfigured: Error {}

    public init() {}

    public func send(_ message: SMSMessage) throws { throw NotConfigured() }
}
