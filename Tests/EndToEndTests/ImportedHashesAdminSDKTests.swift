import Foundation
import Testing

/// firebase-admin for Python importing users with password hashes (`auth.import_users(…, hash_alg=…)`) into the
/// built `hearth serve --dev`, one algorithm per call (Tests/Python/import_hashes.py), then the store read back
/// with `hearth users export`.
@Suite("firebase-admin imports password hashes into hearth serve --dev (e2e)")
struct ImportedHashesAdminSDKTests {
    static let algorithms = [
        "scrypt-user": "SCRYPT", "standard-scrypt-user": "STANDARD_SCRYPT", "bcrypt-user": "BCRYPT",
        "hmac-user": "HMAC_SHA256", "pbkdf2-user": "PBKDF2_SHA256", "sha512-user": "SHA512", "md5-user": "MD5",
    ]

    @Test("every algorithm imports, shows the password provider, and is stored as a $hearth-import-v1$ hash")
    func importThroughAdminSDK() throws {
        let server = HearthProcess()
        try server.start()
        let settings: [String: Any] = ["base": server.baseURL, "project": "demo-hearth", "signIn": false]
        let steps = try PythonClients.run(
            "import_hashes.py", [String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)],
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"]
        ).compactMapValues { $0 as? [String: Any] }
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
        // Over HTTP the download redacts every hash.
        let listed = value("listed_hashes")
        #expect(listed.count == Self.algorithms.count && listed.values.allSatisfy { $0 as? String == "UkVEQUNURUQ=" })
        let rows = value("row_errors")
        #expect(rows["success"] as? Int == 1)
        #expect((rows["errors"] as? [[Any]])?.first?.first as? Int == 1)
        #expect((rows["errors"] as? [[Any]])?.first?.last as? String == "a BCRYPT passwordHash is the whole $2a$/$2b$/$2y$ string, with no salt")
        let refused = value("request_error")
        #expect(refused["status"] as? Int == 400)
        #expect(refused["message"] as? String == "INVALID_HASH_ROUNDS : rounds must be from 0 to 8192.")

        #expect(server.stop() == 0)
        let exported = try runProgramSplit(HearthProcess.executable, ["users", "export", "--data-dir", server.dataDirectory.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let users = (try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])?["users"] as? [[String: Any]] ?? []
        for (uid, algorithm) in Self.algorithms {
            let user = users.first { $0["localId"] as? String == uid }
            let stored = (user?["passwordHash"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
            let parameters = stored?.split(separator: "$", omittingEmptySubsequences: false).dropFirst(2).first
            #expect(stored?.hasPrefix("$hearth-import-v1$") == true, "\(uid): \(stored ?? "none")")
            #expect(parameters?.split(separator: ",").first == "alg=\(algorithm)"[...], "\(uid): \(stored ?? "none")")
        }
        // No hash, salt or signer key reaches the server's log.
        let log = server.lines.joined(separator: "\n")
        for secret in ["jxspr8Ki0RYy", "lSrfV15cpx95", "aGVhcnRoLWhtYWMtc2lnbmVyLWtleQ", "hearth-hmac-signer-key", "$2b$05$"] {
            #expect(!log.contains(secret), "\(secret) in the log")
        }
    }
}
