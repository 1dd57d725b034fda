import Foundation
import HearthCore
import HearthSQLite
import Testing

/// `hearth db copy`: a SQLite database that a running `hearth serve --dev` filled goes to PostgreSQL and back, and a
/// server on the copy carries on where the first one stopped.
@Suite("Database copy (e2e)", .blocking)
struct DatabaseCopyTests {
    private static let encryption = ["HEARTH_ENCRYPTION_KEY": "q2kN8I7mZl8m0wYq8x2L7WnK1dZb6bJ1l3O9m1Qm0pE="]

    /// Runs `hearth <arguments> --data-dir <server's>` with the encryption key.
    private static func run(_ arguments: [String], on server: HearthProcess) throws -> (status: Int32, output: String) {
        try HearthProcess.run(arguments + ["--data-dir", server.dataDirectory.path], environment: encryption)
    }

    /// The ids of the events of `copied-audit` that `hearth audit` finds in the store `location` names.
    private static func auditIDs(_ location: [String]) throws -> [String] {
        let result = try runProgramSplit(
            HearthProcess.executable, ["audit", "--uid", "copied-audit", "--json"] + location, environment: encryption)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return records.compactMap { $0["id"] as? String }
    }

    @Test("sqlite → postgres → sqlite: refresh tokens issued before still refresh, the TOTP factor still verifies")
    func roundTrip() throws {
        let database = try TestPostgresDatabase()
        let original = HearthProcess(environment: Self.encryption)
        try original.start()
        let google = DevGoogle(server: original)
        let client = FirebaseIOSClient(server: original)
        let plain = try SignedIn(client.verifyAssertion(idToken: try google.signIn(email: "plain@example.com").idToken, accessToken: nil))
        let mfa = MFATests.Client(server: original)
        let secured = try SignedIn(mfa.signIn("totp@example.com"))
        let start = try mfa.v2("mfaEnrollment:start", ["idToken": secured.idToken, "totpEnrollmentInfo": [:]])
        let info = try #require(start.json["totpSessionInfo"] as? [String: Any], "\(start.text)")
        let secret = try #require(info["sharedSecretKey"] as? String)
        let enrolled = try mfa.v2("mfaEnrollment:finalize", [
            "idToken": secured.idToken,
            "totpVerificationInfo": ["sessionInfo": info["sessionInfo"]!, "verificationCode": MFATests.totpCode(secret, stepOffset: 0)],
        ])
        // The session the enrolment signed in with the factor.
        let securedRefresh = try #require(enrolled.json["refreshToken"] as? String, "\(enrolled.text)")
        let keyFile = original.dataDirectory.appendingPathComponent("ops.json").path
        let created = try Self.run(["service-accounts", "create", "ops-robot", "--dev", "--out", keyFile], on: original)
        #expect(created.status == 0, "\(created.output)")
        let rotated = try Self.run(["keys", "rotate"], on: original)
        #expect(rotated.status == 0, "\(rotated.output)")
        let keysBefore = try Self.run(["keys", "list"], on: original).output
        original.stop()

        let sqliteSource = "sqlite:" + original.dataDirectory.appendingPathComponent("hearth.sqlite").path
        let audited = AuditLogTests.event(minutesAgo: 5, .accountDisabled, uid: "copied-audit", client: "203.0.113.7", actor: .owner)
        try AuditLogTests.insert([audited], into: original.dataDirectory.appendingPathComponent("hearth.sqlite").path)
        let toPostgres = try HearthProcess.run(["db", "copy", "--from", sqliteSource, "--to", database.url], environment: Self.encryption)
        #expect(toPostgres.status == 0, "\(toPostgres.output)")
        #expect(toPostgres.output.contains("accounts=2 signing_keys="), "\(toPostgres.output)")
        #expect(toPostgres.output.contains("service_accounts=1"), "\(toPostgres.output)")
        #expect(try Self.auditIDs(["--database", database.url]) == [audited.id])

        let again = try HearthProcess.run(["db", "copy", "--from", sqliteSource, "--to", database.url], environment: Self.encryption)
        #expect(again.status == 1)
        #expect(again.output.contains("already holds accounts"), "\(again.output)")
        let withoutKey = try HearthProcess.run(["db", "copy", "--from", database.url, "--to", "sqlite:/nonexistent-dir/x.sqlite"])
        #expect(withoutKey.status == 1)
        #expect(withoutKey.output.contains("cannot read the secrets"), "\(withoutKey.output)")

        let copyDirectory = HearthProcess.temporaryDirectory()
        let back = try HearthProcess.run(
            ["db", "copy", "--from", database.url, "--to", "sqlite:" + copyDirectory.appendingPathComponent("hearth.sqlite").path],
            environment: Self.encryption)
        #expect(back.status == 0, "\(back.output)")
        #expect(try Self.auditIDs(["--data-dir", copyDirectory.path]) == [audited.id])

        let copy = HearthProcess(environment: Self.encryption, dataDirectory: copyDirectory)
        try copy.start(port: original.port)
        let copyClient = FirebaseIOSClient(server: copy)
        let refreshed = try copyClient.refresh(plain.refreshToken)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.json["user_id"] as? String == plain.localID)
        #expect(try copyClient.refresh(securedRefresh).status == 200)
        let copyMFA = MFATests.Client(server: copy)
        let stopped = try copyMFA.signIn("totp@example.com")
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String, "\(stopped.text)")
        let enrollmentID = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
        // The enrolment used the current step's code; the next step's is new (and within the window).
        let verified = try copyMFA.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": MFATests.totpCode(secret, stepOffset: 1)],
        ])
        #expect(verified.status == 200, "the TOTP secret was opened and sealed again: \(verified.text)")
        #expect(try Self.run(["keys", "list"], on: copy).output == keysBefore)
        #expect(try Self.run(["service-accounts", "list"], on: copy).output.contains("ops-robot@demo-hearth.iam.hearth"))
    }

    @Test("bad locations are refused with a clear message and exit status 64")
    func badLocations() throws {
        let same = try HearthProcess.run(["db", "copy", "--from", "sqlite:/tmp/a.sqlite", "--to", "/tmp/../tmp/a.sqlite"])
        #expect(same.status == 64)
        #expect(same.output.contains("the same database"), "\(same.output)")
        let samePostgres = try HearthProcess.run([
            "db", "copy", "--from", "postgres://hearth:one@db.internal/hearth",
            "--to", "postgresql://hearth:two@db.internal/hearth?sslmode=require",
        ])
        #expect(samePostgres.status == 64)
        #expect(samePostgres.output.contains("the same database"), "\(samePostgres.output)")
        let unknown = try HearthProcess.run(["db", "copy", "--from", "mysql://x/y", "--to", "sqlite:/tmp/b.sqlite"])
        #expect(unknown.status == 64)
        #expect(unknown.output.contains("unknown kind of database"), "\(unknown.output)")
        let missing = try HearthProcess.run(["db", "copy", "--to", "sqlite:/tmp/b.sqlite"])
        #expect(missing.status == 64)
    }

    @Test("a source a running server writes to: refused, then with --allow-live-source one snapshot is copied and verified",
          arguments: ["sqlite", "postgres"])
    func liveSource(kind: String) throws {
        let database = kind == "postgres" ? try TestPostgresDatabase() : nil
        let location = database.map { ["--database", $0.url] }
        let server = HearthProcess(
            arguments: ["--project-id", "live-copy"] + (location ?? []),
            environment: ["HEARTH_API_KEYS": "live-key", "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com",
                          "HEARTH_RATE_LIMITS": "off"])
        try server.start()
        let source = database?.url ?? server.dataDirectory.appendingPathComponent("hearth.sqlite").path
        // 3,000 imported users, so that the copy reads many pages while guests keep signing up.
        let seeds = (0..<3_000).map { String(format: "seed%05d", $0) }
        let users = server.dataDirectory.appendingPathComponent("seeds.json")
        try JSONSerialization.data(withJSONObject: ["users": seeds.map { ["localId": $0, "email": "\($0)@example.com"] }])
            .write(to: users)
        let imported = try HearthProcess.run(["users", "import", users.path, "--database", source])
        #expect(imported.status == 0, "\(imported.output)")

        // Guests sign up one after another (each answer before the next request) until told to stop.
        let client = FirebaseIOSClient(server: server, apiKey: "live-key")
        let signedUp = Locked<[String]>([])
        let stop = Locked(false)
        let writer = Thread {
            while !stop.value, let guest = try? SignedIn(client.signUpAnonymously()) {
                signedUp.withLock { $0.append(guest.localID) }
            }
        }
        writer.start()
        defer { stop.withLock { $0 = true } }
        func waitForSignUps(beyond count: Int) {
            while signedUp.value.count < count + 20, !writer.isFinished { usleep(10_000) }
        }
        waitForSignUps(beyond: 0)

        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("copy.sqlite").path
        let refused = try HearthProcess.run(["db", "copy", "--from", source, "--to", "sqlite:" + target])
        #expect(refused.status == 1)
        #expect(refused.output.contains("the source is in use ("), "\(refused.output)")
        #expect(refused.output.contains("--allow-live-source"), "\(refused.output)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing is made for a refused copy")

        let copied = try runProgramSplit(
            HearthProcess.executable, ["db", "copy", "--from", source, "--to", "sqlite:" + target, "--allow-live-source"])
        waitForSignUps(beyond: signedUp.value.count)
        stop.withLock { $0 = true }
        while !writer.isFinished { usleep(10_000) }
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.contains("the source is in use ("), "\(copied.stderr)")
        #expect(copied.stdout.hasPrefix("Copied a snapshot of the source taken at "), "\(copied.stdout)")
        #expect(copied.stdout.contains("verified that the target holds exactly its counts: accounts="), "\(copied.stdout)")
        #expect(copied.stdout.contains("Writes to the source after the snapshot are not in the copy."), "\(copied.stdout)")

        // The copy is one moment of the source: every seed, and the guests that signed up before some point, each with
        // its session and its audit event; none after. The printed counts are the target's.
        let guests = signedUp.value
        let copy = try SQLiteStore(path: target)
        defer { copy.close() }
        let (accounts, sessions, events) = try copy.read { reader in
            (try reader.accounts(after: nil, limit: 10_000).map(\.localID),
             try reader.refreshSessions(after: nil, limit: 10_000).map(\.localID),
             try reader.auditEvents(AuditQuery(limit: 10_000)).count)
        }
        let copiedGuests = Set(accounts).subtracting(seeds)
        #expect(Set(accounts).isSuperset(of: seeds))
        #expect(copiedGuests == Set(guests.prefix(copiedGuests.count)), "the copy holds guests that signed up after others it misses")
        #expect(copiedGuests.count < guests.count, "sign-ups went on after the snapshot")
        #expect(Set(sessions) == copiedGuests && sessions.count == copiedGuests.count)
        #expect(events == accounts.count, "one audit event per imported user and per guest")
        #expect(copied.stdout.contains("accounts=\(accounts.count) "), "\(copied.stdout)")
        #expect(copied.stdout.contains("refresh_sessions=\(sessions.count) "), "\(copied.stdout)")
        #expect(copied.stdout.contains("audit_events=\(events)."), "\(copied.stdout)")
    }
}
