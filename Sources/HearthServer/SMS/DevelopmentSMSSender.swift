public import HearthCore

/// One code the development sender delivered, as `GET /emulator/v1/projects/{p}/verificationCodes` lists it.
public struct DeliveredCode: Sendable, Equatable, Codable {
    public var phoneNumber: String
    public var code: String
    public var sessionInfo: String

    public init(phoneNumber: String, code: String, sessionInfo: String) {
        self.phoneNumber = phoneNumber
        self.code = code
        self.sessionInfo = sessionInfo
    }
}

/// The `--dev` sender: nothing leaves the machine. Like the Firebase emulator it prints one log line per code,
/// `To verify +15555550100, use the code 123456.`, and keeps the most recent `capacity` codes so the emulator
/// route can list them.
///
/// With `IssuedOOBCodes` (email action codes), the one place Hearth logs codes (and full phone numbers), on purpose;
/// never use it outside `--dev`.
public final class DevelopmentSMSSender: SMSSender {
    private let log: @Sendable (String) -> Void
    private let codes: RecentItems<DeliveredCode>

    /// - Parameters:
    ///   - log: receives one line per message.
    ///   - capacity: how many codes are kept; the oldest are dropped first.
    public init(log: @escaping @Sendable (String) -> Void, capacity: Int = 1000) {
        self.log = log
        codes = RecentItems(capacity: capacity)
    }

    /// Records the code and logs it; never throws.
    public func send(_ message: SMSMessage) throws {
        let delivered = DeliveredCode(
            phoneNumber: message.phoneNumber, code: message.code, sessionInfo: message.sessionInfo)
        codes.append(delivered)
        log("To verify \(message.phoneNumber), use the code \(message.code).")
    }

    /// Codes sent, oldest first.
    public var deliveredCodes: [DeliveredCode] {
        codes.all
    }

    /// Forgets the codes sent for `sessionInfo` (the emulator lists a code only until it is used).
    public func removeCodes(forSessionInfo sessionInfo: String) {
        codes.removeAll { $0.sessionInfo == sessionInfo }
    }
}
