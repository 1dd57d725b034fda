import Foundation
import HearthCore
import Testing

/// `hearth db copy`: a SQLite database that a running `hearth serve --dev` filled goes to PostgreSQL and back, and a
/// server on the copy carries on where the first one stopped.
@Suite("Database copy (e2e)")
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
}
