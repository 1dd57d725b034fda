import Foundation
import HearthCore

/// An SMS could not be handed to the gateway, after the sender's retries.
///
/// It names the sender, the gateway's host, the masked phone number (`+*******0100`), the last failure and the
/// number of attempts; never the code, the message text, a token or a secret, so it can be logged as is.
public struct SMSDeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Sender: String, Sendable {
        case webhook
        case twilio
    }

    public typealias Failure = HTTPDeliveryFailure

    public var sender: Sender
    /// The host the sender posts to (never the path or query, which may carry credentials).
    public var host: String
    /// The recipient with all but the last four digits hidden.
    public var maskedPhoneNumber: String
    /// The last attempt's failure.
    public var failure: Failure
    /// How many requests were made.
    public var attempts: Int
    /// The gateway's own numeric error code when it gave one (Twilio's `code`, e.g. 21211 for an invalid `To`).
    public var providerErrorCode: Int?

    public init(
        sender: Sender, host: String, maskedPhoneNumber: String, failure: Failure, attempts: Int,
        providerErrorCode: Int? = nil
    ) {
        self.sender = sender
        self.host = host
        self.maskedPhoneNumber = maskedPhoneNumber
        self.failure = failure
        self.attempts = attempts
        self.providerErrorCode = providerErrorCode
    }

    /// The error for a POST to `url` for `phoneNumber` that ``DeliveryAttempts`` gave up on.
    init(sender: Sender, url: URL, phoneNumber: String, failed: DeliveryAttempts.Failed) {
        self.init(
            sender: sender, host: url.host ?? "?", maskedPhoneNumber: PhoneNumbers.masked(phoneNumber),
            failure: failed.failure, attempts: failed.attempts, providerErrorCode: failed.providerErrorCode)
    }

    public var description: String {
        let reason = failure.describe(providerErrorCode: providerErrorCode, sender: sender.rawValue)
        return "\(sender.rawValue) SMS delivery to \(maskedPhoneNumber) via \(host) failed after "
            + "\(RetrySchedule.describe(attempts: attempts)): \(reason)"
    }
}
