import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Anonymous accounts: signUp without email, upgrade by linking")
struct AnonymousSignUpTests {
    @Test("signUp without email and password makes an anonymous account; its tokens say so across refreshes")
    func anonymous() throws {
        let test = try TestPlatform()
        let guest = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        #expect(guest.kind == "identitytoolkit#SignupNewUserResponse")
        #expect(guest.expiresIn == "3600")
        #expect(guest.localId.count == 28)
        let claims = try test.claims(of: guest.idToken)
        #expect(claims["sub"] == .string(guest.localId))
        #expect(claims["firebase"]?["sign_in_provider"] == "anonymous")
        #expect(claims["firebase"]?["identities"] == .object([:]))
        #expect(claims["email"] == nil)
        let stored = try #require(try test.store.read { try $0.account(localID: guest.localId) })
        #expect(stored.providers.isEmpty && stored.email == nil)
        #expect(stored.createdAtMillis == test.time.nowMillis && stored.lastRefreshAtMillis == test.time.nowMillis)

        test.time.advance(by: 120)
        let refreshed = try test.tokens.refresh(RefreshTokenRequest(refreshToken: guest.refreshToken), by: .user(client: nil))
        #expect(try test.claims(of: refreshed.idToken)["firebase"]?["sign_in_provider"] == "anonymous")
        #expect(try test.accounts.signUp(SignUpRequest(), by: .user(client: nil)).localId != guest.localId, "each sign-up is a new guest")
    }

    @Test("linking Google upgrades the guest in place; an identity another account holds changes nothing")
    func upgrade() throws {
        let test = try TestPlatform()
        let guest = try test.accounts.signUp(SignUpRequest(displayName: "Guest"), by: .user(client: nil))
        let upgraded = try test.accounts.signInWithIdp(
            test.signInRequest(idToken: try test.google.idToken(subject: "up-1", email: "up@example.com"), linking: guest.idToken), by: .user(client: nil))
        #expect(upgraded.localId == guest.localId)
        #expect(try test.claims(of: try #require(upgraded.idToken))["firebase"]?["sign_in_provider"] == "google.com")
        let account = try #require(try test.store.read { try $0.account(localID: guest.localId) })
        #expect(account.identity(for: "google.com")?.rawID == "up-1")
        #expect(account.email == "up@example.com" && account.displayName == "Guest")

        let owner = try test.signIn(subject: "taken", email: "taken@example.com")
        let second = try test.accounts.signUp(SignUpRequest(), by: .user(client: nil))
        let inUse = try test.accounts.signInWithIdp(
            test.signInRequest(idToken: try test.google.idToken(subject: "taken", email: "taken@example.com"), linking: second.idToken), by: .user(client: nil))
        #expect(inUse.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(try test.store.read { try $0.account(localID: second.localId) }?.providers.isEmpty == true)
        #expect(try test.store.read { try $0.account(localID: owner.localId!) }?.identity(for: "google.com")?.rawID == "taken")
    }

    @Test("guests count against the client's account-creation bucket: 50 parallel sign-ups make only the burst, another client still signs up")
    func rateLimited() async throws {
        var rules = RateLimiter.Rules()
        rules.accountCreationPerClient = .burst(5, perMinute: 1)
        let test = try TestPlatform(rateLimits: rules)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask { (try? test.accounts.signUp(SignUpRequest(), by: .user(client: "203.0.113.9"))) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 5)
        #expect(try test.store.read { try $0.accountCount() } == 5, "a refused sign-up stores nothing")
        #expect(wireErrorCode { _ = try test.accounts.signUp(SignUpRequest(), by: .user(client: "203.0.113.9")) } == .tooManyAttemptsTryLater)
        #expect((try? test.accounts.signUp(SignUpRequest(), by: .user(client: "198.51.100.7"))) != nil, "another client is not affected")
    }
}
