import Foundation
import HearthAuth
import Testing

/// Guests against the built `hearth serve --dev`, with the requests the iOS SDK sends: `signInAnonymously()`,
/// then `link(with: GoogleAuthProvider.credential(...))`.
@Suite("Anonymous accounts (e2e)", .blocking)
struct AnonymousAccountTests {
    @Test("signupNewUser makes a guest (no identities, sign_in_provider anonymous); linking Google keeps its uid")
    func guestThenGoogle() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let guest = try SignedIn(try client.signUpAnonymously())
        #expect(JWTParts.claims(guest.idToken)["firebase"].flatMap { ($0 as? [String: Any])?["sign_in_provider"] as? String } == "anonymous")
        let before = try client.getAccountInfo(idToken: guest.idToken)
        let record = try #require((before.json["users"] as? [[String: Any]])?.first, "\(before.text)")
        #expect(record["localId"] as? String == guest.localID)
        #expect(record["email"] == nil && (record["providerUserInfo"] as? [Any] ?? []).isEmpty)

        // The v1 path too (the web SDK's signInAnonymously).
        let v1 = try server.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", ["returnSecureToken": true])
        #expect(v1.status == 200 && (v1.json["localId"] as? String)?.isEmpty == false, "\(v1.text)")

        let google = try DevGoogle(server: server).signIn(email: "guest-upgraded@example.com")
        let linked = try SignedIn(try client.verifyAssertion(idToken: google.idToken, accessToken: nil, linking: guest.idToken))
        #expect(linked.localID == guest.localID)
        #expect(JWTParts.claims(linked.idToken)["firebase"].flatMap { ($0 as? [String: Any])?["sign_in_provider"] as? String } == "google.com")
        let after = try client.getAccountInfo(idToken: linked.idToken)
        let upgraded = try #require((after.json["users"] as? [[String: Any]])?.first)
        #expect(upgraded["email"] as? String == "guest-upgraded@example.com")
        #expect((upgraded["providerUserInfo"] as? [[String: Any]])?.first?["providerId"] as? String == "google.com")
    }

    @Test("HearthAuth: signInAnonymously makes a guest (again the same one while it is signed in); linking Google upgrades it")
    func hearthAuthGuest() async throws {
        let server = HearthProcess()
        try server.start()
        let auth = Auth(options: HearthOptions(apiKey: "e2e-key", projectID: "demo-hearth"), sessionStore: InMemorySessionStore())
        auth.useEmulator(withHost: "127.0.0.1", port: Int(server.port))
        let guest = try await auth.signInAnonymously()
        #expect(guest.user.isAnonymous)
        #expect(guest.additionalUserInfo?.isNewUser == true)
        #expect(guest.user.providerData.isEmpty && guest.user.email == nil)
        let again = try await auth.signInAnonymously()
        #expect(again.user.uid == guest.user.uid && again.additionalUserInfo?.isNewUser == false)

        let google = try DevGoogle(server: server).signIn(email: "hearthauth-guest@example.com")
        let linked = try await guest.user.link(
            with: GoogleAuthProvider.credential(withIDToken: google.idToken, accessToken: google.accessToken))
        #expect(linked.user.uid == guest.user.uid)
        #expect(!linked.user.isAnonymous)
        #expect(linked.user.email == "hearthauth-guest@example.com")
        #expect(linked.user.providerData.map(\.providerID) == ["google.com"])
        #expect(auth.currentUser?.isAnonymous == false)
    }

    @Test("the stale-guest lifetime is read from the config file and the environment; bad values are usage errors")
    func lifetimeSettings() throws {
        let directory = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.json")
        for (config, message) in [
            (#"{"anonymousAccounts":{"deleteAfterDays":-1}}"#, "anonymousAccounts.deleteAfterDays"),
            (#"{"anonymousAccounts":{"deleteAfterDay":3}}"#, "anonymousAccounts.deleteAfterDay'"),
            (#"{"anonymousAccounts":{"deleteAfterDays":"soon"}}"#, "wrong type"),
        ] {
            try Data(config.utf8).write(to: file)
            let refused = try HearthProcess.run(["serve", "--dev", "--config", file.path, "--data-dir", directory.path])
            #expect(refused.status == 64, "\(config)")
            #expect(refused.output.contains(message), "\(config): \(refused.output)")
        }
        let badEnvironment = try HearthProcess.run(
            ["serve", "--dev", "--data-dir", directory.path], environment: ["HEARTH_ANONYMOUS_ACCOUNT_DAYS": "soon"])
        #expect(badEnvironment.status == 64)
        #expect(badEnvironment.output.contains("HEARTH_ANONYMOUS_ACCOUNT_DAYS"))

        try Data(#"{"anonymousAccounts":{"deleteAfterDays":0}}"#.utf8).write(to: file)
        let server = HearthProcess(arguments: ["--dev", "--config", file.path], dataDirectory: directory)
        try server.start()
        _ = try SignedIn(try FirebaseIOSClient(server: server).signUpAnonymously())
        #expect(server.stop() == 0)
    }
}
