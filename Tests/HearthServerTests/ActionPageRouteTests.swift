import Foundation
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthServer
import Testing

/// Where the action page sends a browser: the continue URL stored with a code, read again as browsers read it
/// (`BrowserURL`) before any redirect or link, so that a code stored before that rule sends no one elsewhere.
@Suite("Action page redirects")
struct ActionPageRouteTests {
    /// Stores a code of `kind` with `continueURL` (as a code issued before the rule could have been) and returns it.
    static func plant(
        _ fixture: ServerFixture, _ kind: OOBCodeRecord.Kind, continueURL: String, localID: String? = nil,
        email: String = "victim@example.com"
    ) throws -> String {
        let code = "planted-\(UUID().uuidString)"
        let now = fixture.platform.time.nowMillis
        let record = OOBCodeRecord(
            codeHash: SHA256.hash(code).map { String(format: "%02x", $0) }.joined(), kind: kind, localID: localID,
            email: email, continueURL: continueURL, createdAtMillis: now, expiresAtMillis: now + 3_600_000)
        try fixture.platform.store.write { try $0.insertOOBCode(record) }
        return code
    }

    @Test("a sign-in code whose stored continue URL browsers read with another host redirects nowhere, on GET or POST")
    func hostileStoredContinueURL() throws {
        let fixture = try ServerFixture()
        for hostile in ["http://ATTACKER\\@localhost/finish", "https://EVIL\\@127.0.0.1/", "http://localhost/\r\nSet-Cookie: a=b",
                        "http:evil.example/finish", "http://0x7f.1/"] {
            let code = try Self.plant(fixture, .emailSignIn, continueURL: hostile)
            let opened = fixture.call(.get, "/__/auth/action?mode=signIn&oobCode=\(code)&apiKey=k")
            #expect(opened.status == 400, "\(hostile.debugDescription)")
            #expect(opened.headers["Location"] == nil, "\(hostile.debugDescription)")
            #expect(opened.text.contains("The continue URL must be an absolute http(s) URL that browsers read as Hearth does"))
            let posted = fixture.call(
                .post, "/__/auth/action", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "oobCode=\(code)")
            #expect(posted.status == 400 && posted.headers["Location"] == nil, "\(hostile.debugDescription)")
        }
    }

    @Test("a sign-in link redirects to its stored continue URL as browsers read it, the link's parameters in its query before its fragment")
    func redirectKeepsTheFragment() throws {
        let fixture = try ServerFixture()
        let code = try Self.plant(fixture, .emailSignIn, continueURL: "HTTPS://App.Example.com/done?from=mail#top")
        let opened = fixture.call(.get, "/__/auth/action?mode=signIn&oobCode=\(code)&apiKey=k&lang=en")
        #expect(opened.status == 303)
        #expect(opened.headers["Location"] == "https://app.example.com/done?from=mail&apiKey=k&lang=en&mode=signIn&oobCode=\(code)#top")
    }

    @Test("a finished action's Continue link is its stored continue URL only while browsers read it as Hearth does")
    func continueLink() throws {
        let fixture = try ServerFixture()
        let signedUp = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", #"{"email":"page@example.com","password":"a long passphrase"}"#)
        let localID = try #require(signedUp.json["localId"] as? String)
        func finish(_ continueURL: String) throws -> HTTPResponse {
            let code = try Self.plant(fixture, .verifyEmail, continueURL: continueURL, localID: localID, email: "page@example.com")
            return fixture.call(
                .post, "/__/auth/action", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "oobCode=\(code)")
        }
        let hostile = try finish("http://ATTACKER\\@localhost/next")
        #expect(hostile.status == 200 && hostile.text.contains("Your email has been verified"))
        #expect(!hostile.text.contains("id=\"continue\"") && !hostile.text.contains("ATTACKER"))
        let good = try finish("https://app.example.com/next?a=1&b=2")
        #expect(good.text.contains("<a href=\"https://app.example.com/next?a=1&amp;b=2\" id=\"continue\">"), "\(good.text)")
    }
}
