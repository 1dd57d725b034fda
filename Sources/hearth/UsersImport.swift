import Foundation
import HearthCommandLine
import HearthCore
import HearthProtocol

/// `hearth users import FILE.json`: the users of a `firebase auth:export` JSON file (or of
/// `hearth users export`), read one at a time and imported through `accounts:batchCreate`'s rules in chunks
/// of 1,000, their password hashes made as the `firebase auth:import` options say (`--hash-algo` …; none for
/// Hearth's own export). Existing uids are not overwritten. Each row that is not imported is reported on stderr by its
/// index in the file's `users` array, its uid and the reason; then a summary line, and exit status 1 if any
/// row failed.
struct UsersImport {
    let admin: AdminService
    let hashOptions: PasswordHashOptions

    /// `firebase auth:import`'s hash options.
    static let hashOptionNames: Set<String> = [
        "hash-algo", "hash-key", "salt-separator", "rounds", "mem-cost", "parallelization", "block-size", "dk-len",
        "hash-input-order",
    ]

    /// The request's hash options from `firebase auth:import`'s flags, checked as `accounts:batchCreate` checks them.
    static func hashOptions(from options: ParsedOptions) throws -> PasswordHashOptions {
        let values = options.values
        func number(_ name: String) throws -> Int64? {
            guard let text = values[name] else { return nil }
            guard let value = Int64(text) else { throw UsageError("--\(name) must be a whole number") }
            return value
        }
        var order: String?
        switch values["hash-input-order"]?.uppercased() {
        case nil: break
        case "SALT_FIRST": order = "SALT_AND_PASSWORD"
        case "PASSWORD_FIRST": order = "PASSWORD_AND_SALT"
        default: throw UsageError("--hash-input-order is SALT_FIRST or PASSWORD_FIRST")
        }
        let hashOptions = PasswordHashOptions(
            hashAlgorithm: values["hash-algo"]?.uppercased(), signerKey: values["hash-key"],
            saltSeparator: values["salt-separator"], rounds: try number("rounds"), memoryCost: try number("mem-cost"),
            parallelization: try number("parallelization"), blockSize: try number("block-size"), dkLen: try number("dk-len"),
            passwordHashOrder: order)
        if hashOptions.hashAlgorithm == nil {
            if let stray = hashOptionNames.subtracting(["hash-algo"]).intersection(values.keys).sorted().first {
                throw UsageError("--\(stray) needs --hash-algo")
            }
            return hashOptions
        }
        do {
            _ = try ImportedHashScheme(options: hashOptions)
        } catch {
            throw UsageError(error.message)
        }
        return hashOptions
    }

    /// A row read from the file, by its index in `users`.
    private struct Row {
        let index: Int
        let user: ImportedUser
    }

    func run(path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StartupError("cannot read \(path): it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StartupError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        var reader = JSONArrayReader(handle: handle, member: "users")
        let progress = TerminalProgress(verb: "imported")
        var (read, imported, chunk) = (0, 0, [Row]())
        var chunkIDs = Set<String>()
        func flush() throws {
            guard !chunk.isEmpty else { return }
            imported += try importChunk(chunk)
            progress.update(imported)
            chunk.removeAll(keepingCapacity: true)
            chunkIDs.removeAll(keepingCapacity: true)
        }
        do {
            while let element = try reader.next() {
                defer { read += 1 }
                let user: ImportedUser
                do {
                    user = try Self.importedUser(element)
                } catch let error as RowError {
                    report(index: read, uid: error.uid, error.message)
                    continue
                }
                // batchCreate refuses a whole request whose rows share a uid: such a row is reported alone.
                guard let localID = user.localId, chunkIDs.insert(localID).inserted else {
                    report(index: read, uid: user.localId, user.localId == nil ? "localId is missing" : "localId repeats an earlier row")
                    continue
                }
                chunk.append(Row(index: read, user: user))
                if chunk.count == AdminService.maximumBatch { try flush() }
            }
            try flush()
        } catch let failure as JSONArrayReader.Failure {
            progress.finish()
            throw StartupError(
                "\(path) is not a users export ({\"users\": [ … ]}): \(failure.reason) at byte \(failure.offset); "
                    + "\(imported) users were imported before it")
        }
        progress.finish()
        print("Imported \(imported) of \(read) users from \(path).")
        if imported < read { throw StartupError("\(read - imported) users were not imported (listed above)") }
    }

    /// Imports one chunk; returns how many rows were imported, reporting the others.
    private func importChunk(_ rows: [Row]) throws -> Int {
        let response: BatchCreateResponse
        do {
            response = try admin.batchCreate(
                BatchCreateRequest(users: rows.map(\.user), hashOptions: hashOptions), by: .commandLine)
        } catch let error as WireError {
            for row in rows { report(index: row.index, uid: row.user.localId, error.message) }
            return 0
        }
        for failure in response.error where rows.indices.contains(failure.index) {
            let row = rows[failure.index]
            report(index: row.index, uid: row.user.localId, failure.message)
        }
        return rows.count - response.error.count
    }

    private func report(index: Int, uid: String?, _ message: String) {
        printNote("users[\(index)]" + (uid.map { " uid \($0)" } ?? "") + ": \(message)")
    }

    /// Why a row could not be read; `uid` when the row names one.
    private struct RowError: Error {
        let uid: String?
        let message: String
    }

    /// A row of the file as `batchCreate` takes it: `lastSignedInAt` (the export's name) is `lastLoginAt`.
    private static func importedUser(_ element: [UInt8]) throws -> ImportedUser {
        guard case .object(var object)? = try? JSONValue(parsing: element) else {
            throw RowError(uid: nil, message: "not a JSON object")
        }
        if object["lastLoginAt"] == nil, let lastSignedIn = object.removeValue(forKey: "lastSignedInAt") {
            object["lastLoginAt"] = lastSignedIn
        }
        do {
            return try ImportedUser(fields: RequestFields(object))
        } catch {
            throw RowError(uid: object["localId"]?.stringValue, message: error.message)
        }
    }
}
