import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Error mapping")
struct ErrorMappingTests {
    /// The sign-in call fails with `envelope`; returns what `signIn(with:)` threw.
    func signInError(status: Int = 400, body: JSONValue) async -> AuthError? {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", status: status, json: body)
        return await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) }
    }

    @Test(
        "server codes map to FirebaseAuth's numbers, the detail becomes the message",
        arguments: [
            ("EMAIL_EXISTS", 17007), ("INVALID_ID_TOKEN", 17017), ("TOKEN_EXPIRED", 17021), ("USER_DISABLED", 17005),
            ("USER_NOT_FOUND", 17011), ("EMAIL_NOT_FOUND", 17011), ("INVALID_PASSWORD", 17009),
            ("INVALID_LOGIN_CREDENTIALS", 17004), ("INVALID_IDP_RESPONSE", 17004), ("INVALID_PENDING_TOKEN", 17004),
            ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", 17014), ("FEDERATED_USER_ID_ALREADY_LINKED", 17025),
            ("MISSING_OR_INVALID_NONCE", 17094), ("OPERATION_NOT_ALLOWED", 17006), ("PASSWORD_LOGIN_DISABLED", 17006),
            ("WEAK_PASSWORD", 17026), ("INVALID_EMAIL", 17008), ("INVALID_IDENTIFIER", 17008),
            ("INVALID_OOB_CODE", 17030), ("EXPIRED_OOB_CODE", 17029), ("INVALID_CODE", 17044),
            ("INVALID_SESSION_INFO", 17046), ("SESSION_EXPIRED", 17051), ("INVALID_MFA_PENDING_CREDENTIAL", 17083),
            ("MISSING_MFA_PENDING_CREDENTIAL", 17081), ("MISSING_MFA_ENROLLMENT_ID", 17082),
            ("MFA_ENROLLMENT_NOT_FOUND", 17084), ("SECOND_FACTOR_EXISTS", 17087),
            ("SECOND_FACTOR_LIMIT_EXCEEDED", 17088), ("UNSUPPORTED_FIRST_FACTOR", 17089), ("UNVERIFIED_EMAIL", 17086),
            ("TENANT_ID_MISMATCH", 17072), ("ADMIN_ONLY_OPERATION", 17085), ("INVALID_CUSTOM_TOKEN", 17000),
            ("CREDENTIAL_MISMATCH", 17002), ("TOO_MANY_ATTEMPTS_TRY_LATER", 17010), ("PROVIDER_ALREADY_LINKED", 17015),
            ("PASSWORD_DOES_NOT_MEET_REQUIREMENTS", 17211), ("MISSING_EMAIL", 17034),
            ("INVALID_HOSTING_LINK_DOMAIN", 17214),
        ])
    func serverCodes(serverCode: String, number: Int) async throws {
        let error = try #require(await signInError(body: Fixture.errorEnvelope("\(serverCode) : some detail")))
        #expect(error.code == AuthErrorCode(rawValue: number))
        #expect(error.serverCode == serverCode)
        #expect(error.message == "some detail")

        let bare = try #require(await signInError(body: Fixture.errorEnvelope(serverCode)))
        #expect(bare.code.rawValue == number)
        #expect(!bare.message.isEmpty)
    }

    @Test("the message is split at the first colon only and trimmed")
    func firstColon() async throws {
        let error = try #require(await signInError(body: Fixture.errorEnvelope("USER_DISABLED:  a: b ")))
        #expect(error.code == .userDisabled)
        #expect(error.message == "a: b")
    }

    @Test("errors[].reason keyInvalid… → invalidAPIKey; ipRefererBlocked → appNotAuthorized")
    func reasons() async throws {
        let key = try #require(
            await signInError(
                body: [
                    "error": [
                        "code": 400, "message": "API key not valid. Please pass a valid API key.",
                        "status": "INVALID_ARGUMENT",
                        "errors": [["message": "API key not valid.", "reason": "keyInvalid", "domain": "global"]],
                    ]
                ]))
        #expect(key.code == .invalidAPIKey)
        #expect(key.code.rawValue == 17023)
        #expect(key.message == "API key not valid. Please pass a valid API key.")

        let referer = try #require(
            await signInError(status: 403, body: Fixture.errorEnvelope("BLOCKED", status: 403, reason: "ipRefererBlocked")))
        #expect(referer.code == .appNotAuthorized)
    }

    @Test("an unknown server code → internalError carrying the code and detail")
    func unknownCode() async throws {
        let error = try #require(await signInError(body: Fixture.errorEnvelope("SOMETHING_NEW : what happened")))
        #expect(error.code == .internalError)
        #expect(error.code.rawValue == 17999)
        #expect(error.serverCode == "SOMETHING_NEW")
        #expect(error.message == "what happened")
        // INVALID_REFRESH_TOKEN has no entry in the iOS map either.
        let refresh = try #require(await signInError(body: Fixture.errorEnvelope("INVALID_REFRESH_TOKEN")))
        #expect(refresh.code == .internalError)
        #expect(refresh.serverCode == "INVALID_REFRESH_TOKEN")
    }

    @Test("an HTML 500, or JSON that is not an envelope → internalError without a server code")
    func nonEnvelope() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", status: 500, body: "<html><body>Bad gateway</body></html>")
        let html = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(html.code == .internalError)
        #expect(html.serverCode == nil)
        #expect(!html.message.contains("<html>"))

        let json = try #require(await signInError(status: 503, body: ["oops": true]))
        #expect(json.code == .internalError)

        let harness2 = Harness()
        harness2.transport.enqueue("verifyAssertion", status: 200, body: "not json")
        let garbled = try #require(await authError { _ = try await harness2.auth.signIn(with: Fixture.googleCredential) })
        #expect(garbled.code == .internalError)
    }

    @Test("a transport failure → networkError; an AuthError from the transport passes through")
    func networkFailure() async throws {
        let harness = Harness()
        harness.transport.enqueue("verifyAssertion", .failure(URLError(.notConnectedToInternet)))
        let error = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(error.code == .networkError)
        #expect(error.code.rawValue == 17020)

        harness.transport.enqueue("verifyAssertion", .failure(AuthError(code: .networkError, message: "offline")))
        let passed = try #require(await authError { _ = try await harness.auth.signIn(with: Fixture.googleCredential) })
        #expect(passed.message == "offline")
    }

    @Test("URLSessionTransport turns a refused connection into networkError")
    func urlSessionNetworkError() async throws {
        let transport = URLSessionTransport()
        let request = TransportRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/x?key=secret")!)
        let error = try #require(await authError { _ = try await transport.send(request) })
        #expect(error.code == .networkError)
        #expect(!error.description.contains("secret"))
    }

    @Test(
        "AuthErrorCode numbers match FirebaseAuth",
        arguments: [
            (AuthErrorCode.invalidCustomToken, 17000), (.customTokenMismatch, 17002), (.invalidCredential, 17004),
            (.userDisabled, 17005), (.operationNotAllowed, 17006), (.emailAlreadyInUse, 17007), (.invalidEmail, 17008),
            (.wrongPassword, 17009), (.tooManyRequests, 17010), (.userNotFound, 17011),
            (.accountExistsWithDifferentCredential, 17012), (.requiresRecentLogin, 17014),
            (.providerAlreadyLinked, 17015), (.noSuchProvider, 17016), (.invalidUserToken, 17017),
            (.networkError, 17020), (.userTokenExpired, 17021), (.invalidAPIKey, 17023), (.userMismatch, 17024),
            (.credentialAlreadyInUse, 17025), (.weakPassword, 17026), (.appNotAuthorized, 17028),
            (.expiredActionCode, 17029), (.invalidActionCode, 17030), (.missingEmail, 17034),
            (.invalidPhoneNumber, 17042), (.invalidVerificationCode, 17044), (.invalidVerificationID, 17046),
            (.sessionExpired, 17051), (.quotaExceeded, 17052), (.captchaCheckFailed, 17056), (.nullUser, 17067),
            (.tenantIDMismatch, 17072), (.rejectedCredential, 17075), (.secondFactorRequired, 17078),
            (.missingMultiFactorSession, 17081), (.missingMultiFactorInfo, 17082), (.invalidMultiFactorSession, 17083),
            (.multiFactorInfoNotFound, 17084), (.adminRestrictedOperation, 17085), (.unverifiedEmail, 17086),
            (.secondFactorAlreadyEnrolled, 17087), (.maximumSecondFactorCountExceeded, 17088),
            (.unsupportedFirstFactor, 17089), (.emailChangeNeedsVerification, 17090),
            (.missingClientIdentifier, 17093), (.missingOrInvalidNonce, 17094), (.blockingCloudFunctionError, 17105),
            (.recaptchaNotEnabled, 17200), (.invalidReqType, 17207), (.recaptchaActionCreationFailed, 17210),
            (.passwordDoesNotMeetRequirements, 17211), (.invalidHostingLinkDomain, 17214), (.keychainError, 17995),
            (.internalError, 17999),
            (.malformedJWT, 18000),
        ])
    func numbers(code: AuthErrorCode, number: Int) {
        #expect(code.rawValue == number)
        #expect(code.name != "unknown")
    }

    @Test("every known code has a distinct name; unknown numbers say so")
    func names() {
        let all = AuthErrorCode.allKnown
        #expect(all.count == 93)
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(AuthErrorCode.userDisabled.description == "userDisabled (17005)")
        #expect(AuthErrorCode(rawValue: 12345).name == "unknown")
    }

    @Test("descriptions never print credentials")
    func redaction() {
        let credential = Fixture.googleCredential
        #expect(!credential.description.contains(Fixture.googleIDToken))
        #expect(!"\(credential)".contains(Fixture.googleAccessToken))
        #expect(credential.description.contains("<redacted>"))
        let error = AuthError(code: .credentialAlreadyInUse, message: "m", updatedCredential: credential)
        #expect(!error.description.contains(Fixture.googleIDToken))
        #expect(!String(reflecting: error.updatedCredential!).contains(Fixture.googleAccessToken))
    }
}
