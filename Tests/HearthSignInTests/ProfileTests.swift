import Foundation
import HearthProtocol
import Testing
@testable import HearthSignIn

@Suite("Profile")
struct ProfileTests {
    @Test("an ID token with name, given_name, family_name and picture gives the profile without userinfo")
    func profileFromClaims() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.adjustClaims = { claims in
            var claims = claims
            claims["name"] = "Jane Doe"
            claims["given_name"] = "Jane"
            claims["family_name"] = "Doe"
            claims["picture"] = "https://lh3.googleusercontent.com/a/ACg8ocK=s96-c"
            return claims
        } }
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        #expect(provider.requests(to: "/userinfo").isEmpty)
        #expect(user.profile == ProfileData(
            email: "jane@example.com", name: "Jane Doe", givenName: "Jane", familyName: "Doe",
            pictureURL: "https://lh3.googleusercontent.com/a/ACg8ocK=s96-c"))
        #expect(user.profile?.hasImage == true)
    }

    @Test("otherwise the userinfo endpoint is asked with the access token as Bearer")
    func profileFromUserInfo() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock { $0.adjustClaims = { var c = $0; c["name"] = "Jane In Token"; return c } }
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        let request = try #require(provider.requests(to: "/oauth2/v3/userinfo").first)
        #expect(request.method == "GET")
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(user.profile == ProfileData(
            email: "jane@example.com", name: "Jane From Userinfo", givenName: "Jane", familyName: "Userinfo",
            pictureURL: "https://example.com/jane.png"))
    }

    @Test("when userinfo fails, the profile comes from the claims there are")
    func userInfoFailure() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        provider.state.withLock {
            $0.userInfo = (401, ["error": "invalid_token"])
            $0.adjustClaims = { var c = $0; c["name"] = "Jane In Token"; return c }
        }
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        #expect(user.profile == ProfileData(email: "jane@example.com", name: "Jane In Token"))
        #expect(user.profile?.hasImage == false)
        #expect(user.profile?.imageURL(withDimension: 64) == nil)
    }

    @Test("imageURL(withDimension:) follows GIDProfileData's rule", arguments: [
        ("https://lh3.googleusercontent.com/a/ACg8ocK=s96-c", "https://lh3.googleusercontent.com/a/ACg8ocK=s120"),
        ("https://lh5.googleusercontent.com/a-/AOh14G", "https://lh5.googleusercontent.com/a-/AOh14G=s120"),
        ("https://lh6.google.com/a/photo=s64-c-k", "https://lh6.google.com/a/photo=s120"),
        ("https://lh3.googleusercontent.com/proxy/abc=s96", "https://lh3.googleusercontent.com/proxy/abc=s96?sz=120"),
        ("https://lh7.googleusercontent.com/a/photo", "https://lh7.googleusercontent.com/a/photo?sz=120"),
        ("https://example.com/jane.png?size=small", "https://example.com/jane.png?sz=120"),
        ("https://example.com/jane.png", "https://example.com/jane.png?sz=120"),
    ])
    func imageURL(picture: String, expected: String) {
        let profile = ProfileData(email: "j@example.com", name: "J", pictureURL: picture)
        #expect(profile.imageURL(withDimension: 120)?.absoluteString == expected)
    }
}

@Suite("Redaction")
struct RedactionTests {
    @Test("tokens, users and configurations never print secrets")
    func redacted() async throws {
        let token = SignInToken(tokenString: "ya29.secret-token", expirationDate: Date(timeIntervalSince1970: 0))
        for text in [String(describing: token), String(reflecting: token), "\(token)"] {
            #expect(!text.contains("secret-token"), "\(text)")
        }
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains("secret-token"))

        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider)).signIn().user
        let text = String(describing: user)
        #expect(!text.contains("access-1") && !text.contains("refresh-1") && !text.contains(user.idToken!.tokenString))
        #expect(text.contains("jane@example.com"))
    }
}
