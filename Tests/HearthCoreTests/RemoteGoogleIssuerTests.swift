import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import JOSE
import Synchronization
import Testing

/// Serves a JWKS with chosen headers and counts requests.
final class FakeFetcher: HTTPFetching {
    struct Reply: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var body = Data()
    }
    private let state = Mutex<(reply: Reply, count: Int)>((Reply(), 0))

    var count: Int { state.withLock { $0.count } }
    func set(_ reply: Reply) { state.withLock { $0.reply = reply } }

    func get(_ url: URL, headers: [String: String]) throws -> FetchedResponse {
        let reply = state.withLock { state in
            state.count += 1
            return state.reply
        }
        return FetchedResponse(status: reply.status, headers: reply.headers, body: reply.body)
    }
}

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
        let fetcher = FakeFetcher()
        fetcher.set(.init(headers: ["Cache-Control": "public, max-age=1000, must-revalidate", "Age": "400"], body: try jwks(["k1"])))
        let issuer = RemoteGoogleIssuer(fetcher: fetcher, time: time)
        #expect(try issuer.verificationKeys(forceRefresh: false).contains(keyID: "k1"))
        time.advance(by: 599)
        _ = try issuer.verificationKeys(forceRefresh: false)
        #expect(fetcher.count == 1)
        time.advance(by: 2)
        _ = try issuer.verificationKeys(forceRefresh: false)
        #expect(fetcher.count == 2)
    }

    @Test("a forced refetch (unknown kid) happens at most once per 30 seconds")
    func forcedRefetch() throws {
        let time = ManualTimeSource()
        let fetcher = FakeFetcher()
        fetcher.set(.init(headers: ["Cache-Control": "max-age=20000"], body: try jwks(["k1"])))
        let issuer = RemoteGoogleIssuer(fetcher: fetcher, time: time)
        _ = try issuer.verificationKeys(forceRefresh: false)
        fetcher.set(.init(headers: ["Cache-Control": "max-age=20000"], body: try jwks(["k1", "k2"])))
        #expect(try issuer.verificationKeys(forceRefresh: true).contains(keyID: "k2") == false)
        time.advance(by: 31)
        #expect(try issuer.verificationKeys(forceRefresh: true).contains(keyID: "k2"))
        #expect(fetcher.count == 2)
    }

    @Test("stale keys are served when Google cannot be reached")
    func staleOnFailure() throws {
        let time = ManualTimeSource()
        let fetcher = FakeFetcher()
        fetcher.set(.init(headers: ["Cache-Control": "max-age=10"], body: try jwks(["k1"])))
        let issuer = RemoteGoogleIssuer(fetcher: fetcher, time: time)
        _ = try issuer.verificationKeys(forceRefresh: false)
        fetcher.set(.init(status: 503))
        time.advance(by: 100)
        #expect(try issuer.verificationKeys(forceRefresh: false).contains(keyID: "k1"))
    }

    @Test("with nothing cached, an unreachable Google is INVALID_IDP_RESPONSE")
    func unreachable() throws {
        let fetcher = FakeFetcher()
        fetcher.set(.init(status: 500))
        let issuer = RemoteGoogleIssuer(fetcher: fetcher, time: ManualTimeSource())
        #expect(wireErrorCode { _ = try issuer.verificationKeys(forceRefresh: false) } == .invalidIdpResponse)
    }
}
