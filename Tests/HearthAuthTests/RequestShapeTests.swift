import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// Every request exactly as the Firebase iOS SDK sends it (PROTOCOL.md §1.2, §1.4, §4.1).
@Suite("Requests")
struct RequestShapeTests {
    static let relyingParty = "https://www.googleapis.com/identitytoolkit/v3/relyingparty/"

    func expectStandardHeaders(_ request: TransportRequest) {
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["X-Client-Version"] == "Swift/HearthAuth/\(HearthAuthVersion.string)")
    }

    @Test("signIn(with:) posts verifyAssertion then getAccountInfo with the new ID token")
    func signInRequests() async throws {
        let harness = Harness()
        try await harness.signIn()
        let requests = harness.transport.requests
        #expect(requests.count == 2)

        let assertion = requests[0]
        #expect(assertion.url.absoluteString == Self.relyingParty + "verifyAssertion?key=\(Fixture.apiKey)")
        expectStandardHeaders(assertion)
        let expected: JSONValue = [
            "requestUri": "http://localhost",
            "postBody": .string(
                "providerId=google.com&id_token=\(Fixture.googleIDToken)&access_token=\(Fixture.googleAccessToken)"),
            "returnSecureToken": true, "returnIdpCredential": true, "autoCreate": true,
        ]
        #expect(assertion.json == expected)

        let lookup = requests[1]
        #expect(lookup.url.absoluteString == Self.relyingParty + "getAccountInfo?key=\(Fixture.apiKey)")
        expectStandardHeaders(lookup)
        #expect(lookup.json == ["idToken": .string(Fixture.idToken())])
    }

    @Test("postBody orders providerId, id_token, nonce, access_token and escapes like a form")
    func postBodyWithNonce() {
        let credential = OAuthProvider.credential(
            providerID: .google, idToken: "a.b.c", rawNonce: "n+1 &=x", accessToken: "ya29.t")
        let body = Auth.assertionRequest(for: credential, linkingIDToken: nil).postBody ?? ""
        #expect(body == "providerId=google.com&id_token=a.b.c&nonce=n%2B1%20%26%3Dx&access_token=ya29.t")
        let decoded = FormEncoding.decode(body)
        #expect(decoded.map(\.name) == ["providerId", "id_token", "nonce", "access_token"])
        #expect(decoded[2].value == "n+1 &=x")
    }

    @Test("getIDToken refresh posts camelCase JSON to securetoken v1/token")
    func refreshRequest() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: Fixture.idToken(issuedAt: 1)))
        _ = try await user.getIDToken(forcingRefresh: true)
        let request = try #require(harness.transport.requests(to: "token").first)
        #expect(request.url.absoluteString == "https://securetoken.googleapis.com/v1/token?key=\(Fixture.apiKey)")
        expectStandardHeaders(request)
        #expect(request.json == ["grantType": "refresh_token", "refreshToken": "refresh-1"])
    }

    @Test("link(with:) adds the user's ID token to verifyAssertion")
    func linkRequest() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord(providers: []))
        let user = try await harness.auth.signIn(with: Fixture.googleCredential).user

        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse(isNewUser: false))
        harness.transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        _ = try await user.link(with: Fixture.googleCredential)
        let link = harness.transport.requests(to: "verifyAssertion")[1]
        #expect(link.url.absoluteString == Self.relyingParty + "verifyAssertion?key=\(Fixture.apiKey)")
        expectStandardHeaders(link)
        #expect(
            link.json == [
                "requestUri": "http://localhost",
                "postBody": .string(
                    "providerId=google.com&id_token=\(Fixture.googleIDToken)&access_token=\(Fixture.googleAccessToken)"),
                "returnSecureToken": true, "returnIdpCredential": true, "autoCreate": true,
                "idToken": .string(Fixture.idToken()),
            ])
    }

    @Test("profile change, unlink and delete post setAccountInfo / deleteAccount")
    func accountRequests() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        let token = Fixture.idToken()

        harness.transport.enqueue("setAccountInfo", json: ["localId": .string(Fixture.uid)])
        let change = user.createProfileChangeRequest()
        change.displayName = "Countess"
        try await change.commitChanges()
        let profile = try #require(harness.transport.requests(to: "setAccountInfo").last)
        #expect(profile.url.absoluteString == Self.relyingParty + "setAccountInfo?key=\(Fixture.apiKey)")
        expectStandardHeaders(profile)
        #expect(profile.json == ["idToken": .string(token), "displayName": "Countess", "returnSecureToken": true])

        harness.transport.enqueue("setAccountInfo", json: ["localId": .string(Fixture.uid), "providerUserInfo": []])
        try await user.unlink(fromProvider: "google.com")
        let unlink = try #require(harness.transport.requests(to: "setAccountInfo").last)
        #expect(unlink.json == ["idToken": .string(token), "deleteProvider": ["google.com"], "returnSecureToken": true])

        harness.transport.enqueue("deleteAccount", json: ["kind": "identitytoolkit#DeleteAccountResponse"])
        try await user.delete()
        let delete = try #require(harness.transport.requests(to: "deleteAccount").first)
        #expect(delete.url.absoluteString == Self.relyingParty + "deleteAccount?key=\(Fixture.apiKey)")
        expectStandardHeaders(delete)
        #expect(delete.json == ["idToken": .string(token), "localId": .string(Fixture.uid)])
    }

    @Test(
        "useEmulator puts the production host into the path",
        arguments: [
            ("localhost", 9099, "http://localhost:9099"),
            ("127.0.0.1", 8080, "http://127.0.0.1:8080"),
            ("::1", 9099, "http://[::1]:9099"),
            ("[fe80::1]", 9099, "http://[fe80::1]:9099"),
        ])
    func emulatorURLs(host: String, port: Int, base: String) async throws {
        let harness = Harness()
        harness.auth.useEmulator(withHost: host, port: port)
        let user = try await harness.signIn().user
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: Fixture.idToken(issuedAt: 1)))
        _ = try await user.getIDToken(forcingRefresh: true)
        #expect(
            harness.transport.requests.map(\.url.absoluteString) == [
                "\(base)/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=\(Fixture.apiKey)",
                "\(base)/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo?key=\(Fixture.apiKey)",
                "\(base)/securetoken.googleapis.com/v1/token?key=\(Fixture.apiKey)",
            ])
    }
}
