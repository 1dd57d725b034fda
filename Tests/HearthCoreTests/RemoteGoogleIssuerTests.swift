import Dispatch
import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import HearthProviders
import JOSE
import OutboundTesting
import Synchronization
import Testing

@Suite("Google key fetching")
struct RemoteGoogleIssuerTests {
    private func jwks(_ keyIDs: [String]) throws -> Data {
        let key = try FakeGoogle.sharedKey()
        let set = JSONWebKeySet(keys: keyIDs.map { JSONWebKey(publicKey: key.publicKey, keyID: $0) })
        return try JSONEncoder().encode(set)
    }

    @Test("keys are cached for Cache-Control max-age minus Age")
    func caching() throws {
        let time = ManualTimeSource()
        let fetcher = FakeOutboundHTTP()
        fetcher.set(.answer(headers: ["Cache-Control": "public, max-age=1000, must-revalidate", "Age": "400"], body: try jwks(["k1"])))
        let issuer = RemoteGoogleIssuer(http: fetcher, time: time)
        #expect(try issuer.verificationKeys(forceRefresh: false).contains(keyID: "k1"))
        time.advance(by: 599)
        _ = try issuer.verificationKeys(forceRefresh: false)
        #expect(fetcher.count == 1)
        time.advance(by: 2)
        _ = try issuer.verificationKeys(forceRefresh: false)
        #expect(fetcher.count == 2)
    }

    @Test("no-cache and no-store keep keys for the 30-second floor, as HearthVerify does, whatever max-age says")
    func noCache() throws {
        for header in ["no-cache, max-age=3600", "no-store", "max-age=0"] {
            let time = ManualTimeSource()
            let fetcher = FakeOutboundHTTP()
            fetcher.set(.answer(headers: ["Cache-Control": header], body: try jwks(["k1"])))
            let issuer = RemoteGoogleIssuer(http: fetcher, time: time)
            for _ in 0..<5 { _ = try issuer.verificationKeys(forceRefresh: false) }
            time.advance(by: 29)
            _ = try issuer.verificationKeys(forceRefresh: false)
            #expect(fetcher.count == 1, "\(header)")
            time.advance(by: 1)
            _ = try issuer.verificationKeys(forceRefresh: false)
            #expect(fetcher.count == 2, "\(header)")
        }
    }

    @Test("a forced refetch (unknown kid) happens at most once per 30 seconds")
    func forcedRefetch() throws {
        let time = ManualTimeSource()
        let fetcher = FakeOutboundHTTP()
        fetcher.set(.answer(headers: ["Cache-Control": "max-age=20000"], body: try jwks(["k1"])))
        let issuer = RemoteGoogleIssuer(http: fetcher, time: time)
        _ = try issuer.verificationKeys(forceRefresh: false)
        fetcher.set(.answer(headers: ["Cache-Control": "max-age=20000"], body: try jwks(["k1", "k2"])))
        #expect(try issuer.verificationKeys(forceRefresh: true).contains(keyID: "k2"))
        #expect(fetcher.count == 2)
        fetcher.set(.answer(headers: ["Cache-Control": "max-age=20000"], body: try jwks(["k1", "k2", "k3"])))
        time.advance(by: 29)
        #expect(try issuer.verificationKeys(forceRefresh: true).contains(keyID: "k3") == false)
        #expect(fetcher.count == 2)
        time.advance(by: 1)
        #expect(try issuer.verificationKeys(forceRefresh: true).contains(keyID: "k3"))
        #expect(fetcher.count == 3)
    }

    @Test("stale keys are served when Google cannot be reached, and fetching backs off")
    func staleOnFailure() throws {
        let time = ManualTimeSource()
        let fetcher = FakeOutboundHTTP()
        fetcher.set(.answer(headers: ["Cache-Control": "max-age=30"], body: try jwks(["k1"])))
        let issuer = RemoteGoogleIssuer(http: fetcher, time: time)
        _ = try issuer.verificationKeys(forceRefresh: false)
        fetcher.set(.answer(status: 503))
        time.advance(by: 100)
        for _ in 0..<20 {
            #expect(try issuer.verificationKeys(forceRefresh: false).contains(keyID: "k1"))
            #expect(try issuer.verificationKeys(forceRefresh: true).contains(keyID: "k1"))
        }
        #expect(fetcher.count == 2)
    }

    @Test("with nothing cached, an unreachable Google is INVALID_IDP_RESPONSE, and is not asked again at once")
    func unreachable() throws {
        let fetcher = FakeOutboundHTTP()
        fetcher.set(.answer(status: 500))
        let issuer = RemoteGoogleIssuer(http: fetcher, time: ManualTimeSource())
        for _ in 0..<10 {
            #expect(wireErrorCode { _ = try issuer.verificationKeys(forceRefresh: false) } == .invalidIdpResponse)
            #expect(wireErrorCode { _ = try issuer.verificationKeys(forceRefresh: true) } == .invalidIdpResponse)
        }
        #expect(fetcher.count == 1)
    }

    @Test("a userinfo or tokeninfo call that gets no answer is a refused sign-in, not a server fault")
    func noAnswer() throws {
        let issuer = RemoteGoogleIssuer(http: FakeOutboundHTTP(.unreachable), time: ManualTimeSource())
        #expect(wireErrorCode { _ = try issuer.userInfo(accessToken: "at-1") } == .invalidIdpResponse)
        let verifier = IdentityProviderRegistry.google(issuer, time: ManualTimeSource())
        #expect(wireErrorCode { _ = try verifier.verifyGoogle(accessToken: "at-1") } == .invalidIdpResponse)
    }

    @Test("500 concurrent sign-ins with unknown kids while the JWKS endpoint fails make a bounded number of fetches")
    func unknownKeyIDStormWhileFailing() throws {
        let time = ManualTimeSource()
        let fetcher = FakeOutboundHTTP()
        fetcher.set(.answer(headers: ["Cache-Control": "max-age=3600"], body: try jwks(["fake-google-key"])))
        let google = try FakeGoogle(time: time)
        let issuer = RemoteGoogleIssuer(http: fetcher, time: time)
        let verifier = IdentityProviderRegistry.google(issuer, time: time)
        let good = try google.idToken(subject: "g-1")
        #expect(try verifier.verifyGoogle(idToken: good).rawID == "g-1")
        fetcher.set(.answer(status: 503))
        // Past the unknown-kid refetch interval, but the keys are still fresh.
        time.advance(by: 31)

        let tokens = try (0..<500).map { try google.idToken(google.claims(subject: "g-\($0)"), keyID: "attacker-\($0)") }
        let codes = Mutex<[ErrorCode?]>([])
        let threads = 50
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: tokens.count, by: threads) {
                let code = wireErrorCode {
                    _ = try verifier.verifyGoogle(idToken: tokens[index])
                }
                codes.withLock { $0.append(code) }
            }
        }
        #expect(codes.withLock { $0 } == Array(repeating: .invalidIdpResponse, count: 500))
        #expect(fetcher.count == 2)
        // The last good keys still verify genuine tokens.
        #expect(try verifier.verifyGoogle(idToken: good).rawID == "g-1")
    }
}
