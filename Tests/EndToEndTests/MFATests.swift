import Foundation
import HearthCore
import HearthHTTP
import Testing

/// Second factors against the real binary, with the requests the Firebase iOS SDK sends (v2 paths).
@Suite("Multi-factor (e2e)", .blocking)
struct MFATests {
    struct Client {
        let server: HearthProcess

        func v2(_ name: String, _ body: [String: Any]) throws -> HTTPResult {
            try server.postJSON("/identitytoolkit.googleapis.com/v2/accounts/\(name)?key=ios-key", body)
        }

        func signIn(_ email: String) throws -> HTTPResult {
            try FirebaseIOSClient(server: server).verifyAssertion(
                idToken: try DevGoogle(server: server).signIn(email: email).idToken, accessToken: nil)
        }

        /// SMS codes the dev sender delivered and whose session is still open.
        func codes() throws -> [[String: Any]] {
            try server.request("GET", "/emulator/v1/projects/demo-hearth/verificationCodes").json["verificationCodes"] as? [[String: Any]] ?? []
        }

        func code(for sessionInfo: String) throws -> String? {
            try codes().first { $0["sessionInfo"] as? String == sessionInfo }?["code"] as? String
        }

        /// Enrols an authenticator app with the current step's code; returns the shared secret.
        func enrollTOTP(_ session: SignedIn) throws -> String {
            let start = try v2("mfaEnrollment:start", ["idToken": session.idToken, "totpEnrollmentInfo": [:]])
            let info = try #require(start.json["totpSessionInfo"] as? [String: Any])
            let secret = try #require(info["sharedSecretKey"] as? String)
            _ = try v2("mfaEnrollment:finalize", [
                "idToken": session.idToken,
                "totpVerificationInfo": ["sessionInfo": info["sessionInfo"]!, "verificationCode": MFATests.totpCode(secret, stepOffset: 0)],
            ])
            return secret
        }
    }

    static func totpCode(_ secret: String, stepOffset: Int64) -> String {
        let totp = TOTP()
        return totp.code(secret: Base32.decode(secret)!, step: totp.step(at: Int64(Date().timeIntervalSince1970)) + stepOffset)
    }

    @Test("TOTP: enrol, sign-in stops with a pending credential and masked factors, finish, claims survive refresh, replay refused")
    func totp() throws {
        let server = HearthProcess()
        try server.start()
        let client = Client(server: server)
        let session = try SignedIn(client.signIn("totp@example.com"))

        let start = try client.v2("mfaEnrollment:start", ["idToken": session.idToken, "totpEnrollmentInfo": [:]])
        #expect(start.status == 200, "\(start.text)")
        let info = try #require(start.json["totpSessionInfo"] as? [String: Any])
        #expect(info["verificationCodeLength"] as? Int == 6)
        #expect(info["periodSec"] as? Int == 30)
        #expect(info["hashingAlgorithm"] as? String == "SHA1")
        #expect((info["finalizeEnrollmentTime"] as? String)?.hasSuffix("Z") == true)
        let secret = try #require(info["sharedSecretKey"] as? String)
        let finalize = try client.v2("mfaEnrollment:finalize", [
            "idToken": session.idToken, "displayName": "Authenticator app",
            "totpVerificationInfo": ["sessionInfo": info["sessionInfo"]!, "verificationCode": Self.totpCode(secret, stepOffset: 0)],
        ])
        #expect(finalize.status == 200, "\(finalize.text)")
        #expect(finalize.json["totpAuthInfo"] != nil)
        let enrolledToken = try #require(finalize.json["idToken"] as? String)
        #expect((JWTParts.claims(enrolledToken)["firebase"] as? [String: Any])?["sign_in_second_factor"] as? String == "totp")

        let lookup = try FirebaseIOSClient(server: server).getAccountInfo(idToken: enrolledToken)
        let factor = try #require(((lookup.json["users"] as? [[String: Any]])?.first?["mfaInfo"] as? [[String: Any]])?.first)
        #expect(factor["totpInfo"] != nil)
        #expect(lookup.text.contains(secret) == false, "the secret is never returned after enrolment")
        let enrollmentID = try #require(factor["mfaEnrollmentId"] as? String)

        let stopped = try client.signIn("totp@example.com")
        #expect(stopped.status == 200)
        #expect(stopped.json["idToken"] == nil && stopped.json["refreshToken"] == nil)
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String)
        #expect((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String == enrollmentID)

        // The enrolment used the current step; the next step's code (within the ±1 window) is new.
        let code = Self.totpCode(secret, stepOffset: 1)
        let wrong = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": code == "000000" ? "111111" : "000000"],
        ])
        #expect(wrong.errorMessage?.hasPrefix("INVALID_CODE") == true)
        let done = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "totpVerificationInfo": ["verificationCode": code],
        ])
        #expect(done.status == 200, "\(done.text)")
        #expect(done.json["expiresIn"] == nil, "mfaSignIn:finalize answers no expiresIn, as Firebase")
        let refreshToken = try #require(done.json["refreshToken"] as? String)
        let refreshed = try FirebaseIOSClient(server: server).refresh(refreshToken)
        let claims = JWTParts.claims(try #require(refreshed.json["id_token"] as? String))
        let firebase = try #require(claims["firebase"] as? [String: Any])
        #expect(firebase["sign_in_second_factor"] as? String == "totp")
        #expect(firebase["second_factor_identifier"] as? String == enrollmentID)

        let again = try #require(try client.signIn("totp@example.com").json["mfaPendingCredential"] as? String)
        let replay = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": again, "mfaEnrollmentId": enrollmentID, "totpVerificationInfo": ["verificationCode": code],
        ])
        #expect(replay.errorMessage?.hasPrefix("INVALID_CODE") == true, "a TOTP code is accepted once per factor")
    }

    @Test("attempt limit: the fifth wrong code ends the pending credential")
    func attemptLimit() throws {
        let server = HearthProcess()
        try server.start()
        let client = Client(server: server)
        let session = try SignedIn(client.signIn("limit@example.com"))
        let secret = try client.enrollTOTP(session)
        let stopped = try client.signIn("limit@example.com")
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String)
        let enrollmentID = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
        let right = Self.totpCode(secret, stepOffset: 1)
        let wrong = right == "000000" ? "111111" : "000000"
        var messages: [String] = []
        for _ in 0..<5 {
            let response = try client.v2("mfaSignIn:finalize", [
                "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "totpVerificationInfo": ["verificationCode": wrong],
            ])
            messages.append(response.errorMessage ?? "")
        }
        #expect(messages.prefix(4).allSatisfy { $0.hasPrefix("INVALID_CODE") })
        #expect(messages.last?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
        let after = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "totpVerificationInfo": ["verificationCode": right],
        ])
        #expect(after.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL") == true)
    }

    @Test("an expired pending credential is refused (lifetime shortened by configuration)")
    func expiredPendingCredential() throws {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: ["mfa": ["enabled": true, "pendingCredentialLifetimeSeconds": 1]]).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path], dataDirectory: directory)
        try server.start()
        let client = Client(server: server)
        let session = try SignedIn(client.signIn("late@example.com"))
        let secret = try client.enrollTOTP(session)
        let stopped = try client.signIn("late@example.com")
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String)
        let enrollmentID = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
        Thread.sleep(forTimeInterval: 2.1)
        let late = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": Self.totpCode(secret, stepOffset: 1)],
        ])
        #expect(late.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL") == true, "\(late.text)")
    }

    @Test("phone: codes through the dev sender and the emulator's verificationCodes endpoint; withdraw")
    func phone() throws {
        let server = HearthProcess()
        try server.start()
        let client = Client(server: server)
        let session = try SignedIn(client.signIn("phone@example.com"))
        let start = try client.v2("mfaEnrollment:start", ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550100"]])
        let sessionInfo = try #require((start.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let code = try #require(try client.code(for: sessionInfo))
        #expect(server.waitForLine { $0.contains(code) }, "the dev sender logs the code, like the Firebase emulator")
        let finalize = try client.v2("mfaEnrollment:finalize", [
            "idToken": session.idToken, "displayName": "Work phone",
            "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code],
        ])
        #expect(finalize.status == 200, "\(finalize.text)")
        #expect(try client.code(for: sessionInfo) == nil, "a used code disappears from the listing")

        let stopped = try client.signIn("phone@example.com")
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String)
        let hint = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first)
        #expect(hint["phoneInfo"] as? String == "+*******0100")
        #expect(hint["displayName"] as? String == "Work phone")
        // Right after enrolling: the enrolment code was used, so it does not hold back this one.
        let signInStart = try client.v2("mfaSignIn:start", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": hint["mfaEnrollmentId"]!,
            "phoneSignInInfo": ["phoneNumber": hint["phoneInfo"]!],
        ])
        #expect(signInStart.status == 200, "\(signInStart.text)")
        let signInSession = try #require((signInStart.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let signInCode = try #require(try client.code(for: signInSession))
        let done = try client.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": signInSession, "code": signInCode],
        ])
        #expect(done.status == 200, "\(done.text)")
        let idToken = try #require(done.json["idToken"] as? String)
        #expect((JWTParts.claims(idToken)["firebase"] as? [String: Any])?["sign_in_second_factor"] as? String == "phone")

        let withdraw = try client.v2("mfaEnrollment:withdraw", ["idToken": idToken, "mfaEnrollmentId": hint["mfaEnrollmentId"]!])
        #expect(withdraw.status == 200)
        #expect(try client.signIn("phone@example.com").json["idToken"] != nil, "no second factor after withdrawal")
    }

    @Test("phone codes delivered through the webhook sender to a local receiver")
    func webhookDelivery() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: ["sms": ["webhookUrl": "http://127.0.0.1:\(receiver.port)/sms"]]).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path], dataDirectory: directory)
        try server.start()
        let client = Client(server: server)
        let session = try SignedIn(client.signIn("hook@example.com"))
        let start = try client.v2("mfaEnrollment:start", ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550142"]])
        #expect(start.status == 200, "\(start.text)")
        let sessionInfo = try #require((start.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let body = try #require(receiver.bodies.first)
        let message = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(message["to"] as? String == "+15555550142")
        let code = try #require(message["code"] as? String)
        #expect(!server.lines.contains { $0.contains(code) }, "only the dev sender logs codes")
        let finalize = try client.v2("mfaEnrollment:finalize", [
            "idToken": session.idToken, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code],
        ])
        #expect(finalize.status == 200, "\(finalize.text)")
    }
}
