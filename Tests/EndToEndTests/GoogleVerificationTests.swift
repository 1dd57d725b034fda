import Dispatch
import Foundation
import HearthCrypto
import Testing

/// Hearth checks Google tokens for real: it fetches the issuer's JWKS over HTTP and refuses anything
/// that is not signed by it, not for this project, or not current.
@Suite("Google token verification (e2e)", .blocking)
struct GoogleVerificationTests {
    @Test("forged, expired, wrong-audience, wrong-issuer, alg none, tampered and unknown-kid tokens are refused; nothing is created")
    func negatives() throws {
        let mock = try MockGoogle()
        let (_, client) = try Self.start(trusting: mock)
        let now = Int(Date().timeIntervalSince1970)

        // The control: a good token signs in, so the refusals below are about the token alone.
        let good = try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "control")), accessToken: nil)
        #expect(good.status == 200)
        #expect(mock.fetchCount >= 1)

        var expired = mock.claims(subject: "m1")
        expired["iat"] = now - 7200
        expired["exp"] = now - 3600
        var wrongAudience = mock.claims(subject: "m1")
        wrongAudience["aud"] = "someone-else.apps.googleusercontent.com"
        var wrongIssuer = mock.claims(subject: "m1")
        wrongIssuer["iss"] = "https://accounts.google.evil"
        let valid = try mock.sign(mock.claims(subject: "m1"))
        let parts = valid.split(separator: ".")
        var signature = Array(parts[2])
        signature[5] = signature[5] == "A" ? "B" : "A"
        let tampered = "\(parts[0]).\(parts[1]).\(String(signature))"
        var swappedClaims = mock.claims(subject: "m1")
        swappedClaims["sub"] = "someone-else"
        let swappedPayload = "\(parts[0]).\(Base64URL.encode(try JSONSerialization.data(withJSONObject: swappedClaims))).\(parts[2])"

        let refused: [(String, String)] = [
            ("forged", try mock.sign(mock.claims(subject: "m1"), with: try RSAPrivateKey.generate())),
            ("expired", try mock.sign(expired)),
            ("wrong audience", try mock.sign(wrongAudience)),
            ("wrong issuer", try mock.sign(wrongIssuer)),
            ("alg none", try mock.unsigned(mock.claims(subject: "m1"))),
            ("tampered signature", tampered),
            ("swapped payload", swappedPayload),
            ("unknown kid", try mock.sign(mock.claims(subject: "m1"), keyID: "not-published")),
            ("not a JWT", "{\"sub\":\"m1\"}"),
        ]
        for (name, token) in refused {
            let response = try client.verifyAssertion(idToken: token, accessToken: nil)
            #expect(response.status == 400, "\(name)")
            #expect(response.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(name): \(response.text)")
        }
        let lookupControl = try SignedIn(good)
        #expect(try client.getAccountInfo(idToken: lookupControl.idToken).status == 200)
        // Only the control account exists: sign in as m1 with a valid token and see it is new.
        let m1 = try client.verifyAssertion(idToken: valid, accessToken: nil)
        #expect(m1.json["isNewUser"] as? Bool == true)
    }

    @Test("the email rules: verified Gmail addresses link, other addresses and unverified ones ask for confirmation")
    func emailRules() throws {
        let mock = try MockGoogle()
        let (_, client) = try Self.start(trusting: mock)

        let owner = try SignedIn(client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "g1", email: "same@gmail.com")), accessToken: nil))
        let unverified = try client.verifyAssertion(
            idToken: try mock.sign(mock.claims(subject: "g2", email: "same@gmail.com", emailVerified: false)), accessToken: nil)
        #expect(unverified.status == 200)
        #expect(unverified.json["needConfirmation"] as? Bool == true)
        #expect(unverified.json["localId"] as? String == owner.localID)
        #expect(unverified.json["idToken"] == nil)

        let verified = try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "g3", email: "same@gmail.com")), accessToken: nil)
        #expect(verified.status == 200)
        #expect(verified.json["localId"] as? String == owner.localID)
        #expect(verified.json["emailRecycled"] as? Bool == true)
        #expect(verified.json["isNewUser"] as? Bool == false)

        // Google is trusted only for its own addresses: a verified one outside gmail.com and the token's `hd` asks.
        _ = try SignedIn(client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "o1", email: "other@example.com")), accessToken: nil))
        let outside = try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "o2", email: "other@example.com")), accessToken: nil)
        #expect(outside.json["needConfirmation"] as? Bool == true && outside.json["idToken"] == nil, "\(outside.text)")
    }

    @Test("reauthentication (autoCreate false) of an unknown identity is USER_NOT_FOUND")
    func reauthentication() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let tokens = try DevGoogle(server: server).signIn(email: "reauth@example.com")
        let response = try client.verifyAssertion(idToken: tokens.idToken, accessToken: nil, autoCreate: false)
        #expect(response.errorMessage?.hasPrefix("USER_NOT_FOUND") == true)
    }

    @Test("8+ concurrent slow access-token sign-ins: at most the bound reach tokeninfo, the rest are told to retry, GET / keeps answering, and a repeated token is checked once")
    func slowAccessTokenSignIns() throws {
        let mock = try MockGoogle()
        let (server, client) = try Self.start(
            trusting: mock, arguments: ["--threads", "4"], extra: ["outbound": ["maxConcurrentChecks": 2, "maxConcurrentChecksPerClient": 2, "timeoutSeconds": 60]])

        mock.holdTokenInfo()
        let answers = Locked<[HTTPResult]>([])
        let done = DispatchGroup()
        func signIn(_ accessToken: String) {
            done.enter()
            Thread {
                if let answer = try? client.verifyAssertion(idToken: nil, accessToken: accessToken) {
                    answers.withLock { $0.append(answer) }
                }
                done.leave()
            }.start()
        }
        // Two sign-ins wait at tokeninfo, which holds them until the gate opens (started one after the other, so
        // each reaches a free worker thread of Hearth and of the mock).
        signIn("mock-at-slow-1")
        #expect(Self.eventually { mock.tokenInfoWaiting == 1 })
        signIn("mock-at-slow-2")
        #expect(Self.eventually { mock.tokenInfoWaiting == 2 })
        // Eight more arrive together: refused at once instead of taking the remaining worker threads.
        for index in 3...10 { signIn("mock-at-slow-\(index)") }
        #expect(Self.eventually { answers.value.count == 8 })
        #expect(mock.tokenInfoWaiting == 2)
        for answer in answers.value {
            #expect(answer.status == 400)
            #expect(answer.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(answer.text)")
        }
        // The HTTP workers are not all stuck behind the slow calls.
        let health = try server.request("GET", "/")
        #expect(health.status == 200)
        #expect(try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "while-slow")), accessToken: nil).status == 200)

        mock.openTokenInfo()
        done.wait()
        #expect(answers.value.filter { $0.status == 200 }.count == 2)
        #expect(mock.mostTokenInfoAtOnce == 2)
        #expect(mock.tokenInfoCalls == 2)

        // A verified access token is remembered until it expires.
        for _ in 0..<3 {
            let again = try client.verifyAssertion(idToken: nil, accessToken: "mock-at-repeat")
            #expect(again.status == 200)
            #expect(again.json["email"] as? String == "repeat@example.com")
        }
        #expect(mock.tokenInfoCalls == 3)
    }

    @Test("while the issuer's JWKS fails, sign-ins make a bounded number of fetches, and the last good keys keep working")
    func signInsWhileJWKSFails() throws {
        let mock = try MockGoogle()
        let (_, client) = try Self.start(trusting: mock)
        func storm(_ tokens: [String]) -> Int {
            let refused = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for index in stride(from: worker, to: tokens.count, by: 8) {
                    let answer = try? client.verifyAssertion(idToken: tokens[index], accessToken: nil)
                    if answer?.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true { refused.withLock { $0 += 1 } }
                }
            }
            return refused.value
        }

        // Failing from the start: no keys at all. Failures are remembered and retried after 5 s, 10 s, ….
        mock.failJWKS()
        #expect(storm(try (0..<200).map { try mock.sign(mock.claims(subject: "cold-\($0)")) }) == 200)
        #expect(mock.fetchCount <= 3)

        // Once the endpoint answers again (and the pause is over), sign-ins work.
        mock.failJWKS(false)
        let before = try mock.sign(mock.claims(subject: "before"))
        #expect(Self.eventually { (try? client.verifyAssertion(idToken: before, accessToken: nil))?.status == 200 })

        // Failing again: tokens with unknown kids refetch at most once per 30 s; known keys keep working.
        mock.failJWKS()
        let fetchesBefore = mock.fetchCount
        #expect(storm(try (0..<200).map { try mock.sign(mock.claims(subject: "storm-\($0)"), keyID: "unknown-\($0)") }) == 200)
        #expect(mock.fetchCount - fetchesBefore <= 1)
        #expect(try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "after")), accessToken: nil).status == 200)
    }

    @Test(
        "correctly signed tokens with exp or iat out of range are INVALID_IDP_RESPONSE, and the server keeps answering",
        arguments: [
            ("exp", "1e20"), ("exp", "9223372036854775807"), ("exp", "1e300"), ("exp", "-9223372036854775808"),
            ("iat", "-9223372036854775808"), ("exp", "-1e300"), ("iat", "1e300"), ("exp", "1700000000.5"),
        ])
    func numericClaims(claim: String, literal: String) throws {
        let mock = try MockGoogle()
        let (server, client) = try Self.start(trusting: mock)
        let hostile = try mock.sign(mock.claims(subject: "numeric"), raw: claim, literal)
        let answer = try client.verifyAssertion(idToken: hostile, accessToken: nil)
        #expect(answer.status == 400)
        #expect(answer.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(answer.text)")
        #expect(try server.request("GET", "/").status == 200)
        let good = try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "numeric")), accessToken: nil)
        #expect(good.status == 200)
        #expect(good.json["isNewUser"] as? Bool == true)
    }

    @Test("a tokeninfo that never answers fails the sign-in after outbound.timeoutSeconds, and frees its slot")
    func tokenInfoTimeout() throws {
        let mock = try MockGoogle()
        let (_, client) = try Self.start(
            trusting: mock, arguments: ["--threads", "4"], extra: ["outbound": ["maxConcurrentChecks": 1, "timeoutSeconds": 2]])
        mock.holdTokenInfo()
        for attempt in 1...2 {
            // Answered while the mock still holds the call: Hearth gave up, and the one slot is free again (a
            // check refused for want of a slot is TOO_MANY_ATTEMPTS_TRY_LATER).
            let answer = try client.verifyAssertion(idToken: nil, accessToken: "mock-at-hung-\(attempt)")
            #expect(answer.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(answer.text)")
        }
        // The calls reached tokeninfo and hang there. (Not an exact count: on a loaded machine a call can still be on
        // its way when Hearth gives up on it, and then never arrives.)
        #expect(mock.tokenInfoCalls(reaching: 2) >= 1)
        #expect(mock.tokenInfoWaiting >= 1)
        mock.openTokenInfo()
    }

    @Test("outbound settings are checked: unknown keys, out-of-range values, more checks than HTTP threads")
    func outboundSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        for (outbound, message) in [
            (#"{"timeoutSecond":5}"#, "unknown setting 'outbound.timeoutSecond'"),
            (#"{"timeoutSeconds":0}"#, "outbound.timeoutSeconds"),
            (#"{"maxConcurrentChecks":4}"#, "less than the HTTP threads (4)"),
            (#"{"maxConcurrentChecks":2,"maxConcurrentChecksPerClient":3}"#, "maxConcurrentChecksPerClient"),
            (#"{"accessTokenCacheSize":-1}"#, "accessTokenCacheSize"),
            (#"{"accessTokenCacheSeconds":86401}"#, "accessTokenCacheSeconds"),
        ] {
            try Data(#"{"outbound":"# .utf8 + Data(outbound.utf8) + Data("}".utf8)).write(to: file)
            let result = try HearthProcess.run(["serve", "--dev", "--threads", "4", "--config", file.path, "--data-dir", directory.path])
            #expect(result.status == 64, "\(outbound)")
            #expect(result.output.contains(message), "\(result.output)")
        }
    }

    /// Starts Hearth in `--dev` trusting `mock`, with `arguments` and `extra` config settings.
    @Test("one client holds at most one slow access-token check; another client (behind a trusted proxy) still gets one")
    func accessTokenChecksPerClient() throws {
        let mock = try MockGoogle()
        let (server, _) = try Self.start(
            trusting: mock, arguments: ["--threads", "4", "--trusted-proxies", "127.0.0.1"],
            extra: ["outbound": ["timeoutSeconds": 60]])
        @Sendable func signIn(_ accessToken: String, from client: String) throws -> HTTPResult {
            try server.postJSON(
                "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                ["requestUri": "http://localhost", "postBody": "providerId=google.com&access_token=\(accessToken)",
                 "returnSecureToken": true], headers: [("X-Forwarded-For", client)])
        }
        mock.holdTokenInfo()
        let done = DispatchGroup()
        done.enter()
        Thread {
            _ = try? signIn("mock-at-first", from: "198.51.100.1")
            done.leave()
        }.start()
        #expect(Self.eventually { mock.tokenInfoWaiting == 1 })
        let sameClient = try signIn("mock-at-second", from: "198.51.100.1")
        #expect(sameClient.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(sameClient.text)")
        done.enter()
        Thread {
            _ = try? signIn("mock-at-third", from: "198.51.100.2")
            done.leave()
        }.start()
        #expect(Self.eventually { mock.tokenInfoWaiting == 2 }, "another client reaches tokeninfo")
        mock.openTokenInfo()
        done.wait()
    }

    private static func start(
        trusting mock: MockGoogle, arguments: [String] = [], extra: [String: Any] = [:]
    ) throws -> (HearthProcess, FirebaseIOSClient) {
        let directory = HearthProcess.temporaryDirectory()
        let config = try mock.configFile(in: directory, extra: extra)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path] + arguments, dataDirectory: directory)
        try server.start()
        return (server, FirebaseIOSClient(server: server))
    }

    /// Polls `condition` for up to 60 s: a bound against hangs, not a timing assertion.
    private static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<6_000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
