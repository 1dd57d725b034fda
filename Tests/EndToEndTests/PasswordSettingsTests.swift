import Foundation
import Testing

/// `hearth serve`'s password settings: the config file's `passwords` object and `HEARTH_ARGON2_*` /
/// `HEARTH_PASSWORD_HASHING_CONCURRENCY`; bad values exit 64 naming the setting.
@Suite("password settings (e2e)", .blocking)
struct PasswordSettingsTests {
    @Test("bad Argon2, gate and policy settings are refused clearly, from the environment and the config file")
    func refusals() throws {
        let environmentCases: [([String: String], String)] = [
            (["HEARTH_ARGON2_MEMORY_KIB": "lots"], "HEARTH_ARGON2_MEMORY_KIB must be a whole number, not 'lots'"),
            (["HEARTH_ARGON2_MEMORY_KIB": "512"],
             "HEARTH_ARGON2_MEMORY_KIB: Argon2 memoryKiB must be between 1024 and 4194304, not 512"),
            (["HEARTH_ARGON2_ITERATIONS": "0"], "HEARTH_ARGON2_ITERATIONS: Argon2 iterations must be between 1 and 64, not 0"),
            (["HEARTH_ARGON2_PARALLELISM": "65"],
             "HEARTH_ARGON2_PARALLELISM: Argon2 parallelism must be between 1 and 64, not 65"),
            (["HEARTH_PASSWORD_HASHING_CONCURRENCY": "0"], "HEARTH_PASSWORD_HASHING_CONCURRENCY must be between 1 and 256"),
        ]
        for (environment, message) in environmentCases {
            let result = try refusedServe(environment: environment)
            #expect(result.status == 64)
            #expect(result.output.contains(message), "\(result.output)")
        }
        let fileCases: [(String, String)] = [
            (#"{"passwords": {"argon2": {"memory": 19456}}}"#, "unknown setting 'passwords.argon2.memory'"),
            (#"{"passwords": {"policy": {"minLenght": 8}}}"#, "unknown setting 'passwords.policy.minLenght'"),
            (#"{"passwords": {"hashingThreads": 2}}"#, "unknown setting 'passwords.hashingThreads'"),
            (#"{"passwords": {"argon2": {"iterations": 100}}}"#,
             "config passwords.argon2: Argon2 iterations must be between 1 and 64, not 100"),
            (#"{"passwords": {"hashingQueue": -1}}"#, "config passwords.hashingQueue must be between 0 and 10000"),
            // Password work may hold at most half the HTTP threads, so that refreshes always find one.
            (#"{"threads": 4, "passwords": {"hashingConcurrency": 2, "hashingQueue": 1}}"#,
             "passwords: hashingConcurrency + hashingQueue (3) must be at most half the HTTP threads (2 of 4)"),
            (#"{"threads": 4, "passwords": {"hashingConcurrency": 3}}"#,
             "passwords: hashingConcurrency + hashingQueue (3) must be at most half the HTTP threads (2 of 4)"),
            (#"{"passwords": {"policy": {"enforcementState": "AUDIT"}}}"#,
             "config passwords.policy.enforcementState must be ENFORCE or OFF, not 'AUDIT'"),
            (#"{"passwords": {"policy": {"minLength": 4}}}"#,
             "config password policy minLength must be between 6 and 30, not 4"),
            (#"{"passwords": {"policy": {"maxLength": 5000}}}"#,
             "config password policy maxLength must be between minLength (6) and 4096, not 5000"),
        ]
        for (json, message) in fileCases {
            let result = try refusedServe(config: json)
            #expect(result.status == 64)
            #expect(result.output.contains(message), "\(result.output)")
        }
    }

    @Test("valid password settings start the server, which serves a password policy to the web SDK's request")
    func validSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        try Data(#"""
            {"passwords": {"argon2": {"memoryKiB": 1024, "iterations": 1, "parallelism": 1}, "hashingConcurrency": 2,
             "hashingQueue": 1, "policy": {"enforcementState": "ENFORCE", "minLength": 8, "maxLength": 4096,
             "requireLowercase": true, "requireUppercase": false, "requireNumeric": false, "requireNonAlphanumeric": false}}}
            """#.utf8).write(to: file)
        let server = HearthProcess(
            arguments: ["--dev", "--config", file.path], environment: ["HEARTH_ARGON2_ITERATIONS": "2"])
        try server.start()
        let response = try server.request(
            "GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=fake-api-key",
            headers: [("X-Client-Version", "Chrome/JsCore/11.0.0/FirebaseCore-web")])
        #expect(response.status == 200)
        #expect(response.json["schemaVersion"] as? Int == 1)
        #expect(response.json["enforcementState"] as? String == "ENFORCE", "the configured policy is the one served")
        let options = try #require(response.json["customStrengthOptions"] as? [String: Any])
        #expect(options["minPasswordLength"] as? Int == 8)
        #expect(options["containsLowercaseCharacter"] as? Bool == true)
        // And enforced: a sign-up with a password the policy refuses.
        let refused = try server.request(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key",
            headers: [("Content-Type", "application/json")],
            body: Data(#"{"email":"policy@example.com","password":"ONLY-UPPER-1","returnSecureToken":true}"#.utf8))
        #expect(refused.errorMessage?.hasPrefix("PASSWORD_DOES_NOT_MEET_REQUIREMENTS") == true, "\(refused.text)")
    }
}
