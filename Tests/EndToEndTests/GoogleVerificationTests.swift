import Foundation
import HearthCrypto
import Testing

/// Hearth checks Google tokens for real: it fetches the issuer's JWKS over HTTP and refuses anything
/// that is not signed by it, not for this project, or not current.
@Suite("Google token verification (e2e)")
struct GoogleVerificationTests {
    @Test("forged, expired, wrong-audience, wrong-issuer, alg none, tampered and unknown-kid tokens are refused; nothing is created")
    func negatives() throws {
        let mock = try MockGoogle()
        let directory = HearthProcess.temporaryDirectory()
        let started = HearthProcess(arguments: ["--dev", "--config", try mock.configFile(in: directory).path], dataDirectory: directory)
        try started.start()
        let client = FirebaseIOSClient(server: started)
        let now = Int(Date().timeIntervalSince1970)

        // The control: a good token signs in, so the refusals below are about the token alone.
        let good = try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "control")), accessToken: nil)
        #expect(good.status == 200)
        #expect(mock.fetchCount >= 1)

        var expired = mock.claims(subject: "m1")
        expired["iat"] = now - 7200
        expired["exp"] = now - 3600
        var wrongAudience = mock.claims(subject: "m1")
        wrongAudience["aud"] = "someone-else.apps.googleusercontent.com"
        var wrongIssuer = mock.claims(subject: "m1")
        wrongIssuer["iss"] = "https://accounts.google.evil"
        let valid = try mock.sign(mock.claims(subject: "m1"))
        let parts = valid.split(separator: ".")
        var signature = Array(parts[2])
        signature[5] = signature[5] == "A" ? "B" : "A"
        let tampered = "\(parts[0]).\(parts[1]).\(String(signature))"
        var swappedClaims = mock.claims(subject: "m1")
        swappedClaims["sub"] = "someone-else"
        let swappedPayload = "\(parts[0]).\(Base64URL.encode(try JSONSerialization.data(withJSONObject: swappedClaims))).\(parts[2])"

        let refused: [(String, String)] = [
            ("forged", try mock.sign(mock.claims(subject: "m1"), with: try RSAPrivateKey.generate())),
            ("expired", try mock.sign(expired)),
            ("wrong audience", try mock.sign(wrongAudience)),
            ("wrong issuer", try mock.sign(wrongIssuer)),
            ("alg none", try mock.unsigned(mock.claims(subject: "m1"))),
            ("tampered signature", tampered),
            ("swapped payload", swappedPayload),
            ("unknown kid", try mock.sign(mock.claims(subject: "m1"), keyID: "not-published")),
            ("not a JWT", "{\"sub\":\"m1\"}"),
        ]
        for (name, token) in refused {
            let response = try client.verifyAssertion(idToken: token, accessToken: nil)
            #expect(response.status == 400, "\(name)")
            #expect(response.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(name): \(response.text)")
        }
        let lookupControl = try SignedIn(good)
        #expect(try client.getAccountInfo(idToken: lookupControl.idToken).status == 200)
        // Only the control account exists: sign in as m1 with a valid token and see it is new.
        let m1 = try client.verifyAssertion(idToken: valid, accessToken: nil)
        #expect(m1.json["isNewUser"] as? Bool == true)
    }

    @Test("the email rules: verified emails link, unverified ones ask for confirmation")
    func emailRules() throws {
        let mock = try MockGoogle()
        let directory = HearthProcess.temporaryDirectory()
        let server = HearthProcess(arguments: ["--dev", "--config", try mock.configFile(in: directory).path], dataDirectory: directory)
        try server.start()
        let client = FirebaseIOSClient(server: server)

        let owner = try SignedIn(client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "g1", email: "same@example.com")), accessToken: nil))
        let unverified = try client.verifyAssertion(
            idToken: try mock.sign(mock.claims(subject: "g2", email: "same@example.com", emailVerified: false)), accessToken: nil)
        #expect(unverified.status == 200)
        #expect(unverified.json["needConfirmation"] as? Bool == true)
        #expect(unverified.json["localId"] as? String == owner.localID)
        #expect(unverified.json["idToken"] == nil)

        let verified = try client.verifyAssertion(idToken: try mock.sign(mock.claims(subject: "g3", email: "same@example.com")), accessToken: nil)
        #expect(verified.status == 200)
        #expect(verified.json["localId"] as? String == owner.localID)
        #expect(verified.json["emailRecycled"] as? Bool == true)
        #expect(verified.json["isNewUser"] as? Bool == false)
    }

    @Test("reauthentication (autoCreate false) of an unknown identity is USER_NOT_FOUND")
    func reauthentication() throws {
        let server = HearthProcess()
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let tokens = try DevGoogle(server: server).signIn(email: "reauth@example.com")
        let response = try client.verifyAssertion(idToken: tokens.idToken, accessToken: nil, autoCreate: false)
        #expect(response.errorMessage?.hasPrefix("USER_NOT_FOUND") == true)
    }
}
