import Foundation
import HearthCore
import HearthCrypto
import Testing

/// Secrets on disk (issue 7, section 2): file modes as another local user sees them, and encryption at rest of
/// private signing keys and TOTP secrets, across restarts and a rotation of the encryption key.
@Suite("Secrets at rest (e2e)", .blocking)
struct SecretsAtRestTests {
    // MARK: Another local user

    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether user `nobody` (uid and gid 65534, no groups) can run `command` on `path` successfully; nil when
    /// that cannot be tried (not root, or no setpriv from util-linux).
    static func nobodyCan(_ command: String, _ path: String) throws -> Bool? {
        guard geteuid() == 0, let setpriv else { return nil }
        let result = try runProgramSplit(
            URL(fileURLWithPath: setpriv),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", command, path])
        return result.status == 0
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        precondition(stat(path, &info) == 0, "stat \(path)")
        return info.st_mode & 0o7777
    }

    @Test("a data directory an installer made 0755: Hearth makes it owner-only, and no file in it is readable by another user")
    func filesAreOwnerOnly() throws {
        let directory = HearthProcess.temporaryDirectory()
        #expect(chmod(directory.path, 0o755) == 0)
        let server = HearthProcess(dataDirectory: directory)
        try server.start()
        // Give the database something to hide: signing keys exist already; add an account with a TOTP factor.
        let client = MFATests.Client(server: server)
        _ = try client.enrollTOTP(try SignedIn(client.signIn("modes@example.com")))

        #expect(server.lines.contains("event=permissions_tightened path=\(directory.path) was=0755 now=0700"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(Set(files).isSuperset(of: ["hearth.sqlite", "hearth.sqlite-wal", "hearth.sqlite-shm"]), "\(files)")
        let paths = files.map { directory.appendingPathComponent($0).path }
        #expect(Self.mode(directory.path) == 0o700)
        for path in paths { #expect(Self.mode(path) & 0o077 == 0, "\(path) is \(String(Self.mode(path), radix: 8))") }

        guard try Self.nobodyCan("true", "/") != nil else { return }  // not root: the modes above are the check
        #expect(try Self.nobodyCan("ls", directory.path) == false)
        for path in paths { #expect(try Self.nobodyCan("cat", path) == false, "\(path)") }
        // Each file is owner-only by itself too, not just behind the directory: open the directory for
        // traversal and try again. A world-readable file there shows that the check can see a readable file.
        #expect(chmod(directory.path, 0o711) == 0)
        defer { chmod(directory.path, 0o700) }
        let probe = directory.appendingPathComponent("probe.txt").path
        #expect(FileManager.default.createFile(atPath: probe, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(try Self.nobodyCan("cat", probe) == true)
        for path in paths { #expect(try Self.nobodyCan("cat", path) == false, "\(path)") }
    }

    @Test("loose modes left by an older Hearth are tightened; a directory others may write to, or that another user owns, is refused")
    func existingModes() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("hearth.sqlite").path
        let server = HearthProcess(dataDirectory: directory)
        try server.start()
        server.stop()

        #expect(chmod(directory.path, 0o755) == 0 && chmod(database, 0o644) == 0)
        let tightened = try runProgramSplit(HearthProcess.executable, ["keys", "list", "--data-dir", directory.path])
        #expect(tightened.status == 0, "\(tightened.stderr)")
        #expect(tightened.stderr.contains("event=permissions_tightened path=\(directory.path) was=0755 now=0700"))
        #expect(tightened.stderr.contains("event=permissions_tightened path=\(database) was=0644 now=0600"))
        #expect(tightened.stdout.contains("current"), "the command's own output stays on stdout")
        #expect(Self.mode(directory.path) == 0o700 && Self.mode(database) == 0o600)

        #expect(chmod(directory.path, 0o777) == 0)
        let writable = try HearthProcess.run(["keys", "list", "--data-dir", directory.path])
        #expect(writable.status == 1)
        #expect(writable.output.contains("data directory \(directory.path) is writable by other users (mode 0777)"), "\(writable.output)")
        #expect(Self.mode(directory.path) == 0o777, "refused, not changed")

        guard geteuid() == 0 else { return }  // only root can give the directory to another user
        #expect(chmod(directory.path, 0o755) == 0 && chown(directory.path, 65534, 65534) == 0)
        let foreign = try HearthProcess.run(["keys", "list", "--data-dir", directory.path])
        #expect(foreign.status == 1)
        #expect(foreign.output.contains("belongs to uid 65534, not to this user (uid 0)"), "\(foreign.output)")
        #expect(Self.mode(directory.path) == 0o755, "refused, not changed")
    }

    // MARK: Encryption at rest

    static func newKey() -> (base64: String, id: String) {
        let bytes = SecureRandom.bytes(count: 32)
        return (Data(bytes).base64EncodedString(), String(Hex.encode(SHA256.hash(bytes)).prefix(16)))
    }

    /// The database file and its WAL as they are on disk right now.
    static func rawDatabase(_ directory: URL) -> [UInt8] {
        ["hearth.sqlite", "hearth.sqlite-wal"].flatMap { name in
            (try? Data(contentsOf: directory.appendingPathComponent(name))).map(Array.init) ?? []
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Servers started on one data directory, one after the other on the same port (each removes the directory
    /// when released, so all are kept until the test ends).
    final class Restarts {
        let directory = HearthProcess.temporaryDirectory()
        private var servers: [HearthProcess] = []

        /// Stops the running server (if any) and starts one with `environment`.
        func start(_ environment: [String: String]) throws -> HearthProcess {
            let port = servers.last?.port ?? 0
            servers.last?.stop()
            let server = HearthProcess(environment: environment, dataDirectory: directory)
            try server.start(port: port)
            servers.append(server)
            return server
        }

        func stop() { servers.last?.stop() }

        /// Starts a server with `environment` that is expected not to come up; returns what it printed.
        func failedStart(_ environment: [String: String]) -> String {
            servers.last?.stop()
            let server = HearthProcess(environment: environment, dataDirectory: directory)
            servers.append(server)
            do {
                try server.start()
                Issue.record("the server started")
                return ""
            } catch {
                return "\(error)"
            }
        }

        /// Runs `hearth <arguments> --data-dir <directory>` with `environment`.
        func run(_ arguments: [String], _ environment: [String: String]) throws -> ProgramResult {
            try runProgramSplit(HearthProcess.executable, arguments + ["--data-dir", directory.path], environment: environment)
        }
    }

    /// The TOTP step of the next code, to be sent at once: later than `last` (a used code is not accepted
    /// again), and the current step or the next one, so that the server's ±1 window holds it for at least 30 s
    /// more. Waits for the clock when `last` is ahead of it. (A step computed earlier, or `now - 1`, can fall
    /// out of the window at the next step boundary: that made this test fail on a loaded machine.)
    static func nextStep(after last: Int64?) -> Int64 {
        while true {
            let now = TOTP().step(at: Int64(Date().timeIntervalSince1970))
            let step = max((last ?? .min) + 1, now)
            if step <= now + 1 { return step }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// A TOTP user's sign-in, first factor then a code later than step `last`; returns the refresh token and
    /// the code's step.
    static func signInWithTOTP(_ server: HearthProcess, email: String, secret: [UInt8], after last: Int64) throws
        -> (refreshToken: String, step: Int64)
    {
        let client = MFATests.Client(server: server)
        let stopped = try client.signIn(email)
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String, "\(stopped.text)")
        let enrollmentID = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
        let step = nextStep(after: last)
        let done = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": TOTP().code(secret: secret, step: step)],
        ])
        #expect(done.status == 200, "\(done.text)")
        return (try #require(done.json["refreshToken"] as? String), step)
    }

    /// Refreshes and returns the refresh token to use next (the same one, or a rotated one).
    static func refresh(_ server: HearthProcess, _ refreshToken: String) throws -> String {
        let refreshed = try FirebaseIOSClient(server: server).refresh(refreshToken)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.json["id_token"] is String)
        return refreshed.json["refresh_token"] as? String ?? refreshToken
    }

    /// Enrols a TOTP factor with a fresh code; returns the shared secret and the code's step.
    static func enrollTOTP(_ server: HearthProcess, email: String) throws -> (secret: [UInt8], step: Int64) {
        let client = MFATests.Client(server: server)
        let session = try SignedIn(client.signIn(email))
        let start = try client.v2("mfaEnrollment:start", ["idToken": session.idToken, "totpEnrollmentInfo": [:]])
        let info = try #require(start.json["totpSessionInfo"] as? [String: Any], "\(start.text)")
        let sharedSecret = try #require(info["sharedSecretKey"] as? String)
        let secret = try #require(Base32.decode(sharedSecret))
        let step = nextStep(after: nil)
        let finalize = try client.v2("mfaEnrollment:finalize", [
            "idToken": session.idToken,
            "totpVerificationInfo": ["sessionInfo": info["sessionInfo"]!, "verificationCode": TOTP().code(secret: secret, step: step)],
        ])
        #expect(finalize.status == 200, "\(finalize.text)")
        return (secret, step)
    }

    @Test("with an encryption key the database holds no private key or TOTP secret; sign-in, refresh and TOTP sign-in survive a restart and a key rotation")
    func encryptedAcrossRestartAndRotation() throws {
        let (keyA, keyB) = (Self.newKey(), Self.newKey())
        let restarts = Restarts()
        // Three TOTP codes are needed (enrolment, then a sign-in after the restart and one after the rotation).
        var server = try restarts.start(["HEARTH_ENCRYPTION_KEY": keyA.base64])
        #expect(server.lines.contains("  Secrets at rest    encrypted (AES-256-GCM, key \(keyA.id))"))
        let (secret, enrolmentStep) = try Self.enrollTOTP(server, email: "totp@example.com")
        let plain = try SignedIn(MFATests.Client(server: server).signIn("plain@example.com"))
        var refreshToken = plain.refreshToken

        let raw = Self.rawDatabase(restarts.directory)
        #expect(raw.count > 4096)
        #expect(!Self.contains(raw, Array("PRIVATE KEY".utf8)), "no PEM private key in the clear")
        #expect(!Self.contains(raw, secret), "no TOTP secret in the clear")
        #expect(!Self.contains(raw, Array(Base32.encode(secret).utf8)))
        #expect(Self.contains(raw, Array("hearth-sealed:v1:\(keyA.id):".utf8)))

        // Restart with the same key.
        server = try restarts.start(["HEARTH_ENCRYPTION_KEY": keyA.base64])
        refreshToken = try Self.refresh(server, refreshToken)
        let totpSignIn = try Self.signInWithTOTP(server, email: "totp@example.com", secret: secret, after: enrolmentStep)
        var totpRefreshToken = totpSignIn.refreshToken
        _ = try SignedIn(MFATests.Client(server: server).signIn("plain@example.com"))

        // Rotation: the new key with the old one as previous, then re-encrypt, then the new key alone.
        let rotating = ["HEARTH_ENCRYPTION_KEY": keyB.base64, "HEARTH_ENCRYPTION_KEY_PREVIOUS": keyA.base64]
        server = try restarts.start(rotating)
        #expect(server.lines.contains("  Secrets at rest    encrypted (AES-256-GCM, key \(keyB.id))"))
        #expect(server.lines.contains { $0.hasPrefix("event=secrets_not_under_current_key plain=0 previous_key=") })
        totpRefreshToken = try Self.refresh(server, totpRefreshToken)
        let reencrypt = try restarts.run(["keys", "reencrypt"], rotating)
        #expect(reencrypt.status == 0, "\(reencrypt.stderr)")
        #expect(reencrypt.stdout.contains("under key \(keyB.id) ("), "\(reencrypt.stdout)")
        #expect(reencrypt.stdout.contains("under a previous key, 0 not encrypted)"), "\(reencrypt.stdout)")

        server = try restarts.start(["HEARTH_ENCRYPTION_KEY": keyB.base64])
        #expect(!server.lines.contains { $0.hasPrefix("event=secrets_not_under_current_key") })
        refreshToken = try Self.refresh(server, refreshToken)
        totpRefreshToken = try Self.refresh(server, totpRefreshToken)
        _ = try Self.signInWithTOTP(server, email: "totp@example.com", secret: secret, after: totpSignIn.step)
        _ = try SignedIn(MFATests.Client(server: server).signIn("plain@example.com"))
        restarts.stop()

        let rotated = Self.rawDatabase(restarts.directory)
        #expect(!Self.contains(rotated, Array("PRIVATE KEY".utf8)))
        #expect(!Self.contains(rotated, secret))
        #expect(!Self.contains(rotated, Array("hearth-sealed:v1:\(keyA.id):".utf8)), "nothing left under the old key")

        // The old key alone, or no key, cannot open the database: a clear startup error, not broken tokens.
        let oldKey = restarts.failedStart(["HEARTH_ENCRYPTION_KEY": keyA.base64])
        #expect(oldKey.contains("is encrypted under key \(keyB.id), which is not configured (configured: \(keyA.id))"), "\(oldKey)")
        let noKey = restarts.failedStart([:])
        #expect(noKey.contains("is encrypted under key \(keyB.id), but no encryption key is configured"), "\(noKey)")
        #expect(!(oldKey + noKey).contains(keyA.base64) && !(oldKey + noKey).contains(keyB.base64))
        // Exit status 1, as for the other startup errors.
        #expect(try restarts.run(["keys", "list"], ["HEARTH_ENCRYPTION_KEY": keyA.base64]).status == 1)
    }

    @Test("turning encryption on for a database written without it: secrets are read, then keys reencrypt leaves none in the clear")
    func encryptExistingDatabase() throws {
        let key = Self.newKey()
        let restarts = Restarts()
        var server = try restarts.start([:])
        #expect(server.lines.contains { $0.hasPrefix("  Secrets at rest    not encrypted") })
        let (secret, enrolmentStep) = try Self.enrollTOTP(server, email: "legacy@example.com")
        restarts.stop()
        let before = Self.rawDatabase(restarts.directory)
        #expect(Self.contains(before, Array("PRIVATE KEY".utf8)), "the reproduction: keys in the clear without a key")
        #expect(Self.contains(before, secret))

        let environment = ["HEARTH_ENCRYPTION_KEY": key.base64]
        server = try restarts.start(environment)
        #expect(server.lines.contains { $0.hasPrefix("event=secrets_not_under_current_key plain=") })
        let signInStep = try Self.signInWithTOTP(server, email: "legacy@example.com", secret: secret, after: enrolmentStep).step
        restarts.stop()
        let reencrypt = try restarts.run(["keys", "reencrypt"], environment)
        #expect(reencrypt.status == 0, "\(reencrypt.stderr)")
        #expect(reencrypt.stdout.contains("(0 under a previous key, "), "\(reencrypt.stdout)")

        let after = Self.rawDatabase(restarts.directory)
        #expect(!Self.contains(after, Array("PRIVATE KEY".utf8)), "not even in free pages or the WAL")
        #expect(!Self.contains(after, secret))
        server = try restarts.start(environment)
        _ = try Self.signInWithTOTP(server, email: "legacy@example.com", secret: secret, after: signInStep)
    }

    @Test("key settings: a key file others can read, a malformed key, both a key and a key file, previous keys alone are refused")
    func keySettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("key").path
        let key = Self.newKey()
        #expect(FileManager.default.createFile(atPath: keyFile, contents: Data("# hearth\n\(key.base64)\n".utf8), attributes: [.posixPermissions: 0o640]))
        let data = directory.appendingPathComponent("data").path
        func run(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ProgramResult {
            try runProgramSplit(HearthProcess.executable, ["keys", "list", "--data-dir", data] + arguments, environment: environment)
        }

        let loose = try run(["--encryption-key-file", keyFile])
        #expect(loose.status == 1)
        #expect(loose.stderr.contains("encryption key file \(keyFile) is accessible to other users (mode 0640)"), "\(loose.stderr)")
        #expect(chmod(keyFile, 0o600) == 0)
        // `hearth serve` makes the database (other commands refuse to), its signing key sealed with the file's key.
        let server = HearthProcess(arguments: ["--dev", "--encryption-key-file", keyFile], dataDirectory: URL(fileURLWithPath: data))
        try server.start()
        server.stop()
        #expect(try run(["--encryption-key-file", keyFile]).status == 0)
        #expect(try run([], ["HEARTH_ENCRYPTION_KEY_FILE": keyFile]).status == 0)

        let short = try run([], ["HEARTH_ENCRYPTION_KEY": Data(SecureRandom.bytes(count: 16)).base64EncodedString()])
        #expect(short.status == 64)
        #expect(short.stderr.contains("HEARTH_ENCRYPTION_KEY: a key must be 32 random bytes in base64"))
        let both = try run([], ["HEARTH_ENCRYPTION_KEY": key.base64, "HEARTH_ENCRYPTION_KEY_FILE": keyFile])
        #expect(both.status == 64)
        let previousOnly = try run([], ["HEARTH_ENCRYPTION_KEY_PREVIOUS": key.base64])
        #expect(previousOnly.status == 64)
        #expect(previousOnly.stderr.contains("previous encryption keys need a current key"))
        let reencryptWithoutKey = try runProgramSplit(HearthProcess.executable, ["keys", "reencrypt", "--data-dir", data])
        #expect(reencryptWithoutKey.status == 64)
        #expect(reencryptWithoutKey.stderr.contains("keys reencrypt needs the encryption key"))
        // The database was made with the key from the file: the key is in use.
        let list = try run([], ["HEARTH_ENCRYPTION_KEY": key.base64])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try run([]).status == 1, "the signing key it created is encrypted")
    }
}
