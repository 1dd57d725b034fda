import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import HearthProviders
import JOSE
import OutboundTesting
import Testing

@Suite("Sign in with Apple: code exchange and revocation")
struct AppleTokenClientTests {
    let time = ManualTimeSource()
    let tokenAnswer = #"{"access_token":"at.secret-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt.secret-2","id_token":"eyJ.id.token"}"#

    func client(_ poster: FakeOutboundHTTP, endpoint: URL = AppleTokenClient.defaultEndpoint) throws -> AppleTokenClient {
        AppleTokenClient(clientSecret: try AppleTestKey.secrets(time: time), http: poster, endpoint: endpoint)
    }

    @Test("exchange POSTs Apple's documented form to /auth/token and reads the tokens")
    func exchange() throws {
        let poster = FakeOutboundHTTP(.text(status: 200, tokenAnswer))
        let tokens = try client(poster).exchange(code: "c.code+1", clientID: "com.example.web", redirectURI: "https://example.com/callback")
        #expect(tokens == AppleTokenResponse(
            accessToken: "at.secret-1", tokenType: "Bearer", expiresIn: 3600, refreshToken: "rt.secret-2", idToken: "eyJ.id.token"))
        let call = try #require(poster.requests.first)
        #expect(call.url.absoluteString == "https://appleid.apple.com/auth/token")
        #expect(call.formFields.map(\.name) == ["client_id", "client_secret", "code", "grant_type", "redirect_uri"])
        #expect(call.formValues["client_id"] == "com.example.web")
        #expect(call.formValues["code"] == "c.code+1")
        #expect(call.formValues["grant_type"] == "authorization_code")
        #expect(call.formValues["redirect_uri"] == "https://example.com/callback")
        #expect(call.headers["Accept"] == "application/json")
        let (header, claims) = try AppleTestKey.open(try #require(call.formValues["client_secret"]))
        #expect(header.kid == AppleTestKey.keyID)
        #expect(claims["sub"] == .string("com.example.web"))
        #expect(claims["iss"] == .string(AppleTestKey.teamID))
        #expect(claims["aud"] == .string("https://appleid.apple.com"))
    }

    @Test("a code from an app (no redirect URI) is exchanged without redirect_uri; the endpoint's path is kept")
    func exchangeWithoutRedirect() throws {
        let poster = FakeOutboundHTTP(.text(status: 200, #"{"access_token":"a","expires_in":"60","id_token":"i"}"#))
        let endpoint = URL(string: "http://127.0.0.1:9099/dev/apple")!
        let tokens = try client(poster, endpoint: endpoint).exchange(code: "c1", clientID: "com.example.app", redirectURI: nil)
        #expect(tokens.refreshToken == nil && tokens.expiresIn == 60 && tokens.tokenType == "Bearer")
        let call = try #require(poster.requests.first)
        #expect(call.url.absoluteString == "http://127.0.0.1:9099/dev/apple/auth/token")
        #expect(call.formFields.map(\.name) == ["client_id", "client_secret", "code", "grant_type"])
    }

    @Test("revoke POSTs client_id, client_secret, token and token_type_hint to /auth/revoke")
    func revoke() throws {
        let poster = FakeOutboundHTTP()
        let apple = try client(poster)
        try apple.revoke(token: "rt.secret-2", tokenTypeHint: .refreshToken, clientID: "com.example.app")
        try apple.revoke(token: "at.secret-1", tokenTypeHint: .accessToken, clientID: "com.example.app")
        let calls = poster.requests
        #expect(calls.map(\.url.absoluteString) == ["https://appleid.apple.com/auth/revoke", "https://appleid.apple.com/auth/revoke"])
        #expect(calls[0].formFields.map(\.name) == ["client_id", "client_secret", "token", "token_type_hint"])
        #expect(calls[0].formValues["token"] == "rt.secret-2")
        #expect(calls[0].formValues["token_type_hint"] == "refresh_token")
        #expect(calls[1].formValues["token_type_hint"] == "access_token")
        #expect(try AppleTestKey.open(try #require(calls[0].formValues["client_secret"])).claims["sub"] == .string("com.example.app"))
        // One secret serves both calls.
        #expect(calls[0].formValues["client_secret"] == calls[1].formValues["client_secret"])
    }

    @Test("Apple's errors map to stable codes: invalid_grant, invalid_client, invalid_request, others; none is retryable")
    func appleErrors() throws {
        let cases: [(Int, String, AppleClientError.Code, String?)] = [
            (400, #"{"error":"invalid_grant","error_description":"The code has expired or has been revoked."}"#, .invalidGrant, "invalid_grant"),
            (400, #"{"error":"invalid_client"}"#, .invalidClient, "invalid_client"),
            (401, #"{"error":"invalid_client"}"#, .invalidClient, "invalid_client"),
            (400, #"{"error":"invalid_request"}"#, .invalidRequest, "invalid_request"),
            (400, #"{"error":"unsupported_grant_type"}"#, .rejected, "unsupported_grant_type"),
            (400, #"<html>Bad Request</html>"#, .invalidResponse, nil),
            (404, #"{"error":"invalid_grant"}"#, .invalidGrant, "invalid_grant"),
            (404, "Not Found", .invalidResponse, nil),
            (302, "", .invalidResponse, nil),
            (200, "not json", .invalidResponse, nil),
            (200, #"{"access_token":"a"}"#, .invalidResponse, nil),
        ]
        for (status, body, code, appleError) in cases {
            let error = exchangeError(FakeOutboundHTTP(.text(status: status, body)))
            #expect(error?.code == code, "HTTP \(status) \(body)")
            #expect(error?.appleError == appleError)
            #expect(error?.status == status)
            #expect(error?.isRetryable == false)
        }
    }

    @Test("Apple unreachable, timing out, overloaded or failing is retryable, for exchange and revoke")
    func retryable() throws {
        for answer in [FakeOutboundHTTP.Reply.unreachable, .text(status: 500, ""), .text(status: 503, "{}"),
                       .text(status: 429, #"{"error":"invalid_grant"}"#)] {
            let error = exchangeError(FakeOutboundHTTP(answer))
            #expect(error?.code == .unavailable)
            #expect(error?.isRetryable == true)
            #expect(throws: AppleClientError(.unavailable, reason: "")) {
                try self.client(FakeOutboundHTTP(answer)).revoke(token: "t", tokenTypeHint: .refreshToken, clientID: "com.example.app")
            }
        }
        #expect(throws: AppleClientError(.invalidClient, reason: "")) {
            try self.client(FakeOutboundHTTP(.text(status: 400, #"{"error":"invalid_client"}"#)))
                .revoke(token: "t", tokenTypeHint: .refreshToken, clientID: "com.example.app")
        }
    }

    @Test("errors and token answers never show codes, tokens or the client secret")
    func noSecretsInText() throws {
        let poster = FakeOutboundHTTP(.text(status: 400, #"{"error":"invalid_grant","error_description":"code c.code-7 is spent"}"#))
        let error = try #require(exchangeError(poster))
        let secret = try #require(poster.requests.first?.formValues["client_secret"])
        let tokens = try client(FakeOutboundHTTP(.text(status: 200, tokenAnswer)))
            .exchange(code: "c.code-7", clientID: "com.example.app", redirectURI: nil)
        for text in [error.description, String(reflecting: error), tokens.description, String(reflecting: tokens), "\(tokens)"] {
            for forbidden in ["c.code-7", secret, "at.secret-1", "rt.secret-2", "eyJ.id.token"] {
                #expect(!text.contains(forbidden), "\(text) shows \(forbidden)")
            }
        }
    }

    private func exchangeError(_ poster: FakeOutboundHTTP) -> AppleClientError? {
        do {
            _ = try client(poster).exchange(code: "c.code-7", clientID: "com.example.app", redirectURI: nil)
            return nil
        } catch let error as AppleClientError {
            return error
        } catch {
            return nil
        }
    }
}
