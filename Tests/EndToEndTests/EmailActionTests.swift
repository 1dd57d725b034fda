import Foundation
import Testing

/// Email actions against the built `hearth --dev` (PROTOCOL.md §3.6, §3.8–3.11, §6.5): every action with the web
/// SDK's v1 bodies and the iOS SDK's legacy ones, its code taken from the emulator's listing; used, expired and
/// foreign codes; enumeration protection (on by default); the link-to-existing-account rules of email-link sign-in.
@Suite("Email actions (e2e)", .blocking)
struct EmailActionTests {
    static let strongPassword = "correct horse battery staple 7"

    @Test("password reset (web SDK): the code is listed, inspected without being used, used once; the account gets the password")
    func passwordReset() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let uid = try clients.createUser(["email": "Ada@Example.com"])
        let sent = try clients.web("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "clientType": "CLIENT_TYPE_WEB"])
        #expect(sent.status == 200, "\(sent.text)")
        #expect(sent.json["email"] as? String == "ada@example.com")
        #expect(sent.json["oobCode"] == nil && sent.json["oobLink"] == nil)
        let (code, link) = try clients.code("PASSWORD_RESET", for: "ada@example.com")
        #expect(link.hasPrefix("\(server.baseURL)/emulator/action?mode=resetPassword&oobCode=\(code)&apiKey="))
        #expect(code.count >= 43)

        let inspected = try clients.web("resetPassword", ["oobCode": code])
        #expect(inspected.status == 200)
        #expect(inspected.json["requestType"] as? String == "PASSWORD_RESET")
        #expect(inspected.json["email"] as? String == "ada@example.com")
        #expect(try clients.oobCodes().count == 1)  // inspecting used nothing

        let weak = try clients.web("resetPassword", ["oobCode": code, "newPassword": "abc"])
        #expect(weak.wireError.hasPrefix("WEAK_PASSWORD") || weak.wireError.hasPrefix("PASSWORD_DOES_NOT_MEET_REQUIREMENTS"), "\(weak.text)")
        #expect(try clients.oobCodes().count == 1)  // a refused password uses nothing either

        let reset = try clients.web("resetPassword", ["oobCode": code, "newPassword": Self.strongPassword])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(reset.json["email"] as? String == "ada@example.com")
        #expect(try clients.oobCodes().isEmpty)
        let again = try clients.web("resetPassword", ["oobCode": code, "newPassword": Self.strongPassword])
        #expect(again.wireError.hasPrefix("INVALID_OOB_CODE"))

        // The code is logged only in the dev line that names it (as the emulator does); the email's line holds none.
        #expect(server.waitForLine { $0.hasPrefix("To reset the password for ada@example.com, follow this link: ") && $0.contains(code) })
        #expect(server.waitForLine { $0.contains("event=email_sent_dev to=ada@example.com") })
        #expect(server.lines.filter { $0.contains(code) }.count == 1, "\(server.lines.filter { $0.contains(code) })")

        let user = try clients.lookup(uid)
        #expect(user["passwordHash"] as? String == "UkVEQUNURUQ=")
        #expect(user["passwordUpdatedAt"] != nil)
        #expect(user["emailVerified"] as? Bool == true)
        let providers = (user["providerUserInfo"] as? [[String: Any]] ?? []).compactMap { $0["providerId"] as? String }
        #expect(providers.contains("password"))
    }

    @Test("enumeration protection: an unknown email is answered like a known one and gets nothing; clients cannot ask for links")
    func enumerationProtection() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        _ = try clients.createUser(["email": "known@example.com"])
        let known = try clients.iOS("getOobConfirmationCode", ["requestType": "PASSWORD_RESET", "email": "known@example.com", "clientType": "CLIENT_TYPE_IOS"])
        let unknown = try clients.iOS("getOobConfirmationCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com", "clientType": "CLIENT_TYPE_IOS"])
        #expect(known.status == 200 && unknown.status == 200)
        #expect(Set(known.json.keys) == Set(unknown.json.keys))
        #expect(unknown.json["email"] as? String == "nobody@example.com")
        #expect(try clients.oobCodes().map { $0["email"] as? String } == ["known@example.com"])

        let methods = try clients.iOS("createAuthUri", ["identifier": "known@example.com", "continueUri": "http://www.google.com/"])
        #expect(methods.status == 200)
        #expect(Set(methods.json.keys) == ["kind", "sessionId"])

        let asked = try clients.web("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "known@example.com", "returnOobLink": true])
        #expect(asked.wireError.hasPrefix("INSUFFICIENT_PERMISSION"))
        // Administrators get the link back, and no email; they are told about unknown emails.
        let generated = try clients.admin("accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "known@example.com", "returnOobLink": true])
        #expect(generated.status == 200, "\(generated.text)")
        let oobCode = try #require(generated.json["oobCode"] as? String)
        #expect((generated.json["oobLink"] as? String)?.contains("oobCode=\(oobCode)") == true)
        let adminUnknown = try clients.admin("accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com", "returnOobLink": true])
        #expect(adminUnknown.wireError.hasPrefix("EMAIL_NOT_FOUND"))
    }

    @Test("email verification (iOS SDK): applying the code verifies the email, issues no tokens, and works once")
    func verifyEmail() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let uid = try clients.createUser(["localId": "verify-me", "email": "grace@example.com"])
        let session = try clients.session(uid: uid)
        let sent = try clients.iOS("getOobConfirmationCode", ["requestType": "VERIFY_EMAIL", "idToken": session.idToken, "clientType": "CLIENT_TYPE_IOS"])
        #expect(sent.status == 200, "\(sent.text)")
        #expect(sent.json["email"] as? String == "grace@example.com")
        let (code, link) = try clients.code("VERIFY_EMAIL", for: "grace@example.com")
        #expect(link.contains("mode=verifyEmail"))

        let applied = try clients.iOS("setAccountInfo", ["oobCode": code])
        #expect(applied.status == 200, "\(applied.text)")
        #expect(applied.json["emailVerified"] as? Bool == true)
        #expect(applied.json["idToken"] == nil && applied.json["refreshToken"] == nil)
        #expect(try clients.lookup(uid)["emailVerified"] as? Bool == true)
        #expect(try clients.iOS("setAccountInfo", ["oobCode": code]).wireError.hasPrefix("INVALID_OOB_CODE"))
        #expect(try clients.iOS("setAccountInfo", ["oobCode": "not-a-code"]).wireError.hasPrefix("INVALID_OOB_CODE"))
    }

    @Test("change of email (web SDK): taken addresses are refused; the change verifies, records initialEmail, ends sessions, and mails a recovery code that restores the email")
    func verifyAndChangeEmail() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let uid = try clients.createUser(["localId": "changer", "email": "old@example.com", "emailVerified": true])
        _ = try clients.createUser(["email": "taken@example.com"])
        var session = try clients.session(uid: uid)
        // Under enumeration protection a taken address is answered like any other, and nothing is sent to it.
        let taken = try clients.web("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": session.idToken, "newEmail": "taken@example.com"])
        #expect(taken.status == 200 && taken.json["email"] as? String == "old@example.com", "\(taken.text)")
        #expect(try clients.oobCodes().isEmpty)
        let missing = try clients.web("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": session.idToken])
        #expect(missing.wireError.hasPrefix("MISSING_NEW_EMAIL"))

        let sent = try clients.web("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": session.idToken, "newEmail": "new@example.com"])
        #expect(sent.status == 200, "\(sent.text)")
        let (code, _) = try clients.code("VERIFY_AND_CHANGE_EMAIL", for: "old@example.com")
        let inspected = try clients.web("resetPassword", ["oobCode": code])
        #expect(inspected.json["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL")
        #expect(inspected.json["newEmail"] as? String == "new@example.com")

        let applied = try clients.web("update", ["oobCode": code])
        #expect(applied.status == 200, "\(applied.text)")
        let changed = try clients.lookup(uid)
        #expect(changed["email"] as? String == "new@example.com")
        #expect(changed["emailVerified"] as? Bool == true)
        #expect(changed["initialEmail"] as? String == "old@example.com")
        #expect(try CustomTokenClient(server: server).refresh(&session).wireError.hasPrefix("TOKEN_EXPIRED"))

        let (recovery, link) = try clients.code("RECOVER_EMAIL", for: "old@example.com")
        #expect(link.contains("mode=recoverEmail"))
        let recovered = try clients.web("update", ["oobCode": recovery])
        #expect(recovered.status == 200, "\(recovered.text)")
        #expect(try clients.lookup(uid)["email"] as? String == "old@example.com")
    }

    @Test("email-link sign-in (iOS SDK): continue URL rules, the email must match, a new user is made once, tokens say password")
    func emailLinkSignIn() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let noContinue = try clients.iOS("getOobConfirmationCode", ["requestType": "EMAIL_SIGNIN", "email": "lin@example.com", "canHandleCodeInApp": true])
        #expect(noContinue.wireError.hasPrefix("MISSING_CONTINUE_URI"))
        let badContinue = try clients.iOS("getOobConfirmationCode", ["requestType": "EMAIL_SIGNIN", "email": "lin@example.com", "continueUrl": "javascript:alert(1)"])
        #expect(badContinue.wireError.hasPrefix("INVALID_CONTINUE_URI"))

        let sent = try clients.iOS("getOobConfirmationCode", [
            "requestType": "EMAIL_SIGNIN", "email": "lin@example.com", "continueUrl": "https://app.example.com/finish?cart=1",
            "canHandleCodeInApp": true, "iOSBundleId": "com.example.portfolio", "clientType": "CLIENT_TYPE_IOS",
        ])
        #expect(sent.status == 200, "\(sent.text)")
        let (code, link) = try clients.code("EMAIL_SIGNIN", for: "lin@example.com")
        #expect(link.contains("mode=signIn") && link.contains("continueUrl=https%3A%2F%2Fapp.example.com%2Ffinish%3Fcart%3D1"))

        let wrongEmail = try clients.iOS("emailLinkSignin", ["email": "other@example.com", "oobCode": code])
        #expect(wrongEmail.wireError == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
        let signedIn = try clients.iOS("emailLinkSignin", ["email": "LIN@example.com", "oobCode": code])
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(signedIn.json["isNewUser"] as? Bool == true)
        let idToken = try #require(signedIn.json["idToken"] as? String)
        #expect((JWTParts.claims(idToken)["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
        #expect(JWTParts.claims(idToken)["email_verified"] as? Bool == true)
        #expect(try clients.iOS("emailLinkSignin", ["email": "lin@example.com", "oobCode": code]).wireError.hasPrefix("INVALID_OOB_CODE"))

        let user = try clients.lookup(signedIn.json["localId"] as? String ?? "")
        #expect(user["emailLinkSignin"] as? Bool == true)
        #expect((user["providerUserInfo"] as? [[String: Any]] ?? []).contains { $0["providerId"] as? String == "password" })

        // A second link signs in to the same account.
        _ = try clients.web("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "lin@example.com", "continueUrl": "http://localhost:5173/", "canHandleCodeInApp": true])
        let (second, _) = try clients.code("EMAIL_SIGNIN", for: "lin@example.com")
        let again = try clients.web("signInWithEmailLink", ["email": "lin@example.com", "oobCode": second])
        #expect(again.json["isNewUser"] as? Bool == false)
        #expect(again.json["localId"] as? String == signedIn.json["localId"] as? String)
    }

    @Test("email-link sign-in to an account whose email nobody proved takes it over: its phone and sessions end; a proved one keeps them")
    func linkToExistingAccount() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let squatted = try clients.createUser(["localId": "squatter", "email": "victim@example.com", "phoneNumber": "+15555550111"])
        let proved = try clients.createUser(["localId": "owner", "email": "owner@example.com", "emailVerified": true, "phoneNumber": "+15555550122"])
        var squatterSession = try clients.session(uid: squatted)
        var ownerSession = try clients.session(uid: proved)
        for email in ["victim@example.com", "owner@example.com"] {
            _ = try clients.web("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "http://localhost:5173/"])
            let (code, _) = try clients.code("EMAIL_SIGNIN", for: email)
            let signedIn = try clients.web("signInWithEmailLink", ["email": email, "oobCode": code])
            #expect(signedIn.json["isNewUser"] as? Bool == false, "\(signedIn.text)")
        }
        #expect(try clients.lookup(squatted)["phoneNumber"] == nil)
        #expect(try CustomTokenClient(server: server).refresh(&squatterSession).wireError.hasPrefix("TOKEN_EXPIRED"))
        #expect(try clients.lookup(proved)["phoneNumber"] as? String == "+15555550122")
        #expect(try CustomTokenClient(server: server).refresh(&ownerSession).status == 200)
    }

    @Test("email-link sign-in with an idToken links the email to that user; an email another account has is refused")
    func linkEmailToSignedInUser() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let guest = try FirebaseIOSClient(server: server).signUpAnonymously()
        let idToken = try #require(guest.json["idToken"] as? String)
        let guestID = try #require(guest.json["localId"] as? String)
        _ = try clients.createUser(["email": "other@example.com"])
        for email in ["other@example.com", "guest@example.com"] {
            _ = try clients.web("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "http://localhost:5173/"])
        }
        let (taken, _) = try clients.code("EMAIL_SIGNIN", for: "other@example.com")
        #expect(try clients.iOS("emailLinkSignin", ["email": "other@example.com", "oobCode": taken, "idToken": idToken]).wireError.hasPrefix("EMAIL_EXISTS"))
        let (code, _) = try clients.code("EMAIL_SIGNIN", for: "guest@example.com")
        let linked = try clients.iOS("emailLinkSignin", ["email": "guest@example.com", "oobCode": code, "idToken": idToken])
        #expect(linked.status == 200, "\(linked.text)")
        #expect(linked.json["localId"] as? String == guestID)
        let user = try clients.lookup(guestID)
        #expect(user["email"] as? String == "guest@example.com")
        #expect(user["emailVerified"] as? Bool == true)
    }

    @Test("expired codes are refused with EXPIRED_OOB_CODE and leave the listing")
    func expiredCodes() throws {
        let directory = HearthProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("hearth.json")
        try JSONSerialization.data(withJSONObject: ["emailActions": ["codeLifetimeSeconds": 1, "signInLinkLifetimeSeconds": 1]]).write(to: config)
        let server = HearthProcess(arguments: ["--dev", "--config", config.path], dataDirectory: directory)
        try server.start()
        let clients = EmailActionClients(server: server)
        _ = try clients.createUser(["email": "late@example.com"])
        _ = try clients.web("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "late@example.com"])
        _ = try clients.web("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "late@example.com", "continueUrl": "http://localhost:5173/"])
        let (reset, _) = try clients.code("PASSWORD_RESET", for: "late@example.com")
        let (signIn, _) = try clients.code("EMAIL_SIGNIN", for: "late@example.com")
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try clients.web("resetPassword", ["oobCode": reset, "newPassword": Self.strongPassword]).wireError.hasPrefix("EXPIRED_OOB_CODE"))
        #expect(try clients.web("resetPassword", ["oobCode": reset]).wireError.hasPrefix("EXPIRED_OOB_CODE"))
        #expect(try clients.web("signInWithEmailLink", ["email": "late@example.com", "oobCode": signIn]).wireError.hasPrefix("EXPIRED_OOB_CODE"))
        #expect(try clients.oobCodes().isEmpty)
    }

    @Test("concurrent uses of one code: exactly one succeeds")
    func concurrentUse() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let uid = try clients.createUser(["localId": "racer", "email": "race@example.com"])
        _ = try clients.web("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": try clients.session(uid: uid).idToken])
        let (code, _) = try clients.code("VERIFY_EMAIL", for: "race@example.com")
        let statuses = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            let status = (try? clients.web("update", ["oobCode": code]).status) ?? -1
            statuses.withLock { $0.append(status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1, "\(all)")
        #expect(all.filter { $0 == 400 }.count == 11, "\(all)")
    }

    @Test("bad input gets the wire envelope, never a 500")
    func badInput() throws {
        let server = HearthProcess()
        try server.start()
        let clients = EmailActionClients(server: server)
        let bodies: [[String: Any]] = [
            [:], ["requestType": ""], ["requestType": "NOPE"], ["requestType": "RECOVER_EMAIL", "email": "a@b.c"],
            ["requestType": "PASSWORD_RESET"], ["requestType": "PASSWORD_RESET", "email": "no-at-sign"],
            ["requestType": "PASSWORD_RESET", "email": ["a"]], ["requestType": "VERIFY_EMAIL"],
            ["requestType": "VERIFY_EMAIL", "idToken": "garbage"], ["requestType": 7, "email": true],
            ["oobCode": ""], ["oobCode": "x", "newPassword": 5], ["oobCode": ["x"]], ["email": "a@b.c"], ["email": "a@b.c", "oobCode": "x"],
            ["identifier": ""], ["identifier": "nope"], ["identifier": "a@b.c"], ["identifier": "a@b.c", "continueUri": "::"],
            ["identifier": "a@b.c", "continueUri": "http://x/", "providerId": "google.com"], ["tenantId": "t1"],
        ]
        for name in ["sendOobCode", "resetPassword", "signInWithEmailLink", "createAuthUri", "update"] {
            for body in bodies {
                let result = try clients.web(name, body)
                #expect((400..<500).contains(result.status) || result.status == 501 || result.status == 200, "\(name) \(body): \(result.status) \(result.text)")
                if result.status != 200 { #expect(result.errorMessage != nil, "\(name) \(body): \(result.text)") }
            }
        }
        let notJSON = try server.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=k", headers: [("Content-Type", "application/json")], body: Data("{".utf8))
        #expect(notJSON.status == 400)
        #expect(try clients.oobCodes().isEmpty)
        #expect(try server.request("GET", "/emulator/action?mode=resetPassword&oobCode=nope").status == 400)
    }
}
