import Foundation
import Testing

/// `hearth users import` with `firebase auth:import`'s hash options on a Firebase export file, and the hashes
/// `hearth users export` writes back (which an import without options takes unchanged).
@Suite("hearth users import with password hashes (e2e)", .blocking)
struct UsersImportHashesTests {
    typealias DataDirectory = UsersCommandTests.UsersDataDirectory

    /// A `firebase auth:export` file of users whose hashes are the firebase/scrypt README's vector.
    static var firebaseExport: [String: Any] { [
        "users": [
            [
                "localId": "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2", "email": "user1@test.com", "emailVerified": false,
                "passwordHash": "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
                "salt": "42xEC+ixf3L2lw==", "displayName": "Test User 1", "createdAt": "1508893925000",
                "lastSignedInAt": "1508893925000",
            ],
            ["localId": "no-password", "email": "nopass@test.com", "passwordHash": "", "salt": ""],
            ["localId": "bad-hash", "email": "bad@test.com", "passwordHash": "AAAA", "salt": "42xEC+ixf3L2lw=="],
        ]
    ] }

    static let scryptOptions = [
        "--hash-algo", "scrypt", "--hash-key",
        "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
        "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14",
    ]

    /// The stored hash of each exported user that has one, decoded from the export's base64.
    static func exportedHashes(_ data: DataDirectory) throws -> [String: String] {
        let exported = try data.users(["export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        var hashes: [String: String] = [:]
        for user in object["users"] as? [[String: Any]] ?? [] {
            guard let text = user["passwordHash"] as? String else { continue }
            let bytes = try #require(Data(base64Encoded: text))
            hashes[user["localId"] as? String ?? ""] = String(decoding: bytes, as: UTF8.self)
        }
        return hashes
    }

    @Test("Firebase scrypt hashes import with the project's parameters and survive export and re-import")
    func scryptImportAndRoundTrip() throws {
        let data = try DataDirectory()
        let result = try data.users(["import", try data.file(Self.firebaseExport)] + Self.scryptOptions)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("Imported 2 of 3 users"), "\(result.stdout)")
        #expect(result.stderr.contains("users[2] uid bad-hash: a SCRYPT passwordHash is as long as the signer key"), "\(result.stderr)")
        let user = try data.show("kYi4EvWQlQTKSfnJ3dRSP6IH3ed2")
        let providers = (user["providerUserInfo"] as? [[String: Any]] ?? []).compactMap { $0["providerId"] as? String }
        #expect(providers == ["password"])
        #expect(try data.show("no-password")["passwordHash"] == nil)

        let hashes = try Self.exportedHashes(data)
        #expect(Array(hashes.keys) == ["kYi4EvWQlQTKSfnJ3dRSP6IH3ed2"])
        let stored = try #require(hashes["kYi4EvWQlQTKSfnJ3dRSP6IH3ed2"])
        #expect(stored.hasPrefix("$hearth-import-v1$alg=SCRYPT,rounds=8,mem=14,key=jxspr8Ki0RYy"), "\(stored)")
        #expect(stored.hasSuffix("$42xEC-ixf3L2lw$lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ"))

        // Hearth's own export goes back in without hash options, hash for hash.
        let exported = try data.users(["export", "--out", data.server.dataDirectory.appendingPathComponent("out.json").path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let copy = try DataDirectory()
        let again = try copy.users(["import", data.server.dataDirectory.appendingPathComponent("out.json").path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.exportedHashes(copy) == hashes)
    }

    @Test("HMAC hashes take the key and the input order as firebase auth:import names them")
    func hmacOptions() throws {
        let data = try DataDirectory()
        let file = try data.file(["users": [
            ["localId": "h1", "email": "h1@example.com", "passwordHash": "ExOA8YX6DO2P838cxsMMdHTddVwTeqjm1H9BMFO7qWE=", "salt": "TmFDbA=="],
        ]])
        let result = try data.users(["import", file, "--hash-algo", "HMAC_SHA256", "--hash-key", "c2VjcmV0", "--hash-input-order", "SALT_FIRST"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.exportedHashes(data)["h1"] == "$hearth-import-v1$alg=HMAC_SHA256,order=SALT_AND_PASSWORD,key=c2VjcmV0$TmFDbA$ExOA8YX6DO2P838cxsMMdHTddVwTeqjm1H9BMFO7qWE")
    }

    @Test("bad hash options are usage errors before any user is read")
    func badOptions() throws {
        let data = try DataDirectory()
        let file = try data.file(["users": [["localId": "u1"]]])
        for (options, message) in [
            (["--hash-algo", "SHA256", "--rounds", "9000"], "rounds must be from 0 to 8192."),
            (["--hash-algo", "ARGON2"], "Hearth imports SCRYPT"),
            (["--hash-algo", "SCRYPT", "--rounds", "8", "--mem-cost", "14"], "signerKey is required"),
            (["--rounds", "5"], "--rounds needs --hash-algo"),
            (["--hash-algo", "SHA1", "--rounds", "many"], "--rounds must be a whole number"),
            (["--hash-algo", "SHA1", "--rounds", "1", "--hash-input-order", "SIDEWAYS"], "--hash-input-order is SALT_FIRST or PASSWORD_FIRST"),
        ] {
            let result = try data.users(["import", file] + options)
            #expect(result.status != 0)
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        #expect(try data.listed().isEmpty)
    }
}
