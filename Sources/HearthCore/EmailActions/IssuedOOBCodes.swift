import Synchronization

/// One code as `GET /emulator/v1/projects/{p}/oobCodes` lists it.
public struct IssuedOOBCode: Sendable, Equatable, Codable {
    public var email: String
    public var newEmail: String?
    public var requestType: String
    public var oobCode: String
    public var oobLink: String

    public init(email: String, newEmail: String?, requestType: String, oobCode: String, oobLink: String) {
        self.email = email
        self.newEmail = newEmail
        self.requestType = requestType
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}

/// The `--dev` record of the codes Hearth issued, in plain text and in this process's memory only (the store keeps
/// hashes): like the Firebase emulator, it prints one log line per code and keeps the latest `capacity` for the
/// emulator's listing. This and the development SMS sender are the only places Hearth logs codes, on purpose;
/// never use it outside `--dev`.
public final class IssuedOOBCodes: Sendable {
    private let log: @Sendable (String) -> Void
    private let capacity: Int
    private let codes = Mutex<[IssuedOOBCode]>([])

    /// - Parameters:
    ///   - log: receives one line per code.
    ///   - capacity: how many codes are kept; the oldest are dropped first.
    public init(log: @escaping @Sendable (String) -> Void, capacity: Int = 1000) {
        self.log = log
        self.capacity = max(0, capacity)
    }

    func record(_ code: IssuedOOBCode) {
        codes.withLock { codes in
            codes.append(code)
            if codes.count > capacity { codes.removeFirst(codes.count - capacity) }
        }
        log("To \(Self.action(code.requestType)) \(code.email), follow this link: \(code.oobLink)")
    }

    /// Codes issued, oldest first (the caller drops those used or expired).
    public var issued: [IssuedOOBCode] { codes.withLock { $0 } }

    private static func action(_ requestType: String) -> String {
        switch requestType {
        case "PASSWORD_RESET": "reset the password for"
        case "VERIFY_EMAIL": "verify the email address"
        case "EMAIL_SIGNIN": "sign in as"
        case "VERIFY_AND_CHANGE_EMAIL": "verify and change the email of"
        default: "recover the email of"
        }
    }
}
