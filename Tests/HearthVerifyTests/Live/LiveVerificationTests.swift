import Foundation
import HearthProtocol
import HearthVerify
import JOSE
import Testing

/// Against the real server: `hearth serve --dev` on port 0 with a temporary data directory.
@Suite("Live: HearthVerify against hearth serve --dev", .enabled(if: LiveHearth.isAvailable, "the hearth binary is not built"))
struct LiveVerificationTests {
    @Test("a real Hearth token verifies; after `users revoke` only checkRevoked refuses it")
    func verifyAndRevoke() async throws {
        let hearth = try LiveHearth()
        let verifier = IDTokenVerifier(hearthURL: hearth.url, projectID: "demo-hearth")
        let revocation = RevocationCheck(hearthURL: hearth.url, apiKey: "backend-key")
        let session = try hearth.signIn(email: "ada@example.com")

        // In async code Swift picks the async overload; a blocking handler gets the synchronous one.
        let blockingVerify: (String) throws(VerificationError) -> VerifiedToken = verifier.verify
        let verified = try blockingVerify(session.idToken)
        #expect(verified.uid == session.uid)
        #expect(verified.email == "ada@example.com")
        #expect(verified.emailVerified)
        #expect(verified.signInProvider == "google.com")
        #expect(verified.claims["user_id"] == .string(session.uid))
        #expect(verified.expiresAt.timeIntervalSince(verified.issuedAt) == 3600)
        #expect(try await verifier.verify(session.idToken) == verified)
        #expect(try await verifier.verify(session.idToken, checkRevoked: revocation) == verified)
        let header = "Bearer \(session.idToken)"
        #expect(try await verifier.verify(BearerToken.extract(fromAuthorizationHeader: header)!).uid == session.uid)

        // Revocation works in whole seconds: let the token's iat second pass first.
        sleepUntil(after: verified.issuedAt.addingTimeInterval(1))
        try hearth.users("revoke", session.uid)
        #expect(try blockingVerify(session.idToken).uid == session.uid)
        #expect(try await verifier.verify(session.idToken).uid == session.uid)
        let blockingCheck: (String, RevocationCheck) throws(VerificationError) -> VerifiedToken = verifier.verify
        #expect(throws: VerificationError(.revoked, reason: "")) {
            try blockingCheck(session.idToken, revocation)
        }
        await #expect(throws: VerificationError(.revoked, reason: "")) {
            try await verifier.verify(session.idToken, checkRevoked: revocation)
        }
        // A new sign-in after the revocation is fine.
        let again = try hearth.signIn(email: "ada@example.com")
        #expect(try await verifier.verify(again.idToken, checkRevoked: revocation).uid == session.uid)
    }

    @Test("`users disable` gives userDisabled and `users delete` gives userNotFound")
    func disableAndDelete() throws {
        let hearth = try LiveHearth()
        let verifier = IDTokenVerifier(hearthURL: hearth.url, projectID: "demo-hearth")
        let revocation = RevocationCheck(hearthURL: hearth.url, apiKey: "backend-key")
        let disabled = try hearth.signIn(email: "disabled@example.com")
        let deleted = try hearth.signIn(email: "deleted@example.com")

        try hearth.users("disable", disabled.uid)
        #expect(try verifier.verify(disabled.idToken).uid == disabled.uid)
        #expect(throws: VerificationError(.userDisabled, reason: "")) {
            try verifier.verify(disabled.idToken, checkRevoked: revocation)
        }

        try hearth.users("delete", deleted.uid)
        #expect(try verifier.verify(deleted.idToken).uid == deleted.uid)
        #expect(throws: VerificationError(.userNotFound, reason: "")) {
            try verifier.verify(deleted.idToken, checkRevoked: revocation)
        }
    }

    @Test("a token of another project is wrongAudience; the firebase-admin issuer is one Hearth's init accepts")
    func otherProject() throws {
        let hearth = try LiveHearth(arguments: ["--project-id", "other-project", "--firebase-issuer"])
        let token = try hearth.signIn(email: "eve@example.com").idToken
        let jwks = hearth.url.appendingPathComponent(".well-known/jwks.json")

        // A backend of project demo-hearth, given this server's keys and issuer: the audience gives it away.
        let demoBackend = IDTokenVerifier(
            projectID: "demo-hearth", issuer: "https://securetoken.google.com/other-project", jwksURL: jwks)
        #expect(throws: VerificationError(.wrongAudience, reason: "")) { try demoBackend.verify(token) }
        #expect(throws: VerificationError(.wrongAudience, reason: "")) {
            try IDTokenVerifier(hearthURL: hearth.url, projectID: "demo-hearth").verify(token)
        }

        // The right project: Hearth's init takes either issuer name; an explicit other name is refused.
        #expect(try IDTokenVerifier(hearthURL: hearth.url, projectID: "other-project").verify(token).email == "eve@example.com")
        #expect(throws: VerificationError(.wrongIssuer, reason: "")) {
            try IDTokenVerifier(projectID: "other-project", issuer: "\(hearth.url.absoluteString)/other-project", jwksURL: jwks)
                .verify(token)
        }
        let firebaseStyle = IDTokenVerifier(
            projectID: "other-project", issuer: "https://securetoken.google.com/other-project", jwksURL: jwks)
        #expect(try firebaseStyle.verify(token).email == "eve@example.com")
    }

    @Test("after `keys rotate`, tokens with the new kid verify through one refetch, and old tokens still verify")
    func rotation() throws {
        let hearth = try LiveHearth()
        let verifier = IDTokenVerifier(hearthURL: hearth.url, projectID: "demo-hearth")
        let old = try hearth.signIn(email: "rot@example.com").idToken
        _ = try verifier.verify(old)
        let oldKeyID = try InsecureJWT.decodeWithoutVerifying(old).header.kid

        try hearth.rotateKeys()
        // The running server picks up the new key within a few seconds (bounded wait, not a timing assertion).
        var fresh = old
        for _ in 0..<150 {
            fresh = try hearth.signIn(email: "rot@example.com").idToken
            if try InsecureJWT.decodeWithoutVerifying(fresh).header.kid != oldKeyID { break }
            usleep(200_000)
        }
        #expect(try InsecureJWT.decodeWithoutVerifying(fresh).header.kid != oldKeyID)
        #expect(try hearth.publishedKeyCount() == 2)
        #expect(try verifier.verify(fresh).email == "rot@example.com")
        #expect(try verifier.verify(old).email == "rot@example.com")
    }
}
