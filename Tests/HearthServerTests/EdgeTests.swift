import Foundation
import HearthCore
import HearthHTTP
import HearthServer
import Testing

@Suite("Request edge")
struct EdgeTests {
    static let lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k"
    static let signIn = "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k"
    static let token = "/securetoken.googleapis.com/v1/token?key=k"

    @Test("a request that names a tenant that does not exist is refused, not served as if it named none")
    func tenants() throws {
        let fixture = try ServerFixture()
        let lookup = fixture.postJSON(Self.lookup, #"{"idToken":"x","tenantId":"tenant-a"}"#)
        #expect(lookup.error["message"] as? String == "TENANT_NOT_FOUND : There is no tenant with this id.")
        let form = fixture.call(
            .post, Self.token, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "grant_type=refresh_token&refresh_token=x&tenant_id=tenant-a")
        #expect((form.error["message"] as? String)?.hasPrefix("TENANT_NOT_FOUND") == true)
        let mfa = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize?key=k",
            #"{"mfaPendingCredential":"x","tenantId":"t"}"#)
        #expect((mfa.error["message"] as? String)?.hasPrefix("TENANT_NOT_FOUND") == true)
        let empty = fixture.postJSON(Self.lookup, #"{"idToken":"x","tenantId":""}"#)
        #expect(empty.error["message"] as? String == "INVALID_ID_TOKEN", "an empty tenantId is no tenant")
    }

    @Test("sign-ins are limited per client address; another client is not affected")
    func signInBucket() throws {
        var rules = RateLimiter.Rules()
        rules.signInPerClient = .burst(2, perMinute: 1)
        let fixture = try ServerFixture(rateLimits: rules)
        let body = #"{"requestUri":"http://localhost","postBody":"providerId=google.com&id_token=x","returnSecureToken":true}"#
        let answers = (0..<3).map { _ in
            fixture.postJSON(Self.signIn, body, from: "192.0.2.1").error["message"] as? String ?? "OK"
        }
        #expect(answers[0].hasPrefix("INVALID_IDP_RESPONSE"))
        #expect(answers[1].hasPrefix("INVALID_IDP_RESPONSE"))
        #expect(answers[2].hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER"))
        let other = fixture.postJSON(Self.signIn, body, from: "192.0.2.2")
        #expect((other.error["message"] as? String)?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        // An IPv6 client is one client across its /64.
        _ = fixture.postJSON(Self.signIn, body, from: "2001:db8:1:2::1")
        _ = fixture.postJSON(Self.signIn, body, from: "2001:db8:1:2::2")
        let hopped = fixture.postJSON(Self.signIn, body, from: "2001:db8:1:2:ffff::3")
        #expect((hopped.error["message"] as? String)?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
    }

    @Test("only failed refreshes cost; a client out of tokens is refused before the lookup")
    func refreshFailures() throws {
        var rules = RateLimiter.Rules()
        rules.refreshFailuresPerClient = .burst(2, perMinute: 1)
        let fixture = try ServerFixture(rateLimits: rules)
        let answers = (0..<3).map { index in
            fixture.postJSON(Self.token, #"{"grantType":"refresh_token","refreshToken":"nope-\#(index)"}"#, from: "192.0.2.9")
                .error["message"] as? String ?? "OK"
        }
        #expect(answers == ["INVALID_REFRESH_TOKEN", "INVALID_REFRESH_TOKEN", "TOO_MANY_ATTEMPTS_TRY_LATER : Too many requests from this client; try again later."])
    }

    @Test("X-Forwarded-For names the client only behind a trusted proxy, read from the right")
    func forwardedFor() throws {
        var rules = RateLimiter.Rules()
        rules.signInPerClient = .burst(1, perMinute: 1)
        let proxies = try TrustedProxies(["10.0.0.0/8", "::1"])
        let fixture = try ServerFixture(rateLimits: rules, trustedProxies: proxies)
        let body = #"{"requestUri":"http://localhost","postBody":"providerId=google.com&id_token=x"}"#
        func message(_ forwarded: String, from peer: String) -> String {
            let response = fixture.postJSON(Self.signIn, body, headers: ["X-Forwarded-For": forwarded], from: peer)
            return String((response.error["message"] as? String ?? "OK").prefix { $0 != " " })
        }
        // Two clients behind the proxy; the spoofed leftmost entry is ignored.
        #expect(message("198.51.100.1", from: "10.1.2.3") == "INVALID_IDP_RESPONSE")
        #expect(message("198.51.100.2", from: "10.1.2.3") == "INVALID_IDP_RESPONSE")
        #expect(message("1.1.1.1, 198.51.100.1", from: "10.9.9.9") == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(message("198.51.100.2, 10.4.4.4", from: "::1") == "TOO_MANY_ATTEMPTS_TRY_LATER", "trusted hops are skipped")
        // An untrusted peer cannot choose its address.
        #expect(message("203.0.113.7", from: "192.0.2.44") == "INVALID_IDP_RESPONSE")
        #expect(message("203.0.113.8", from: "192.0.2.44") == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(throws: TrustedProxies.InvalidEntry.self) { try TrustedProxies(["10.0.0.0/33"]) }
        #expect(throws: TrustedProxies.InvalidEntry.self) { try TrustedProxies(["proxy.internal"]) }
    }

    @Test("a store failure on any route is answered 503 in the envelope and logged with the route")
    func storeFailuresAreLogged() throws {
        let store = InMemoryStore()
        let fixture = try ServerFixture(store: store)
        store.close()
        for (method, path) in [
            (HTTPMethod.delete, "/emulator/v1/projects/demo-hearth/accounts"),
            (.post, "/securetoken.googleapis.com/v1/token?key=k"),
        ] {
            let response = fixture.call(
                method, path, headers: ["Content-Type": "application/json"],
                body: #"{"grantType":"refresh_token","refreshToken":"x"}"#)
            #expect(response.status == 503, "\(path)")
            #expect(response.error["status"] as? String == "UNAVAILABLE")
        }
        let lines = fixture.log.all
        #expect(lines.contains { $0.contains("error=store code=closed") && $0.contains("path=/emulator/v1/projects/demo-hearth/accounts") })
        #expect(lines.contains { $0.contains("error=store code=closed") && $0.contains("path=/securetoken.googleapis.com/v1/token") })
    }
}
