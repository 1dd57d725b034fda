import Foundation
import Testing

/// `hearth users list|find|create|set-claims|remove-factor|import|export` against the built binary, on data
/// directories that `hearth serve --dev` made.
@Suite("hearth users (e2e)", .blocking)
struct UsersCommandTests {
    /// A data directory made by `hearth serve --dev` (stopped again), and the `users` command run on it.
    final class UsersDataDirectory {
        let server = HearthProcess()

        init() throws {
            try server.start()
            server.stop()
        }

        var path: String { server.dataDirectory.path }

        func users(_ arguments: [String]) throws -> ProgramResult {
            try runProgramSplit(HearthProcess.executable, ["users"] + arguments + ["--data-dir", path])
        }

        /// The record `users show` prints.
        func show(_ uid: String) throws -> [String: Any] {
            let result = try users(["show", uid])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }

        /// Every user, as `users list --json` prints them.
        func listed(_ extra: [String] = []) throws -> [[String: Any]] {
            let result = try users(["list", "--json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try result.stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        /// Writes `object` as JSON to a new file in the data directory (removed with it).
        func file(_ object: Any) throws -> String {
            try write(JSONSerialization.data(withJSONObject: object))
        }

        func write(_ data: Data) throws -> String {
            let url = server.dataDirectory.appendingPathComponent("users-\(UUID().uuidString).json")
            try data.write(to: url)
            return url.path
        }
    }

    @Test("create prints the uid; find by email and phone prints the record; a miss exits 1")
    func createAndFind() throws {
        let data = try UsersDataDirectory()
        let created = try data.users([
            "create", "--email", "Ada@Example.com", "--phone", "+15550001111", "--name", "Ada", "--photo",
            "https://example.com/ada.png", "--email-verified", "--disabled",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let uid = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(uid.count == 28 && !uid.contains(" "))
        let chosen = try data.users(["create", "--uid", "grace-1", "--email", "grace@example.com"])
        #expect(chosen.status == 0 && chosen.stdout == "grace-1\n")

        for query in [["--email", "ada@example.com"], ["--phone", "+15550001111"]] {
            let found = try data.users(["find"] + query)
            #expect(found.status == 0, "\(found.stderr)")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
            #expect(record["localId"] as? String == uid)
            #expect(record["email"] as? String == "ada@example.com")
            #expect(record["displayName"] as? String == "Ada")
            #expect(record["photoUrl"] as? String == "https://example.com/ada.png")
            #expect(record["emailVerified"] as? Bool == true)
            #expect(record["disabled"] as? Bool == true)
        }
        for (query, message) in [
            (["--email", "nobody@example.com"], "no user with email nobody@example.com"),
            (["--phone", "+15559999999"], "no user with phone number +15559999999"),
        ] {
            let miss = try data.users(["find"] + query)
            #expect(miss.status == 1)
            #expect(miss.stdout.isEmpty)
            #expect(miss.stderr == "hearth: \(message)\n")
        }

        let taken = try data.users(["create", "--email", "grace@example.com"])
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("EMAIL_EXISTS"), "\(taken.stderr)")
        let badPhone = try data.users(["create", "--phone", "555"])
        #expect(badPhone.status == 1)
        #expect(badPhone.stderr.contains("INVALID_PHONE_NUMBER"), "\(badPhone.stderr)")
        let again = try data.users(["create", "--uid", "grace-1"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("DUPLICATE_LOCAL_ID"), "\(again.stderr)")
        #expect(try data.listed().count == 2, "refused creations left nothing behind")
    }

    @Test("usage errors exit 64 with one line, before any data directory is opened")
    func usageErrors() throws {
        let missing = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: missing) }
        let wrong: [[String]] = [
            ["find"], ["find", "--email", "a@b.c", "--phone", "+15550001111"], ["list", "--limit", "0"],
            ["list", "--limit", "x"], ["list", "--out", "f"], ["set-claims", "uid"], ["remove-factor", "uid"],
            ["import"], ["export", "extra"], ["create", "--json"], ["frobnicate"],
        ]
        for arguments in wrong {
            let result = try runProgramSplit(HearthProcess.executable, ["users"] + arguments + ["--data-dir", missing.path])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("hearth: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test("set-claims sets and clears claims; reserved names, oversized claims and non-objects are refused with Firebase's codes")
    func setClaims() throws {
        let data = try UsersDataDirectory()
        #expect(try data.users(["create", "--uid", "u1"]).status == 0)
        let set = try data.users(["set-claims", "u1", #"{"admin":true,"tier":"gold"}"#])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("next token refresh"))
        #expect(try data.show("u1")["customAttributes"] as? String == #"{"admin":true,"tier":"gold"}"#)

        let refusals = [
            (#"{"iss":"me"}"#, "FORBIDDEN_CLAIM : iss"),
            (#"{"firebase":{}}"#, "FORBIDDEN_CLAIM : firebase"),
            (#"{"big":""# + String(repeating: "x", count: 1000) + #""}"#, "CLAIMS_TOO_LARGE"),
            (#"["admin"]"#, "INVALID_CLAIMS"),
            ("not json", "INVALID_CLAIMS"),
        ]
        for (claims, code) in refusals {
            let refused = try data.users(["set-claims", "u1", claims])
            #expect(refused.status == 1)
            #expect(refused.stderr.hasPrefix("hearth: cannot set the custom claims: \(code)"), "\(refused.stderr)")
        }
        #expect(try data.show("u1")["customAttributes"] as? String == #"{"admin":true,"tier":"gold"}"#, "refusals change nothing")

        let cleared = try data.users(["set-claims", "u1", "{}"])
        #expect(cleared.status == 0)
        #expect(cleared.stdout.hasPrefix("Cleared the custom claims of u1"))
        #expect(try data.show("u1")["customAttributes"] == nil)

        let unknown = try data.users(["set-claims", "nobody", "{}"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "hearth: no user with uid nobody\n")
    }

    @Test("remove-factor removes one second factor and keeps the others; an unknown enrollment exits 1")
    func removeFactor() throws {
        let data = try UsersDataDirectory()
        let file = try data.file([
            "users": [[
                "localId": "mfa-user", "email": "mfa@example.com", "emailVerified": true,
                "mfaInfo": [["phoneInfo": "+15550002222", "displayName": "work"], ["phoneInfo": "+15550003333"]],
            ]],
        ])
        #expect(try data.users(["import", file]).status == 0)
        let factors = try #require(try data.show("mfa-user")["mfaInfo"] as? [[String: Any]])
        #expect(factors.count == 2)
        let work = try #require(factors.first { $0["phoneInfo"] as? String == "+15550002222" })
        let workID = try #require(work["mfaEnrollmentId"] as? String)

        let unknown = try data.users(["remove-factor", "mfa-user", "no-such-factor"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("user mfa-user has no second factor no-such-factor"), "\(unknown.stderr)")
        let removed = try data.users(["remove-factor", "mfa-user", workID])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("1 remain"))
        let left = try #require(try data.show("mfa-user")["mfaInfo"] as? [[String: Any]])
        #expect(left.map { $0["phoneInfo"] as? String } == ["+15550003333"])
        #expect(left.first?["mfaEnrollmentId"] as? String == factors.first { $0["mfaEnrollmentId"] as? String != workID }?["mfaEnrollmentId"] as? String)
        let again = try data.users(["remove-factor", "mfa-user", workID])
        #expect(again.status == 1)
        #expect(try data.users(["remove-factor", "nobody", workID]).stderr == "hearth: no user with uid nobody\n")
    }

    @Test("list pages through more than 1000 users, as a table or JSON lines, and --limit stops early")
    func listPages() throws {
        let data = try UsersDataDirectory()
        let users = (0..<2500).map { index in
            ["localId": String(format: "user-%05d", index), "email": "user\(index)@example.com", "createdAt": "1600000000000"]
        }
        let imported = try data.users(["import", try data.file(["users": users])])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 2500 of 2500 users from "))

        let listed = try data.listed()
        #expect(listed.map { $0["localId"] as? String } == users.map { $0["localId"] })
        #expect(try data.listed(["--limit", "1500"]).count == 1500)
        #expect(try data.listed(["--limit", "3"]).map { $0["localId"] as? String } == ["user-00000", "user-00001", "user-00002"])

        let table = try data.users(["list"])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 2501)
        #expect(lines.first?.hasPrefix("UID") == true)
        #expect(lines.first?.contains("PROVIDERS") == true && lines.first?.contains("CREATED (UTC)") == true)
        #expect(lines[1].hasPrefix("user-00000 ") && lines[1].contains("user0@example.com"))
        #expect(lines[1].contains("2020-09-13T12:26:40"))
    }

    /// Users with every field an export carries: providers, claims, phone factors, timestamps, disabled.
    static var richUsers: [[String: Any]] { [
        [
            "localId": "rich-1", "email": "rich@example.com", "emailVerified": true, "displayName": "Rich \"}] \u{e9}",
            "photoUrl": "https://example.com/r.png", "phoneNumber": "+15550004444", "disabled": true,
            "customAttributes": #"{"admin":true}"#, "createdAt": "1500000000000", "lastSignedInAt": "1600000000123",
            "providerUserInfo": [[
                "providerId": "google.com", "rawId": "g-123", "email": "rich@gmail.com", "displayName": "Rich G",
                "photoUrl": "https://example.com/g.png",
            ]],
            "mfaInfo": [["phoneInfo": "+15550005555", "displayName": "phone"]],
        ],
        ["localId": "plain-2", "createdAt": "1400000000000"],
    ] }

    @Test("export writes firebase auth:export JSON (mode 0600) that imports into another data dir as the same users")
    func exportImportRoundTrip() throws {
        let source = try UsersDataDirectory()
        let seeded = try source.users(["import", try source.file(["users": Self.richUsers])])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let out = source.server.dataDirectory.appendingPathComponent("export.json").path
        // An older export that others could read is replaced by an owner-only file, not rewritten in place.
        #expect(FileManager.default.createFile(atPath: out, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        let exported = try source.users(["export", "--out", out])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasPrefix("Exported 2 users to \(out)"))
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let rows = try #require(file["users"] as? [[String: Any]])
        let rich = try #require(rows.first { $0["localId"] as? String == "rich-1" })
        #expect(rich["lastSignedInAt"] as? String == "1600000000123")
        #expect(rich["createdAt"] as? String == "1500000000000")
        #expect(rich["lastLoginAt"] == nil && rich["validSince"] == nil && rich["passwordHash"] == nil)
        #expect(Set(rich.keys).isSubset(of: [
            "localId", "email", "emailVerified", "displayName", "photoUrl", "phoneNumber", "disabled", "customAttributes",
            "providerUserInfo", "mfaInfo", "createdAt", "lastSignedInAt",
        ]), "only keys firebase auth:import accepts")
        #expect((rich["providerUserInfo"] as? [[String: Any]])?.map { $0["providerId"] as? String } == ["google.com"])

        let target = try UsersDataDirectory()
        let imported = try target.users(["import", out])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 2 of 2 users"))
        let before = try source.listed().map(Self.comparable)
        let after = try target.listed().map(Self.comparable)
        #expect(before.count == 2)
        #expect(before == after)
        let copy = try target.show("rich-1")
        #expect(copy["displayName"] as? String == #"Rich "}] é"#)
        #expect((copy["mfaInfo"] as? [[String: Any]])?.first?["phoneInfo"] as? String == "+15550005555")
        #expect(copy["lastLoginAt"] as? String == "1600000000123")

        let stdout = try source.users(["export"])
        #expect(stdout.status == 0)
        let streamed = try #require(try JSONSerialization.jsonObject(with: Data(stdout.stdout.utf8)) as? [String: Any])
        #expect((streamed["users"] as? [Any])?.count == 2)
        #expect(stdout.stderr == "hearth: Exported 2 users.\n")
    }

    @Test("import and export count users on stderr when it is a terminal")
    func progressOnTerminal() throws {
        let data = try UsersDataDirectory()
        let file = try data.file(["users": Self.richUsers])
        let out = data.server.dataDirectory.appendingPathComponent("export.json").path
        // script(1) (util-linux, essential on Debian) runs the command on a pseudo-terminal and copies what it prints.
        let command = [HearthProcess.executable.path, "users"].joined(separator: " ")
        let dir = "--data-dir '\(data.path)'"
        let result = try runProgramSplit(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", "\(command) import '\(file)' \(dir) && \(command) export --out '\(out)' \(dir)", "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\rhearth: imported 2 users"), "\(result.stdout)")
        #expect(result.stdout.contains("\rhearth: exported 2 users"), "\(result.stdout)")
    }

    @Test("export leaves out TOTP factors (their secrets stay on the server) and says so; remove-factor removes one")
    func totpFactors() throws {
        let data = try UsersDataDirectory()
        try data.server.start()
        let client = MFATests.Client(server: data.server)
        let session = try SignedIn(client.signIn("totp-user@example.com"))
        _ = try client.enrollTOTP(session)
        data.server.stop()
        let uid = try #require(try data.listed().first?["localId"] as? String)
        let factor = try #require((try data.show(uid)["mfaInfo"] as? [[String: Any]])?.first)
        #expect(factor["totpInfo"] != nil)

        let exported = try data.users(["export"])
        #expect(exported.status == 0)
        #expect(exported.stderr == "hearth: Exported 1 users. 1 TOTP factors were left out: their users enroll again after an import.\n")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let user = try #require((file["users"] as? [[String: Any]])?.first)
        #expect(user["mfaInfo"] == nil)
        #expect(!exported.stdout.contains("totpInfo") && !exported.stdout.contains("mfaEnrollmentId"))
        #expect((user["providerUserInfo"] as? [[String: Any]])?.first?["providerId"] as? String == "google.com")

        let removed = try data.users(["remove-factor", uid, try #require(factor["mfaEnrollmentId"] as? String)])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("(TOTP)") && removed.stdout.contains("0 remain"))
        #expect(try data.show(uid)["mfaInfo"] == nil)
    }

    /// A listed record without what an import makes anew (validSince, factor ids and enrolment times).
    static func comparable(_ record: [String: Any]) -> String {
        var record = record
        record["validSince"] = nil
        record["mfaInfo"] = (record["mfaInfo"] as? [[String: Any]])?.map { factor in
            factor.filter { $0.key != "mfaEnrollmentId" && $0.key != "enrolledAt" }
        }
        let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    @Test("import reports each bad row by index, uid and reason, imports the rest, and exits 1")
    func importReportsRows() throws {
        let data = try UsersDataDirectory()
        #expect(try data.users(["create", "--uid", "taken", "--email", "taken@example.com"]).status == 0)
        let text = """
            {"kind": "ignored", "users": [
              {"localId": "ok-1", "email": "ok1@example.com", "displayName": "a ] } \\" \\\\ b"},
              {"localId": "hash-1", "email": "hash@example.com", "passwordHash": "c2VjcmV0", "salt": "c2FsdA=="},
              {"email": "nouid@example.com"},
              "not an object",
              {"localId": "ok-1"},
              {"localId": "taken"},
              {"localId": "clash", "email": "taken@example.com"},
              {"localId": "claims", "customAttributes": "{\\"sub\\":\\"x\\"}"},
              {"localId": "ok-2", "lastSignedInAt": "1600000000000"}
            ], "trailer": {"a": [1, "]"]}}
            """
        let result = try data.users(["import", try data.write(Data(text.utf8))])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("Imported 2 of 9 users from "), "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("hearth: users[1] uid hash-1: hashAlgorithm is required to import a password hash"), "\(lines)")
        #expect(lines.contains("hearth: users[2]: localId is missing"))
        #expect(lines.contains("hearth: users[3]: not a JSON object"))
        #expect(lines.contains("hearth: users[4] uid ok-1: localId repeats an earlier row"))
        #expect(lines.contains("hearth: users[5] uid taken: localId belongs to an existing account - can not overwrite."))
        #expect(lines.contains("hearth: users[6] uid clash: email exists in other account in database"))
        #expect(lines.contains("hearth: users[7] uid claims: Custom claims provided include a reserved claim."))
        #expect(lines.last == "hearth: 7 users were not imported (listed above)")
        #expect(try data.show("ok-1")["displayName"] as? String == #"a ] } " \ b"#)
        #expect(try data.show("ok-2")["lastLoginAt"] as? String == "1600000000000")
        #expect(try data.listed().count == 3)
    }

    @Test("a file that is not a users export is refused with where reading stopped")
    func importRefusesOtherFiles() throws {
        let data = try UsersDataDirectory()
        let texts = [
            "not json", #"{"people": []}"#, #"{"users": [{"localId": "a"}"#, #"{"users": []} trailing"#, "[]",
            #"{"users": [{"localId": "b", "displayName": "unterminated}]}"#,
        ]
        for text in texts {
            let path = try data.write(Data(text.utf8))
            let result = try data.users(["import", path])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("hearth: \(path) is not a users export"), "\(text): \(result.stderr)")
        }
        #expect(try data.listed().isEmpty)
        let path = try data.write(Data("{}".utf8))
        let missing = try data.users(["import", path + ".missing"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "hearth: cannot read \(path).missing: No such file or directory\n")
        let folder = try data.users(["import", data.path])
        #expect(folder.stderr == "hearth: cannot read \(data.path): it is a directory\n")
        let unwritable = try data.users(["export", "--out", data.path + "/no/such/folder/users.json"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr == "hearth: cannot create \(data.path)/no/such/folder/users.json: No such file or directory\n")
    }
}
