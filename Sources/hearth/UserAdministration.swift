import Foundation
import HearthCommandLine
import HearthCore
import HearthProtocol

/// The `hearth users` actions on single accounts and the listing, each a call of the admin service as the command
/// line's operator (``Caller/commandLine``), printed for an operator.
struct UserAdministration {
    let platform: IdentityPlatform
    let options: ParsedOptions

    private var admin: AdminService { platform.admin }

    // MARK: - show, disable, enable, revoke, delete

    func accountAction(_ action: UsersCommand.Action, localID: String) throws {
        try refusingUnknown(uid: localID) {
            switch action {
            case .show:
                printRecord(try admin.userRecord(localID: localID))
            case .disable:
                try admin.setDisabled(localID: localID, true, by: .commandLine)
                print("Disabled \(localID): it can no longer sign in or refresh tokens.")
            case .enable:
                try admin.setDisabled(localID: localID, false, by: .commandLine)
                print("Enabled \(localID).")
            case .revoke:
                try admin.revokeSessions(localID: localID, by: .commandLine)
                print("Revoked every session of \(localID): its refresh tokens now answer TOKEN_EXPIRED.")
            default:
                _ = try admin.delete(
                    AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(localID)])), by: .commandLine)
                print("Deleted \(localID).")
            }
        }
    }

    // MARK: - list

    /// Pages through every account by uid (1,000 at a time), printing each page as it is read.
    func list() throws {
        var remaining = options.values["limit"].flatMap { Int($0) } ?? Int.max
        let json = options.flags.contains("json")
        let table = UserTable()
        if !json { writeOut(table.header) }
        var token: String?
        repeat {
            let page = try admin.batchGet(
                BatchGetRequest(maxResults: Int64(min(remaining, AdminService.maximumBatch)), nextPageToken: token))
            let users = page.users.prefix(remaining)
            writeOut(users.map { json ? compactJSON($0) : table.row($0) }.joined())
            remaining -= users.count
            token = page.nextPageToken
        } while token != nil && remaining > 0
    }

    // MARK: - find

    func find() throws {
        let email = options.values["email"]
        let phone = options.values["phone"]
        let request = AdminLookupRequest(email: email.map { [$0] } ?? [], phoneNumber: phone.map { [$0] } ?? [])
        guard let record = try admin.lookup(request).users?.first else {
            throw StartupError(email.map { "no user with email \($0)" } ?? "no user with phone number \(phone ?? "")")
        }
        printRecord(record)
    }

    // MARK: - create

    /// Prints the new account's uid alone, for scripts.
    func create() throws {
        var request = AdminCreateAccountRequest()
        request.localId = options.values["uid"]
        request.email = options.values["email"]
        request.phoneNumber = options.values["phone"]
        request.displayName = options.values["name"]
        request.photoUrl = options.values["photo"]
        request.emailVerified = options.flags.contains("email-verified") ? true : nil
        request.disabled = options.flags.contains("disabled") ? true : nil
        let created = try refused("cannot create the user") { try admin.create(request, by: .commandLine) }
        print(created.localId)
    }

    // MARK: - set-claims

    func setClaims(localID: String, claims: String) throws {
        var request = AdminUpdateAccountRequest(localId: localID)
        request.customAttributes = claims
        try refusingUnknown(uid: localID) {
            _ = try refused("cannot set the custom claims") { try admin.update(request, by: .commandLine) }
        }
        let cleared = (try? JSONValue(parsing: Data(claims.utf8)))?.objectValue?.isEmpty == true
        print(
            cleared
                ? "Cleared the custom claims of \(localID); ID tokens drop them from the user's next token refresh."
                : "Set the custom claims of \(localID); ID tokens carry them from the user's next token refresh.")
    }

    // MARK: - remove-factor

    /// Removes one second factor, in one store write (`AdminService.removeSecondFactor`).
    func removeFactor(localID: String, enrollmentID: String) throws {
        var result: (removed: MFAEnrollment, remaining: Int)?
        try refusingUnknown(uid: localID) {
            do {
                result = try admin.removeSecondFactor(localID: localID, enrollmentID: enrollmentID, by: .commandLine)
            } catch let error as WireError where error.code == .mfaEnrollmentNotFound {
                throw StartupError(error.detail ?? error.message)
            }
        }
        guard let result else { return }
        let kind = result.removed.phoneNumber.map { "phone \($0)" } ?? "TOTP"
        print("Removed second factor \(enrollmentID) (\(kind)) from \(localID); \(result.remaining) remain.")
    }

    // MARK: - output

    private func printRecord(_ record: UserRecord) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: (try? encoder.encode(record)) ?? Data(), as: UTF8.self))
    }

    private func compactJSON(_ record: UserRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(record)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// Writes a page of output in one go (stdout is a pipe for a million users, not a line at a time).
    private func writeOut(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// `body`, with `USER_NOT_FOUND` said as the operator asked.
    private func refusingUnknown(uid localID: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as WireError where error.code == .userNotFound {
            throw StartupError("no user with uid \(localID)")
        }
    }

    /// `body`'s value; a refusal by the account rules (exit 1) names Firebase's code: `FORBIDDEN_CLAIM : iss`.
    private func refused<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WireError where error.code != .userNotFound {
            throw StartupError("\(what): \(error.message)")
        }
    }
}

/// `users list`'s table: fixed columns, so that pages printed as they are read line up.
struct UserTable {
    private let widths = [30, 32, 17, 22, 10]

    var header: String { line(["UID", "EMAIL", "PHONE", "PROVIDERS", "DISABLED", "CREATED (UTC)"]) }

    func row(_ record: UserRecord) -> String {
        let providers = (record.providerUserInfo ?? []).map(\.providerId).joined(separator: ",")
        let created = record.createdAt.flatMap(Int64.init).map(Self.timestamp) ?? ""
        return line([
            record.localId, record.email ?? "", record.phoneNumber ?? "", providers,
            record.disabled == true ? "yes" : "no", created,
        ])
    }

    /// Each cell padded to its column, or followed by two spaces when longer (never cut short).
    private func line(_ cells: [String]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            guard index < widths.count else {
                text += cell
                continue
            }
            text += cell.count + 2 > widths[index] ? cell + "  " : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }
        return text + "\n"
    }

    private static func timestamp(_ millis: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(millis) / 1000)
            .formatted(Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: false))
    }
}
