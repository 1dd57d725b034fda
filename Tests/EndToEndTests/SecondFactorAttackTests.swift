import Foundation
import Testing

/// The attacks a reviewer ran against second factors, replayed against the real binary: guessing
/// TOTP codes through fresh pending credentials, and SMS toll fraud from one signed-in user.
@Suite("Second-factor attacks (e2e)", .blocking)
struct SecondFactorAttackTests {
    @Test("replaying one Google token for fresh pending credentials does not get round the factor lockout")
    func bruteForceAcrossPendingCredentials() throws {
        let server = HearthProcess()
        try server.start()
        let client = MFATests.Client(server: server)
        let session = try SignedIn(client.signIn("victim@example.com"))
        let secret = try client.enrollTOTP(session)
        // The attacker holds the first factor: one Google ID token, replayed for its whole hour.
        let googleIDToken = try DevGoogle(server: server).signIn(email: "victim@example.com").idToken
        let ios = FirebaseIOSClient(server: server)
        func pendingSignIn() throws -> (credential: String, enrollmentID: String) {
            let stopped = try ios.verifyAssertion(idToken: googleIDToken, accessToken: nil)
            let credential = try #require(stopped.json["mfaPendingCredential"] as? String, "\(stopped.text)")
            let factor = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
            return (credential, factor)
        }
        let right = MFATests.totpCode(secret, stepOffset: 1)
        var outcomes: [String] = []
        var guess = 0
        let started = Date()
        while outcomes.count < 100 {
            let pending = try pendingSignIn()
            for _ in 0..<5 {
                guess += 1
                var code = String(format: "%06d", (guess * 7_919) % 1_000_000)
                if code == right || code == MFATests.totpCode(secret, stepOffset: 0) || code == MFATests.totpCode(secret, stepOffset: -1) {
                    code = String(format: "%06d", (guess * 7_919 + 1) % 1_000_000)
                }
                let answer = try client.v2("mfaSignIn:finalize", [
                    "mfaPendingCredential": pending.credential, "mfaEnrollmentId": pending.enrollmentID,
                    "totpVerificationInfo": ["verificationCode": code],
                ])
                outcomes.append(String(answer.errorMessage?.prefix { $0 != " " } ?? "OK"))
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print("brute force: \(outcomes.count) guesses sent in \(String(format: "%.2f", seconds)) s")
        // Five guesses are checked: four answered INVALID_CODE, the fifth locks the factor. Every later
        // guess is refused unchecked, whatever pending credential it comes with.
        #expect(outcomes.prefix(4).allSatisfy { $0 == "INVALID_CODE" }, "\(outcomes)")
        #expect(outcomes.dropFirst(4).allSatisfy { $0 == "TOO_MANY_ATTEMPTS_TRY_LATER" }, "\(outcomes)")
        // While locked, even the right code is refused, through yet another pending credential.
        let pending = try pendingSignIn()
        let locked = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending.credential, "mfaEnrollmentId": pending.enrollmentID,
            "totpVerificationInfo": ["verificationCode": right],
        ])
        #expect(locked.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(locked.text)")
        #expect(server.waitForLine { $0.contains("event=lockout key=mfa-failure:factor:\(session.localID):") })
        #expect(!server.lines.contains { $0.contains(right) }, "no code reaches the log")
    }

    @Test("one signed-in user cannot send SMS to hundreds of numbers")
    func smsTollFraud() throws {
        let server = HearthProcess()
        try server.start()
        let client = MFATests.Client(server: server)
        let session = try SignedIn(client.signIn("fraud@example.com"))
        var sent = 0
        var refused = 0
        for index in 0..<200 {
            let start = try client.v2("mfaEnrollment:start", [
                "idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": String(format: "+1555555%04d", index)],
            ])
            if start.status == 200 {
                sent += 1
            } else {
                #expect(start.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(start.text)")
                refused += 1
            }
        }
        #expect(sent == 10, "the default per-account allowance is 10 SMS an hour")
        #expect(refused == 190)
        #expect(try client.codes().count == 10)
        #expect(server.waitForLine { $0.contains("event=quota_exhausted key=sms:account:\(session.localID)") })
    }

    @Test("a client that keeps failing refreshes is slowed down; other clients are not")
    func refreshFailureBucket() throws {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: [
            "rateLimits": ["refreshFailuresPerClient": ["burst": 5, "perMinute": 1]],
            "trustedProxies": ["127.0.0.1"],
        ]).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path], dataDirectory: directory)
        try server.start()
        let ios = FirebaseIOSClient(server: server)
        let attacker = [("X-Forwarded-For", "203.0.113.50")]
        var answers: [String] = []
        for index in 0..<8 {
            let result = try server.postJSON(
                "/securetoken.googleapis.com/v1/token?key=ios-key",
                ["grantType": "refresh_token", "refreshToken": "guessed-\(index)"], headers: attacker)
            answers.append(result.errorMessage ?? "OK")
        }
        #expect(answers.prefix(5).allSatisfy { $0.hasPrefix("INVALID_REFRESH_TOKEN") }, "\(answers)")
        #expect(answers.dropFirst(5).allSatisfy { $0.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") }, "\(answers)")
        // A legitimate client behind the same proxy is a different client.
        let session = try SignedIn(MFATests.Client(server: server).signIn("fine@example.com"))
        let refreshed = try ios.refresh(session.refreshToken)
        #expect(refreshed.status == 200, "\(refreshed.text)")
    }
}
