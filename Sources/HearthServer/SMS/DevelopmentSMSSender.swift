public import HearthCore
import Synchronization

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
/// This is the one place Hearth logs codes (and full phone numbers), on purpose; never use it outside `--dev`.
public final class DevelopmentSMSSender: SMSSender {
    private let log: @Sendable (String) -> Void
    private let capacity: Int
    private let codes = Mutex<[DeliveredCode]>([])

    /// - Parameters:
    ///   - log: receives one line per message.
    ///   - capacity: how many codes are kept; the oldest are dropped first.
    public init(log: @escaping @Sendable (String) -> Void, capacity: Int = 1000) {
        self.log = log
        self.capacity = max(0, capacity)
    }

    /// Records the code and logs it; never throws.
    public func send(_ message: SMSMessage) throws {
        let delivered = DeliveredCode(
            phoneNumber: message.phoneNumber, code: message.code, sessionInfo: message.sessionInfo)
        codes.withLock { codes in
            codes.append(delivered)
            if codes.count > capacity { codes.removeFirst(codes.count - capacity) }
        }
        log("To verify \(message.phoneNumber), use the code \(message.code).")
    }

    /// Codes sent, oldest first.
    public var deliveredCodes: [DeliveredCode] {
        codes.withLock { $0 }
    }

    /// Forgets the codes sent for `sessionInfo` (the emulator lists a code only until it is used).
    public func removeCodes(forSessionInfo sessionInfo: String) {
        codes.withLock { $0.removeAll { $0.sessionInfo == sessionInfo } }
    }
}
