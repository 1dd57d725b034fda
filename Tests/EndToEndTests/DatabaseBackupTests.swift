import Foundation
import Testing

/// `hearth db backup` against a running `hearth serve`, and the restore docs/DEPLOYMENT.md describes ("Backups"):
/// copy the file to `hearth.sqlite` in an empty data directory, mode 0600, and start Hearth on it.
@Suite("hearth db backup (e2e)", .blocking)
struct DatabaseBackupTests {
    /// An account as the client that signed in holds it.
    struct Acknowledged: Sendable {
        var localID: String
        var refreshToken: String
    }

    @Test("a backup taken while clients sign in restores every account acknowledged before it began, with working refresh tokens")
    func backupUnderLoadRestores() throws {
        let server = HearthProcess()
        try server.start()
        let jwksBefore = try server.request("GET", "/.well-known/jwks.json").text

        // Clients sign in (signInAnonymously, as the iOS SDK sends it) until told to stop.
        let acknowledged = Locked<[Acknowledged]>([])
        let failures = Locked<[String]>([])
        let stop = Locked(false)
        let clients = DispatchGroup()
        for _ in 0..<4 {
            clients.enter()
            Thread { [server] in
                defer { clients.leave() }
                let client = FirebaseIOSClient(server: server)
                while !stop.value {
                    do {
                        let signedIn = try SignedIn(try client.signUpAnonymously())
                        acknowledged.withLock { $0.append(Acknowledged(localID: signedIn.localID, refreshToken: signedIn.refreshToken)) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                        return
                    }
                }
            }.start()
        }
        defer {
            stop.withLock { $0 = true }
            clients.wait()
        }
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.value.count < 200, failures.value.isEmpty, Date() < deadline { usleep(10_000) }
        let before = acknowledged.value
        try #require(before.count >= 200 && failures.value.isEmpty, "sign-ins before the backup: \(before.count), \(failures.value)")

        let folder = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = folder.appendingPathComponent("hearth-backup.sqlite")
        let result = try server.runCommand(["db", "backup", "--out", backup.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Backed up"), "\(result.output)")
        let afterBackup = acknowledged.value.count
        stop.withLock { $0 = true }
        clients.wait()
        #expect(failures.value.isEmpty, "every sign-in during the backup succeeded: \(failures.value)")
        #expect(server.stop() == 0)

        #expect(Self.mode(backup.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["hearth-backup.sqlite"],
                "one file: no temporary file, no -wal beside it")

        // The restore: the file becomes hearth.sqlite (mode 0600) of an empty data directory.
        let restored = HearthProcess.temporaryDirectory()
        let database = restored.appendingPathComponent("hearth.sqlite")
        try FileManager.default.copyItem(at: backup, to: database)
        #expect(chmod(database.path, 0o600) == 0)
        let again = HearthProcess(dataDirectory: restored)
        try again.start()
        #expect(try again.request("GET", "/.well-known/jwks.json").text == jwksBefore, "the same signing keys")
        let client = FirebaseIOSClient(server: again)
        var refused: [String] = []
        for account in before {
            let refreshed = try client.refresh(account.refreshToken)
            if refreshed.status != 200 || refreshed.json["user_id"] as? String != account.localID {
                refused.append("\(account.localID): \(refreshed.status) \(refreshed.text)")
            }
        }
        #expect(refused.isEmpty, "\(refused.count) of \(before.count) accounts did not refresh: \(refused.prefix(3))")
        Swift.print("db backup under load: \(before.count) sign-ins before the backup, \(afterBackup - before.count) more until it ended")
    }

    @Test("an existing file is never replaced; --out is required; a missing database, a directory that is not there and PostgreSQL are refused")
    func refusals() throws {
        let server = HearthProcess()
        try server.start()
        #expect(server.stop() == 0)
        let folder = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }

        let existing = folder.appendingPathComponent("existing.sqlite")
        try Data("keep me".utf8).write(to: existing)
        let overwrite = try server.runCommand(["db", "backup", "--out", existing.path])
        #expect(overwrite.status == 1 && overwrite.output.contains("already exists"), "\(overwrite.output)")
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))

        let noOut = try server.runCommand(["db", "backup"])
        #expect(noOut.status == 64 && noOut.output.contains("--out"), "\(noOut.output)")

        let empty = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let noDatabase = try HearthProcess.run(["db", "backup", "--out", folder.appendingPathComponent("a").path, "--data-dir", empty.path])
        #expect(noDatabase.status == 1 && noDatabase.output.contains("no Hearth database at"), "\(noDatabase.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty, "nothing created there")

        let nowhere = try server.runCommand(["db", "backup", "--out", folder.appendingPathComponent("missing/b.sqlite").path])
        #expect(nowhere.status == 1 && nowhere.output.contains("no backup made"), "\(nowhere.output)")

        let postgresURL = "postgres://hearth@db.example.com/hearth"
        let flag = try server.runCommand(["db", "backup", "--out", folder.appendingPathComponent("c").path, "--database", postgresURL])
        let variable = try HearthProcess.run(
            ["db", "backup", "--out", folder.appendingPathComponent("c").path, "--data-dir", server.dataDirectory.path],
            environment: ["HEARTH_DATABASE_URL": postgresURL])
        for refused in [flag, variable] {
            #expect(refused.status == 64 && refused.output.contains("pg_dump"), "\(refused.output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["existing.sqlite"], "nothing else written")
    }

    @Test("a file that is not Hearth's database is refused")
    func notHearthsDatabase() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            .write(to: directory.appendingPathComponent("hearth.sqlite"))
        let out = directory.appendingPathComponent("backup.sqlite")
        let result = try HearthProcess.run(["db", "backup", "--out", out.path, "--data-dir", directory.path])
        #expect(result.status == 1 && result.output.contains("cannot read the database"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    static func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }
}
