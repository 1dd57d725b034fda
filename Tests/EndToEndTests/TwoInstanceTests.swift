import Foundation
import Testing

/// Two Hearth instances on one PostgreSQL database act as one: whatever one of them does, the other sees at the next
/// request (sessions, revocations, accounts, keys, second factors, SMS throttles, the dev IdP's codes), and nothing an
/// instance acknowledged is lost when it dies.
@Suite("Two instances on PostgreSQL (e2e)", .blocking, .serialized)
struct TwoInstanceTests {
    private static func signIn(_ server: HearthProcess, email: String) throws -> SignedIn {
        try SignedIn(
            FirebaseIOSClient(server: server).verifyAssertion(
                idToken: try DevGoogle(server: server).signIn(email: email).idToken, accessToken: nil))
    }

    @Test("a sign-in on A refreshes on B, and the rotated token on A again")
    func refreshAcross() throws {
        let pair = try InstancePair()
        let session = try Self.signIn(pair.a, email: "across@example.com")
        let onB = try FirebaseIOSClient(server: pair.b).refresh(session.refreshToken)
        #expect(onB.status == 200, "\(onB.text)")
        #expect(onB.json["user_id"] as? String == session.localID)
        let rotated = try #require(onB.json["refresh_token"] as? String)
        #expect(try FirebaseIOSClient(server: pair.a).refresh(rotated).status == 200)
    }

    @Test("a tenant made on A signs in on B; disabled, re-enabled and deleted on A, B follows within the 5 s bound")
    func tenantAcross() throws {
        let pair = try InstancePair()
        let owner = [("Authorization", "Bearer owner")]
        let tenants = "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants"
        let made = try pair.a.postJSON(tenants, ["displayName": "Pair-Tenant"], headers: owner)
        let tenant = try #require((made.json["name"] as? String)?.split(separator: "/").last.map(String.init))
        func signInOnB() throws -> HTTPResult {
            let idToken = try DevGoogle(server: pair.b).signIn(email: "pair-tenant@example.com").idToken
            return try pair.b.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k", [
                "requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=\(idToken)",
                "returnSecureToken": true, "tenantId": tenant,
            ])
        }
        let first = try signInOnB()
        #expect(first.status == 200, "B reads a tenant it never saw at once: \(first.text)")
        #expect((JWTParts.claims(try #require(first.json["idToken"] as? String))["firebase"] as? [String: Any])?["tenant"]
            as? String == tenant)

        func patch(_ body: [String: Any]) throws {
            let answer = try pair.a.request(
                "PATCH", "\(tenants)/\(tenant)?updateMask=disableAuth",
                headers: owner + [("Content-Type", "application/json")], body: try JSONSerialization.data(withJSONObject: body))
            #expect(answer.status == 200, "\(answer.text)")
        }
        // The bound is 5 s (TenantPlatforms' record cache); 3 s more for the requests themselves on a loaded machine.
        try patch(["disableAuth": true])
        let refused = try ProviderConfigTwoInstanceTests.poll(for: 8, signInOnB) { $0.status == 400 }
        #expect(refused.errorMessage?.hasPrefix("PROJECT_DISABLED") == true, "\(refused.text)")
        try patch(["disableAuth": false])
        let again = try ProviderConfigTwoInstanceTests.poll(for: 8, signInOnB) { $0.status == 200 }
        #expect(again.status == 200 && again.json["localId"] as? String == first.json["localId"] as? String, "\(again.text)")

        let deleted = try pair.a.request("DELETE", "\(tenants)/\(tenant)", headers: owner)
        #expect(deleted.status == 200, "\(deleted.text)")
        let gone = try ProviderConfigTwoInstanceTests.poll(for: 8, signInOnB) { $0.status == 400 }
        #expect(gone.errorMessage?.hasPrefix("TENANT_NOT_FOUND") == true, "\(gone.text)")
    }

    @Test("a configuration change on A is enforced on B within the 5 s bound: anonymous sign-up off, then on again")
    func configAcross() throws {
        let pair = try InstancePair()
        func signUpOnB() throws -> HTTPResult { try FirebaseIOSClient(server: pair.b).signUpAnonymously() }
        #expect(try signUpOnB().status == 200, "B has read the configuration (and cached it)")
        func patch(_ enabled: Bool) throws {
            let answer = try ProjectConfigAPITests.patch(
                pair.a, "signIn.anonymous.enabled", ["signIn": ["anonymous": ["enabled": enabled]]])
            #expect(answer.status == 200, "\(answer.text)")
        }
        try patch(false)
        #expect(try FirebaseIOSClient(server: pair.a).signUpAnonymously().errorMessage?.hasPrefix("ADMIN_ONLY_OPERATION") == true,
                "A, which wrote it, enforces it at once")
        // The bound is 5 s (ProjectConfigDirectory's cache); 3 s more for the requests themselves on a loaded machine.
        let refused = try ProviderConfigTwoInstanceTests.poll(for: 8, signUpOnB) { $0.status == 400 }
        #expect(refused.errorMessage?.hasPrefix("ADMIN_ONLY_OPERATION") == true, "\(refused.text)")
        let read = try pair.b.request("GET", ProjectConfigAPITests.config, headers: ProjectConfigAPITests.owner)
        #expect(((read.json["signIn"] as? [String: Any])?["anonymous"] as? [String: Any])?["enabled"] as? Bool == false,
                "B's GET reads the store: \(read.text)")
        try patch(true)
        let again = try ProviderConfigTwoInstanceTests.poll(for: 8, signUpOnB) { $0.status == 200 }
        #expect(again.status == 200, "\(again.text)")

        // The password policy through A: B holds new passwords to it within the bound too.
        let policy = try ProjectConfigAPITests.patch(pair.a, "passwordPolicyConfig", [
            "passwordPolicyConfig": [
                "passwordPolicyEnforcementState": "ENFORCE",
                "passwordPolicyVersions": [["customStrengthOptions": ["minPasswordLength": 12]]],
            ],
        ])
        #expect(policy.status == 200, "\(policy.text)")
        var attempt = 0
        let weak = try ProviderConfigTwoInstanceTests.poll(for: 8, {
            attempt += 1
            return try pair.b.postJSON(
                "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=web-key",
                ["email": "policy\(attempt)@example.com", "password": "short-pass", "returnSecureToken": true])
        }) { $0.status == 400 }
        #expect(weak.errorMessage?.hasPrefix("PASSWORD_DOES_NOT_MEET_REQUIREMENTS") == true, "\(weak.text)")
    }

    @Test("disabling, revoking and deleting through B's admin API are refused on A at the next refresh")
    func revocationAcross() throws {
        let pair = try InstancePair()
        let session = try Self.signIn(pair.a, email: "revoked@example.com")
        let a = FirebaseIOSClient(server: pair.a)
        let adminB = FirebaseAdminClient(server: pair.b)

        let disable = try adminB.post("/accounts:update", #"{"localId": "\#(session.localID)", "disableUser": true}"#)
        #expect(disable.status == 200, "\(disable.text)")
        #expect(try a.refresh(session.refreshToken).errorMessage == "USER_DISABLED")
        _ = try adminB.post("/accounts:update", #"{"localId": "\#(session.localID)", "disableUser": false}"#)
        let refreshed = try a.refresh(session.refreshToken)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        let current = try #require(refreshed.json["refresh_token"] as? String)

        // firebase-admin's revoke_refresh_tokens: validSince now, in seconds.
        let now = Int64(Date().timeIntervalSince1970)
        let revoke = try adminB.post("/accounts:update", #"{"localId": "\#(session.localID)", "validSince": \#(now)}"#)
        #expect(revoke.status == 200, "\(revoke.text)")
        #expect(try a.refresh(current).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)

        let again = try Self.signIn(pair.a, email: "revoked@example.com")
        let delete = try adminB.post("/accounts:delete", #"{"localId": "\#(session.localID)"}"#)
        #expect(delete.status == 200, "\(delete.text)")
        #expect(try a.refresh(again.refreshToken).errorMessage == "USER_NOT_FOUND")
    }

    @Test("50 concurrent first sign-ins of one Google account, spread over A and B, make exactly one account")
    func oneAccountUnderConcurrentSignIns() throws {
        let pair = try InstancePair()
        let google = DevGoogle(server: pair.a)
        let idTokens = try (0..<50).map { _ in try google.signIn(email: "race@example.com").idToken }
        let results = Locked<[HTTPResult]>([])
        let (a, b) = (pair.a, pair.b)
        DispatchQueue.concurrentPerform(iterations: idTokens.count) { index in
            let server = index.isMultiple(of: 2) ? a : b
            if let result = try? FirebaseIOSClient(server: server).verifyAssertion(idToken: idTokens[index], accessToken: nil) {
                results.withLock { $0.append(result) }
            }
        }
        let answers = results.value
        #expect(answers.count == 50)
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.filter { $0.status != 200 }.map(\.text))")
        #expect(Set(answers.compactMap { $0.json["localId"] as? String }).count == 1)
        #expect(answers.filter { $0.json["isNewUser"] as? Bool == true }.count == 1)
        let listed = try pair.runCommand(["users", "list", "--json"])
        #expect(listed.status == 0, "\(listed.output)")
        #expect(listed.output.split(separator: "\n").filter { $0.hasPrefix("{") }.count == 1)
    }

    @Test("a key rotated with `hearth keys rotate --database` signs on both instances, and both publish both keys")
    func keyRotationAcross() throws {
        let pair = try InstancePair()
        let onA = try Self.signIn(pair.a, email: "keys@example.com")
        let oldKid = try #require(JWTParts.header(onA.idToken)["kid"] as? String)
        let rotate = try pair.runCommand(["keys", "rotate"])
        #expect(rotate.status == 0, "\(rotate.output)")

        func publishedKids(_ server: HearthProcess) throws -> Set<String> {
            let keys = try server.request("GET", "/.well-known/jwks.json").json["keys"] as? [[String: Any]] ?? []
            return Set(keys.compactMap { $0["kid"] as? String })
        }
        // Each instance reloads the keys from the database within its reload interval (5 s): poll, bounded.
        var refreshToken = onA.refreshToken
        var newKid = oldKid
        var newToken = ""
        let deadline = Date().addingTimeInterval(30)
        while newKid == oldKid, Date() < deadline {
            let refreshed = try FirebaseIOSClient(server: pair.b).refresh(refreshToken)
            refreshToken = refreshed.json["refresh_token"] as? String ?? refreshToken
            newToken = refreshed.json["id_token"] as? String ?? ""
            newKid = JWTParts.header(newToken)["kid"] as? String ?? oldKid
            if newKid == oldKid { usleep(200_000) }
        }
        #expect(newKid != oldKid, "B signs with the rotated key")
        while try publishedKids(pair.a).count < 2, Date() < deadline { usleep(200_000) }
        #expect(try publishedKids(pair.a) == [oldKid, newKid])
        #expect(try publishedKids(pair.b) == [oldKid, newKid])
        // A checks the new key's tokens at once (an unknown kid makes it reload), and still the old key's.
        #expect(try FirebaseIOSClient(server: pair.a).getAccountInfo(idToken: newToken).status == 200)
        #expect(try FirebaseIOSClient(server: pair.b).getAccountInfo(idToken: onA.idToken).status == 200)
    }

    @Test("an MFA sign-in started on A (pending credential) is finished on B")
    func secondFactorAcross() throws {
        let pair = try InstancePair()
        let clientA = MFATests.Client(server: pair.a)
        let clientB = MFATests.Client(server: pair.b)
        let secret = try clientA.enrollTOTP(SignedIn(clientA.signIn("mfa2@example.com")))
        let stopped = try clientA.signIn("mfa2@example.com")
        let pending = try #require(stopped.json["mfaPendingCredential"] as? String)
        let enrollmentID = try #require((stopped.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String)
        let done = try clientB.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": MFATests.totpCode(secret, stepOffset: 1)],
        ])
        #expect(done.status == 200, "\(done.text)")
        let refreshToken = try #require(done.json["refreshToken"] as? String)
        #expect(try FirebaseIOSClient(server: pair.a).refresh(refreshToken).status == 200)
        let replay = try clientA.v2("mfaSignIn:finalize", [
            "mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID,
            "totpVerificationInfo": ["verificationCode": MFATests.totpCode(secret, stepOffset: 1)],
        ])
        #expect(replay.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL") == true, "\(replay.text)")
    }

    @Test("the SMS throttle holds across A and B: of 10 concurrent codes for one number, one is sent")
    func smsThrottleAcross() throws {
        let pair = try InstancePair()
        let clientA = MFATests.Client(server: pair.a)
        let clientB = MFATests.Client(server: pair.b)
        let sessionA = try SignedIn(clientA.signIn("sms@example.com"))
        let sessionB = try SignedIn(clientB.signIn("sms2@example.com"))
        let results = Locked<[HTTPResult]>([])
        DispatchQueue.concurrentPerform(iterations: 10) { index in
            let (client, session) = index.isMultiple(of: 2) ? (clientA, sessionA) : (clientB, sessionB)
            if let result = try? client.v2(
                "mfaEnrollment:start", ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550177"]])
            {
                results.withLock { $0.append(result) }
            }
        }
        let answers = results.value
        #expect(answers.count == 10)
        #expect(answers.filter { $0.status == 200 }.count == 1, "\(answers.map(\.text))")
        #expect(answers.filter { $0.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true }.count == 9)
        // The code is listed by the instance that sent it (the dev SMS listing is in its memory).
        let sessionInfo = try #require(
            (answers.first { $0.status == 200 }?.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
        #expect(try clientA.code(for: sessionInfo) != nil || clientB.code(for: sessionInfo) != nil)
    }

    @Test("the dev IdP works behind both: a code A's dev Google issued is redeemed at B, and either signs it in")
    func devIdentityProviderAcross() throws {
        let pair = try InstancePair()
        let verifier = "verifier-" + UUID().uuidString
        let code = try DevGoogle(server: pair.a).authorize(email: "devidp@example.com", verifier: verifier).code
        let tokens = try DevGoogle(server: pair.b).exchange(code: code, verifier: verifier)
        #expect(throws: (any Error).self, "a code is redeemed once, whichever instance is asked") {
            try DevGoogle(server: pair.a).exchange(code: code, verifier: verifier)
        }
        let onB = try SignedIn(FirebaseIOSClient(server: pair.b).verifyAssertion(idToken: tokens.idToken, accessToken: nil))
        let onA = try SignedIn(FirebaseIOSClient(server: pair.a).verifyAssertion(idToken: tokens.idToken, accessToken: nil))
        #expect(onA.localID == onB.localID)
        let userInfo = try pair.a.request("GET", "/dev/google/oauth2/v3/userinfo", headers: [("Authorization", "Bearer \(tokens.accessToken)")])
        #expect(userInfo.json["email"] as? String == "devidp@example.com", "\(userInfo.text)")
    }

    @Test("SIGKILL of A during a sign-in load: every sign-in A answered with tokens refreshes on B")
    func killDuringLoad() throws {
        let pair = try InstancePair()
        let acknowledged = Locked<[SignedIn]>([])
        let stop = Locked(false)
        let workers = DispatchGroup()
        let a = pair.a
        for worker in 0..<6 {
            DispatchQueue.global().async(group: workers) {
                var index = 0
                while !stop.value {
                    index += 1
                    guard let session = try? Self.signIn(a, email: "load-\(worker)-\(index)@example.com") else { return }
                    acknowledged.withLock { $0.append(session) }
                }
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.value.count < 30, Date() < deadline { usleep(20_000) }
        let pid = try #require(pair.a.processIdentifier)
        kill(pid, SIGKILL)
        stop.withLock { $0 = true }
        workers.wait()
        let sessions = acknowledged.value
        #expect(sessions.count >= 30)
        let b = FirebaseIOSClient(server: pair.b)
        let refused = try sessions.filter { try b.refresh($0.refreshToken).status != 200 }
        #expect(refused.isEmpty, "\(refused.count) of \(sessions.count) acknowledged sign-ins were lost")
    }
}
