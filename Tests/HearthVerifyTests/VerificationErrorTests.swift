import HearthProtocol
import HearthVerify
import Testing

@Suite("VerificationError")
struct VerificationErrorTests {
    @Test("codes have stable names")
    func codeNames() {
        let codes: [(VerificationError.Code, String)] = [
            (.malformedToken, "malformedToken"), (.missingKeyID, "missingKeyID"), (.unknownKeyID, "unknownKeyID"),
            (.unsupportedAlgorithm, "unsupportedAlgorithm"), (.invalidSignature, "invalidSignature"),
            (.wrongIssuer, "wrongIssuer"), (.wrongAudience, "wrongAudience"), (.invalidSubject, "invalidSubject"),
            (.expired, "expired"), (.issuedInFuture, "issuedInFuture"), (.authTimeInFuture, "authTimeInFuture"),
            (.notYetValid, "notYetValid"),
            (.missingClaim, "missingClaim"), (.keysUnavailable, "keysUnavailable"), (.revoked, "revoked"),
            (.userDisabled, "userDisabled"), (.userNotFound, "userNotFound"),
            (.revocationCheckFailed, "revocationCheckFailed"), (.missingToken, "missingToken"),
        ]
        for (code, name) in codes {
            #expect(code.description == name)
        }
        #expect(Set(codes.map(\.0)).count == codes.count)
    }

    @Test("equality compares codes; the description names code and reason")
    func equality() {
        #expect(VerificationError(.expired, reason: "a") == VerificationError(.expired, reason: "b"))
        #expect(VerificationError(.expired, reason: "a") != VerificationError(.revoked, reason: "a"))
        #expect(VerificationError(.expired, reason: "the token expired 5 s ago").description
            == "VerificationError.expired: the token expired 5 s ago")
    }

    @Test("WWW-Authenticate follows RFC 6750 and keeps only allowed characters")
    func wwwAuthenticate() {
        let error = VerificationError(.wrongAudience, reason: "aud is \"x\\y\", expected \"demo\" — ünïcode\n")
        #expect(error.wwwAuthenticateHeader
            == #"Bearer error="invalid_token", error_description="wrongAudience: aud is 'x'y', expected 'demo' ? ?n?code?""#)
        #expect(VerificationError(.missingToken, reason: "none").wwwAuthenticateHeader == "Bearer")
        let long = VerificationError(.expired, reason: String(repeating: "z", count: 1000)).wwwAuthenticateHeader
        #expect(long.count < 300)
    }

    @Test("HTTP status and Firebase-style envelope")
    func wire() {
        let unauthorized = VerificationError(.expired, reason: "the token expired 5 s ago")
        #expect(unauthorized.httpStatus == 401)
        #expect(unauthorized.wireError.httpStatus == 401)
        #expect(unauthorized.wireError.code == .unauthenticated)
        #expect(unauthorized.wireError.message == "expired: the token expired 5 s ago")
        let unavailable = VerificationError(.keysUnavailable, reason: "down")
        #expect(unavailable.httpStatus == 503)
        #expect(unavailable.wireError.code == .unavailable)
        #expect(unavailable.wireError.httpStatus == 503)
    }
}
