import Dispatch
import Foundation
import HearthCore
import HearthProtocol
import JOSE
import Synchronization
import Testing

/// An issuer whose tokeninfo blocks until the test opens its gate, and which counts calls and how many run at once.
final class GatedTokenInfoIssuer: GoogleAccessTokenIssuer {
    let issuerNames: Set<String> = ["https://gated.test"]
    private let gate = DispatchGroup()
    private let state = Mutex<(calls: Int, running: Int, mostAtOnce: Int, open: Bool)>((0, 0, 0, false))

    init(open: Bool) {
        if open { state.withLock { $0.open = true } } else { gate.enter() }
    }

    var calls: Int { state.withLock { $0.calls } }
    var running: Int { state.withLock { $0.running } }
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

    func open() {
        let wasOpen = state.withLock { state in
            defer { state.open = true }
            return state.open
        }
        if !wasOpen { gate.leave() }
    }

    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet { JWTKeySet() }

    func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo? {
        state.withLock { state in
            state.calls += 1
            state.running += 1
            state.mostAtOnce = max(state.mostAtOnce, state.running)
        }
        defer { state.withLock { $0.running -= 1 } }
        // Bounded, so a bug cannot hang the suite.
        _ = gate.wait(timeout: .now() + 30)
        return AccessTokenInfo(
            audience: FakeGoogle.clientID, authorizedParty: FakeGoogle.clientID, subject: "sub-" + accessToken,
            expiresIn: 3600, scope: "openid email")
    }

    func userInfo(accessToken: String) throws -> [String: JSONValue] {
        ["sub": .string("sub-" + accessToken), "email": "user@example.com", "email_verified": true]
    }
}

/// Polls `condition` for up to 30 s (a bound against hangs, not a timing assertion).
func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<3_000 {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

@Suite("Google access tokens: cache and outbound bound")
struct GoogleAccessTokenTests {
    let time = ManualTimeSource()

    func makeVerifier(_ issuer: GatedTokenInfoIssuer, limits: OutboundCallLimits = OutboundCallLimits()) -> IdentityProviderRegistry {
        .google(issuer, time: time, limits: limits)
    }

    func signIn(_ verifier: IdentityProviderRegistry, _ token: String, client: String? = nil) throws -> FederatedProfile {
        try verifier.verify(IdpCredential(accessToken: token), providerID: "google.com", clientAddress: client)
    }

    @Test("a verified access token is remembered until it expires: repeated sign-ins make one tokeninfo call")
    func cachedUntilExpiry() throws {
        let issuer = GatedTokenInfoIssuer(open: true)
        let verifier = makeVerifier(issuer)
        for _ in 0..<5 { #expect(try signIn(verifier, "at-1").rawID == "sub-at-1") }
        #expect(issuer.calls == 1)
        #expect(try signIn(verifier, "at-2").rawID == "sub-at-2")
        #expect(issuer.calls == 2)
        time.advance(by: 3599)
        _ = try signIn(verifier, "at-1")
        #expect(issuer.calls == 2)
        time.advance(by: 1)
        _ = try signIn(verifier, "at-1")
        #expect(issuer.calls == 3)
    }

    @Test("the cache is bounded (the oldest goes) and its lifetime capped")
    func cacheBounds() throws {
        let issuer = GatedTokenInfoIssuer(open: true)
        let verifier = makeVerifier(issuer, limits: OutboundCallLimits(accessTokenCacheSize: 2, accessTokenCacheLifetime: 60))
        for token in ["a", "b", "c"] { _ = try signIn(verifier, token) }
        _ = try signIn(verifier, "c")
        _ = try signIn(verifier, "b")
        #expect(issuer.calls == 3)
        _ = try signIn(verifier, "a")
        #expect(issuer.calls == 4)
        time.advance(by: 60)
        _ = try signIn(verifier, "a")
        #expect(issuer.calls == 5)
        let uncached = makeVerifier(issuer, limits: OutboundCallLimits(accessTokenCacheSize: 0))
        _ = try signIn(uncached, "z")
        _ = try signIn(uncached, "z")
        #expect(issuer.calls == 7)
    }

    @Test("8 concurrent slow checks: at most the bound reach the issuer, the rest are TOO_MANY_ATTEMPTS_TRY_LATER at once")
    func serverWideBound() throws {
        let issuer = GatedTokenInfoIssuer(open: false)
        let verifier = makeVerifier(issuer, limits: OutboundCallLimits(maxConcurrentChecks: 2))
        let outcomes = Mutex<[String]>([])
        let done = DispatchGroup()
        for index in 0..<8 {
            done.enter()
            Thread {
                let outcome: String
                do {
                    outcome = try signIn(verifier, "slow-\(index)").rawID
                } catch let error as WireError {
                    outcome = error.code.rawValue
                } catch {
                    outcome = "\(error)"
                }
                outcomes.withLock { $0.append(outcome) }
                done.leave()
            }.start()
        }
        // Six are refused while two wait at the issuer.
        #expect(eventually { outcomes.withLock { $0.count } == 6 && issuer.running == 2 })
        #expect(outcomes.withLock { $0 } == Array(repeating: "TOO_MANY_ATTEMPTS_TRY_LATER", count: 6))
        issuer.open()
        done.wait()
        #expect(outcomes.withLock { $0.filter { $0.hasPrefix("sub-slow-") }.count } == 2)
        #expect(issuer.mostAtOnce == 2)
        #expect(issuer.calls == 2)
    }

    @Test("per client address: one client cannot take every slot; unknown addresses count only against the total")
    func perClientBound() throws {
        let issuer = GatedTokenInfoIssuer(open: false)
        let verifier = makeVerifier(issuer, limits: OutboundCallLimits(maxConcurrentChecks: 3, maxConcurrentChecksPerClient: 1))
        let done = DispatchGroup()
        func start(_ token: String, client: String?) {
            done.enter()
            Thread {
                _ = try? signIn(verifier, token, client: client)
                done.leave()
            }.start()
        }
        start("a-1", client: "192.0.2.1")
        #expect(eventually { issuer.running == 1 })
        #expect(wireErrorCode { _ = try signIn(verifier, "a-2", client: "192.0.2.1") } == .tooManyAttemptsTryLater)
        start("b-1", client: "192.0.2.2")
        #expect(eventually { issuer.running == 2 })
        start("n-1", client: nil)
        #expect(eventually { issuer.running == 3 })
        #expect(wireErrorCode { _ = try signIn(verifier, "c-1", client: "192.0.2.3") } == .tooManyAttemptsTryLater)
        #expect(wireErrorCode { _ = try signIn(verifier, "n-2", client: nil) } == .tooManyAttemptsTryLater)
        issuer.open()
        done.wait()
        // Slots are given back: the same client may check again.
        #expect(try signIn(verifier, "a-3", client: "192.0.2.1").rawID == "sub-a-3")
        #expect(issuer.mostAtOnce == 3)
    }
}
