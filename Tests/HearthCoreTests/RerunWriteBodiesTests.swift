import Foundation
import HearthCore
import HearthProtocol
import Testing

/// A store that runs every write body twice, as PostgreSQL's store does when a write loses a race: the first run
/// is rolled back, the second committed.
struct RerunningStore: HearthStore {
    private struct Rerun: Error {}
    let inner: any HearthStore

    init(_ inner: any HearthStore) {
        self.inner = inner
    }

    var scope: StoreScope { inner.scope }
    func scoped(to scope: StoreScope) -> any HearthStore { inner.scoped(to: scope) }
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try inner.read(body) }

    func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        do {
            _ = try inner.write(isolation) { writer throws -> T in
                _ = try body(writer)
                throw Rerun()
            }
        } catch is Rerun {}
        return try inner.write(isolation, body)
    }

    func close() { inner.close() }
}

/// Write bodies have no effect outside the store (the store contract): a body that runs again takes no second
/// rate-limiter token.
@Suite("Write bodies that run twice")
struct RerunWriteBodiesTests {
    static let client = "198.51.100.9"

    /// One token per bucket, none refilled during the test.
    static var oneTokenEach: RateLimiter.Rules {
        var rules = RateLimiter.Rules()
        for bucket in RateLimiter.Bucket.allCases { rules[bucket] = RateLimiter.Rule(capacity: 1, refillPerSecond: 0) }
        return rules
    }

    @Test("a custom-token sign-in takes one token of the account-creation bucket, then one of the account's")
    func customToken() throws {
        let test = try TestPlatform(rateLimits: Self.oneTokenEach, rerunsWriteBodies: true)
        let account = try TestServiceAccount(test)
        let token = { try account.sign(account.customTokenClaims(uid: "user-7", now: test.time.nowSeconds)) }
        #expect(try test.platform.customTokens.signIn(.init(token: try token()), by: .user(client: Self.client)).isNewUser)
        #expect(try !test.platform.customTokens.signIn(.init(token: try token()), by: .user(client: Self.client)).isNewUser)
        // The account's single token is now spent.
        #expect(throws: WireError.self) {
            try test.platform.customTokens.signIn(.init(token: try token()), by: .user(client: Self.client))
        }
    }

    @Test("a Google sign-in takes one token of the account-creation bucket, then one of the account's")
    func google() throws {
        let test = try TestPlatform(rateLimits: Self.oneTokenEach, rerunsWriteBodies: true)
        let request = { test.signInRequest(idToken: try test.google.idToken(subject: "777", email: "r@example.com")) }
        #expect(try test.accounts.signInWithIdp(try request(), by: .user(client: Self.client)).isNewUser == true)
        #expect(try test.accounts.signInWithIdp(try request(), by: .user(client: Self.client)).isNewUser != true)
        #expect(throws: WireError.self) { try test.accounts.signInWithIdp(try request(), by: .user(client: Self.client)) }
    }

    @Test("an email-link sign-in takes one token of the account-creation bucket, then one of the account's")
    func emailLink() throws {
        let test = try TestPlatform(rateLimits: Self.oneTokenEach, rerunsWriteBodies: true)
        let actions = test.platform.emailActions
        let signIn = {
            let code = try #require(
                try actions.sendOobCode(
                    SendOobCodeRequest(
                        requestType: "EMAIL_SIGNIN", email: "link@example.com", continueUrl: "https://app.example.com/",
                        returnOobLink: true),
                    by: .commandLine
                ).oobCode)
            return try actions.signInWithEmailLink(
                SignInWithEmailLinkRequest(email: "link@example.com", oobCode: code), by: .user(client: Self.client))
        }
        #expect(try signIn().isNewUser == true)
        #expect(try signIn().isNewUser != true)
        #expect(throws: WireError.self) { try signIn() }
    }
}
