import Foundation
import HearthCore
import HearthProtocol

/// `hearth users export [--out FILE]`: every account in the JSON shape of `firebase auth:export`
/// (`{"users":[…]}`, one user per line), written page by page so that memory stays flat however many users
/// there are. A file is written owner-only (it holds personal data) under a temporary name, and takes its
/// name only once complete. TOTP factors are left out: their secrets never leave the server. `passwordHash` is
/// the stored hash (Argon2id PHC, or an imported hash not yet rehashed at a sign-in) in standard base64, as
/// Firebase's exports carry hashes; `hearth users import` takes it back without hash options.
struct UsersExport {
    let admin: AdminService

    func run(out path: String?) throws {
        let output = try path.map { try ExportFile(path: $0) }
        let sink = output?.handle ?? FileHandle.standardOutput
        let progress = TerminalProgress(verb: "exported")
        var (count, skippedFactors) = (0, 0)
        var token: String?
        do {
            try sink.write(contentsOf: Data("{\"users\": [\n".utf8))
            repeat {
                let page = try admin.batchGet(
                    BatchGetRequest(maxResults: Int64(AdminService.maximumBatch), nextPageToken: token),
                    encodePasswordHash: { Data($0.utf8).base64EncodedString() })
                var text = ""
                for record in page.users {
                    let user = ExportedUser(record)
                    skippedFactors += (record.mfaInfo?.count ?? 0) - (user.mfaInfo?.count ?? 0)
                    text += (count == 0 ? "" : ",\n") + user.json
                    count += 1
                }
                try sink.write(contentsOf: Data(text.utf8))
                progress.update(count)
                token = page.nextPageToken
            } while token != nil
            try sink.write(contentsOf: Data("\n]}\n".utf8))
            try output?.finish()
        } catch {
            output?.discard()
            throw StartupError("export failed after \(count) users: \((error as? StartupError)?.message ?? "\(error)")")
        }
        progress.finish()
        let summary = "Exported \(count) users" + (path.map { " to \($0) (mode 0600)" } ?? "") + "."
        let note = skippedFactors == 0 ? "" : " \(skippedFactors) TOTP factors were left out: their users enroll again after an import."
        if path == nil { printNote(summary + note) } else { print(summary + note) }
    }
}

/// One user as `firebase auth:export` writes it: `lastLoginAt` is `lastSignedInAt`, timestamps are
/// millisecond strings, `providerUserInfo` holds the federated providers only (password and phone follow
/// from the account), and `mfaInfo` the phone factors.
struct ExportedUser: Encodable {
    struct Provider: Encodable {
        var providerId: String
        var rawId: String?
        var email: String?
        var displayName: String?
        var photoUrl: String?
    }

    struct Factor: Encodable {
        var mfaEnrollmentId: String
        var displayName: String?
        var phoneInfo: String
        var enrolledAt: String?
    }

    var localId: String
    var email: String?
    var emailVerified: Bool
    var passwordHash: String?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var disabled: Bool?
    var customAttributes: String?
    var providerUserInfo: [Provider]?
    var mfaInfo: [Factor]?
    var createdAt: String?
    var lastSignedInAt: String?

    init(_ record: UserRecord) {
        localId = record.localId
        email = record.email
        emailVerified = record.emailVerified ?? false
        passwordHash = record.passwordHash
        displayName = record.displayName
        photoUrl = record.photoUrl
        phoneNumber = record.phoneNumber
        disabled = record.disabled
        customAttributes = record.customAttributes
        let providers = (record.providerUserInfo ?? []).filter { $0.providerId != "password" && $0.providerId != "phone" }
        providerUserInfo = providers.isEmpty ? nil : providers.map {
            Provider(providerId: $0.providerId, rawId: $0.rawId, email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
        }
        let factors = (record.mfaInfo ?? []).compactMap { factor in
            factor.phoneInfo.map {
                Factor(mfaEnrollmentId: factor.mfaEnrollmentId, displayName: factor.displayName, phoneInfo: $0, enrolledAt: factor.enrolledAt)
            }
        }
        mfaInfo = factors.isEmpty ? nil : factors
        createdAt = record.createdAt
        lastSignedInAt = record.lastLoginAt
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The file an export is written to: created owner-only (0600) beside `path` under a temporary name, and
/// renamed to `path` when complete, so that a failed export never leaves a file that looks whole.
struct ExportFile {
    let path: String
    let temporaryPath: String
    let handle: FileHandle

    init(path: String) throws {
        self.path = path
        temporaryPath = path + ".partial-\(getpid())"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else {
            throw StartupError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    func finish() throws {
        try handle.synchronize()
        try handle.close()
        guard rename(temporaryPath, path) == 0 else {
            throw StartupError("cannot rename \(temporaryPath) to \(path): \(String(cString: strerror(errno)))")
        }
    }

    func discard() {
        try? handle.close()
        unlink(temporaryPath)
    }
}
