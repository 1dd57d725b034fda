import Foundation
import Testing

/// firebase-admin for Python importing users with password hashes (`auth.import_users(…, hash_alg=…)`) into the
/// built `hearth serve --dev`, one algorithm per call (Tests/Python/import_hashes.py), the store read back with
/// `hearth users export`, then each user signing in with `accounts:signInWithPassword` and the hash replaced by
/// Argon2id.
@Suite("firebase-admin imports password hashes into hearth serve --dev (e2e)", .blocking)
struct ImportedHashesAdminSDKTests {
    static let algorithms = [
        "scrypt-user": "SCRYPT", "standard-scrypt-user": "STANDARD_SCRYPT", "bcrypt-user": "BCRYPT",
        "hmac-user": "HMAC_SHA256", "pbkdf2-user": "PBKDF2_SHA256", "sha512-user": "SHA512", "md5-user": "MD5",
        "pbkdf-sha1-user": "PBKDF_SHA1", "hmac-sha512-user": "HMAC_SHA512", "hmac-sha1-user": "HMAC_SHA1",
        "hmac-md5-user": "HMAC_MD5", "sha256-user": "SHA256", "sha1-user": "SHA1",
    ]

    /// The steps `import_hashes.py` reported in `phase`.
    static func run(_ phase: String, _ server: HearthProcess) throws -> [String: [String: Any]] {
        let settings: [String: Any] = ["base": server.baseURL, "project": "demo-hearth", "phase": phase]
        return try PythonClients.run(
            "import_hashes.py", [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]
        ).compactMapValues { $0 as? [String: Any] }
    }

    /// Each user's stored hash, as `hearth users export` (the server stopped) writes it.
    static func storedHashes(_ server: HearthProcess) throws -> [String: String] {
        let exported = try runProgramSplit(HearthProcess.executable, ["users", "export", "--data-dir", server.dataDirectory.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any]
        var hashes: [String: String] = [:]
        for user in object?["users"] as? [[String: Any]] ?? [] {
            guard let uid = user["localId"] as? String, let text = user["passwordHash"] as? String,
                let bytes = Data(base64Encoded: text)
            else { continue }
            hashes[uid] = String(decoding: bytes, as: UTF8.self)
        }
        return hashes
    }

    @Test("every algorithm imports, is stored as a $hearth-import-v1$ hash, signs in, and is rehashed to Argon2id")
    func importThroughAdminSDK() throws {
        let server = HearthProcess()
        try server.start()
        var steps = try Self.run("import", server)
        func value(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
            #expect(steps[step]?["ok"] as? Bool == true, "\(step): \(steps[step]?["error"] ?? "did not run")", sourceLocation: sourceLocation)
            return steps[step]?["value"] as? [String: Any] ?? [:]
        }

        let imported = value("import_each")
        for uid in Self.algorithms.keys {
            let result = imported[uid] as? [String: Any] ?? [:]
            #expect(result["success"] as? Int == 1 && result["failure"] as? Int == 0, "\(uid): \(result)")
        }
        let providers = value("providers_of_each")
        for uid in Self.algorithms.keys { #expect(providers[uid] as? [String] == ["password"], "\(uid)") }
        // Over HTTP administrators see each hash and salt as imported (issue 20 §5).
        let listed = value("listed_hashes")
        #expect(listed.count == Self.algorithms.count && listed.values.allSatisfy { $0 as? Bool == true }, "\(listed)")
        let rows = value("row_errors")
        #expect(rows["success"] as? Int == 1)
        #expect((rows["errors"] as? [[Any]])?.first?.first as? Int == 1)
        #expect((rows["errors"] as? [[Any]])?.first?.last as? String == "a BCRYPT passwordHash is the whole $2a$/$2b$/$2y$ string, with no salt")
        let refused = value("request_error")
        #expect(refused["status"] as? Int == 400)
        #expect(refused["message"] as? String == "INVALID_HASH_ROUNDS : rounds must be from 0 to 8192.")

        #expect(server.stop() == 0)
        let storedAtImport = try Self.storedHashes(server)
        for (uid, algorithm) in Self.algorithms {
            let stored = storedAtImport[uid]
            let parameters = stored?.split(separator: "$", omittingEmptySubsequences: false).dropFirst(2).first
            #expect(stored?.hasPrefix("$hearth-import-v1$") == true, "\(uid): \(stored ?? "none")")
            #expect(parameters?.split(separator: ",").first == "alg=\(algorithm)"[...], "\(uid): \(stored ?? "none")")
        }

        try server.start()
        steps = try Self.run("signIn", server)
        let signIns = value("sign_in_each")
        for uid in Self.algorithms.keys {
            let result = signIns[uid] as? [String: Any] ?? [:]
            #expect(result["wrong"] as? Int == 400, "\(uid): \(result)")
            #expect(result["right"] as? Int == 200 && result["localId"] as? String == uid, "\(uid): \(result)")
            #expect(result["again"] as? Int == 200, "\(uid): \(result)")
        }
        #expect(server.stop() == 0)
        let rehashed = try Self.storedHashes(server)
        for uid in Self.algorithms.keys {
            #expect(rehashed[uid]?.hasPrefix("$argon2id$v=19$") == true, "\(uid): \(rehashed[uid] ?? "none")")
        }
        // The bcrypt row that was refused at import has no password; the other bcrypt row kept its imported hash.
        #expect(rehashed["bcrypt-bad"] == nil && rehashed["bcrypt-ok"]?.hasPrefix("$hearth-import-v1$alg=BCRYPT$") == true)

        // No hash, salt or signer key reaches the server's log.
        let log = server.lines.joined(separator: "\n")
        for secret in ["jxspr8Ki0RYy", "lSrfV15cpx95", "aGVhcnRoLWhtYWMtc2lnbmVyLWtleQ", "hearth-hmac-signer-key", "$2b$05$"] {
            #expect(!log.contains(secret), "\(secret) in the log")
        }
    }
}
