import Foundation
import Testing

/// The account takeovers of issue 18, tried as the attacker would against the built server in production mode
/// (``ProductionHearth``): each test is the attack, and what must hold (docs/SECURITY.md, "Account takeovers").
@Suite("Account takeovers and leaks (e2e, production mode)", .blocking, .serialized)
struct AccountTakeoverTests {
    static let attackerPassword = "attacker's Passw0rd"
    static let victim = "victim@gmail.com"
    static let attackerMail = "attacker@evil.example"

    /// The attacker registers the victim's address (unverified) and asks for a change of email to his own address,
    /// keeping the code: what the victim's later sign-in must void.
    static func preRegister(_ hearth: ProductionHearth) throws -> (localID: String, heldCode: String) {
        let signedUp = try hearth.signUp(victim, attackerPassword)
        #expect(signedUp.status == 200, "\(signedUp.text)")
        let idToken = try #require(signedUp.json["idToken"] as? String)
        let asked = try hearth.accounts("sendOobCode", [
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": attackerMail,
        ])
        #expect(asked.status == 200, "\(asked.text)")
        let held = try hearth.mail(to: attackerMail)
        #expect(held.mode == "verifyAndChangeEmail")
        return (try #require(signedUp.json["localId"] as? String), held.oobCode)
    }

    /// After the victim took the account: the held code is void, the email is the victim's, the attacker's password
    /// signs nothing in, and a reset to the attacker's address goes nowhere.
    static func expectTakenBack(_ hearth: ProductionHearth, localID: String, heldCode: String, victimToken: String) throws {
        let applied = try hearth.accounts("update", ["oobCode": heldCode])
        #expect(applied.status == 400 && applied.wireCode == "INVALID_OOB_CODE", "\(applied.text)")
        let account = try hearth.lookup(victimToken)
        #expect(account["localId"] as? String == localID)
        #expect(account["email"] as? String == victim && account["emailVerified"] as? Bool == true)
        #expect(try hearth.signInWithPassword(victim, attackerPassword).status == 400)
        #expect(try hearth.signInWithPassword(attackerMail, attackerPassword).status == 400)
        #expect(try hearth.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": attackerMail]).status == 200)
        #expect(hearth.mailCount(to: attackerMail) == 1, "no account has the attacker's address: no reset is sent")
    }

    @Test("a change-of-email code the pre-registering attacker kept dies with a Google takeover")
    func takeBackAfterGoogle() throws {
        let hearth = try ProductionHearth()
        let (localID, held) = try Self.preRegister(hearth)
        let victim = try hearth.google("victim-google", email: Self.victim)
        #expect(victim.status == 200 && victim.json["localId"] as? String == localID, "\(victim.text)")
        let victimToken = try #require(victim.json["idToken"] as? String)
        try Self.expectTakenBack(hearth, localID: localID, heldCode: held, victimToken: victimToken)
        let providers = try hearth.lookup(victimToken)["providerUserInfo"] as? [[String: Any]]
        #expect(providers?.compactMap { $0["providerId"] as? String } == ["google.com"], "the attacker's password is gone")
    }

    @Test("a change-of-email code the pre-registering attacker kept dies with an email-link sign-in")
    func takeBackAfterEmailLink() throws {
        let hearth = try ProductionHearth()
        let (localID, held) = try Self.preRegister(hearth)
        let sent = try hearth.accounts("sendOobCode", [
            "requestType": "EMAIL_SIGNIN", "email": Self.victim, "continueUrl": "https://\(ProductionHearth.appHost)/finish",
        ])
        #expect(sent.status == 200, "\(sent.text)")
        let link = try hearth.mail(to: Self.victim)
        let victim = try hearth.accounts("signInWithEmailLink", ["email": Self.victim, "oobCode": link.oobCode])
        #expect(victim.status == 200 && victim.json["localId"] as? String == localID, "\(victim.text)")
        try Self.expectTakenBack(hearth, localID: localID, heldCode: held, victimToken: try #require(victim.json["idToken"] as? String))
    }

    @Test("a change-of-email code the pre-registering attacker kept dies with the victim's password reset")
    func takeBackAfterPasswordReset() throws {
        let hearth = try ProductionHearth()
        let (localID, held) = try Self.preRegister(hearth)
        // The attacker also linked a provider account of his own, to keep a way in.
        let attacker = try hearth.signInWithPassword(Self.victim, Self.attackerPassword)
        let linked = try hearth.google(
            "attacker-google", email: "attacker@gmail.com", linking: try #require(attacker.json["idToken"] as? String))
        #expect(linked.status == 200, "\(linked.text)")
        #expect(try hearth.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": Self.victim]).status == 200)
        let reset = try hearth.mail(to: Self.victim)
        let done = try hearth.accounts("resetPassword", ["oobCode": reset.oobCode, "newPassword": "victim's new Passw0rd"])
        #expect(done.status == 200, "\(done.text)")
        let victim = try hearth.signInWithPassword(Self.victim, "victim's new Passw0rd")
        #expect(victim.status == 200 && victim.json["localId"] as? String == localID, "\(victim.text)")
        try Self.expectTakenBack(hearth, localID: localID, heldCode: held, victimToken: try #require(victim.json["idToken"] as? String))
        let again = try hearth.google("attacker-google", email: "attacker@gmail.com")
        #expect(again.json["localId"] as? String != localID, "the attacker's linked identity went with the takeover")
        #expect(try hearth.refresh(try #require(attacker.json["refreshToken"] as? String)).status == 400)
    }

    @Test("a recovery ends every session, removes the password the thief set, and voids the thief's codes")
    func recovery() throws {
        let hearth = try ProductionHearth()
        let owner = "owner@example.com"
        let created = try hearth.signUp(owner, "owner's Passw0rd")
        #expect(created.status == 200, "\(created.text)")
        // A thief with a fresh session (a phished password) moves the email to his address and sets his password.
        let thief = try hearth.signInWithPassword(owner, "owner's Passw0rd")
        let thiefToken = try #require(thief.json["idToken"] as? String)
        #expect(try hearth.accounts("sendOobCode", [
            "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": thiefToken, "newEmail": Self.attackerMail,
        ]).status == 200)
        #expect(try hearth.accounts("update", ["oobCode": try hearth.mail(to: Self.attackerMail).oobCode]).status == 200)
        let recovery = try hearth.mail(to: owner)
        #expect(recovery.mode == "recoverEmail")
        #expect(try hearth.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": Self.attackerMail]).status == 200)
        let reset = try hearth.mail(to: Self.attackerMail, count: 2)
        #expect(try hearth.accounts("resetPassword", ["oobCode": reset.oobCode, "newPassword": Self.attackerPassword]).status == 200)
        let thiefAgain = try hearth.signInWithPassword(Self.attackerMail, Self.attackerPassword)
        #expect(thiefAgain.status == 200, "\(thiefAgain.text)")
        // … and asks for one more reset, to come back after the recovery.
        #expect(try hearth.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": Self.attackerMail]).status == 200)
        let spare = try hearth.mail(to: Self.attackerMail, count: 3)

        // The owner's recovery link still works after everything the thief did.
        let recovered = try hearth.accounts("update", ["oobCode": recovery.oobCode])
        #expect(recovered.status == 200 && recovered.json["email"] as? String == owner, "\(recovered.text)")
        #expect(try hearth.refresh(try #require(thiefAgain.json["refreshToken"] as? String)).wireCode == "TOKEN_EXPIRED")
        #expect(try hearth.signInWithPassword(owner, Self.attackerPassword).status == 400, "the thief's password is gone")
        #expect(try hearth.signInWithPassword(Self.attackerMail, Self.attackerPassword).status == 400)
        let spent = try hearth.accounts("resetPassword", ["oobCode": spare.oobCode, "newPassword": "thief's third Passw0rd"])
        #expect(spent.wireCode == "INVALID_OOB_CODE", "\(spent.text)")
        // The owner sets a new password through a reset to the restored address.
        #expect(try hearth.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": owner]).status == 200)
        let ownerReset = try hearth.mail(to: owner, count: 2)
        #expect(try hearth.accounts("resetPassword", ["oobCode": ownerReset.oobCode, "newPassword": "owner's new Passw0rd"]).status == 200)
        #expect(try hearth.signInWithPassword(owner, "owner's new Passw0rd").status == 200)
    }

    @Test("a reset code asked for before a change of password stops working")
    func resetCodeAfterPasswordChange() throws {
        let hearth = try ProductionHearth()
        let created = try hearth.signUp("pat@example.com", "pat's first Passw0rd")
        #expect(try hearth.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "pat@example.com"]).status == 200)
        let early = try hearth.mail(to: "pat@example.com")
        let changed = try hearth.accounts("update", [
            "idToken": try #require(created.json["idToken"] as? String), "password": "pat's second Passw0rd",
        ])
        #expect(changed.status == 200, "\(changed.text)")
        let used = try hearth.accounts("resetPassword", ["oobCode": early.oobCode, "newPassword": "someone's Passw0rd"])
        #expect(used.wireCode == "INVALID_OOB_CODE", "\(used.text)")
        #expect(try hearth.signInWithPassword("pat@example.com", "pat's second Passw0rd").status == 200)
    }

    // MARK: Recent sign-in

    /// Every change of how an account signs in, with an ID token whose sign-in is no longer recent (the window is
    /// shortened to two seconds and waited out; the token itself is still valid for its hour).
    @Test("a stolen hour-long ID token cannot change how the account signs in once its sign-in is no longer recent")
    func recentSignIn() throws {
        let hearth = try ProductionHearth(recentSignInSeconds: 2)
        let google = try hearth.google("victim-old", email: "old.victim@gmail.com")
        let withPassword = try hearth.signUp("pw.victim@example.com", "victim's Passw0rd")
        let googleToken = try #require(google.json["idToken"] as? String)
        let passwordToken = try #require(withPassword.json["idToken"] as? String)
        hearth.waitPastRecentSignIn()
        #expect(try hearth.accounts("lookup", ["idToken": googleToken]).status == 200, "the token is still valid")

        let attempts: [(String, () throws -> HTTPResult)] = [
            ("remove the password", { try hearth.accounts("update", ["idToken": passwordToken, "deleteProvider": ["password"]]) }),
            ("unlink Google", { try hearth.accounts("update", ["idToken": googleToken, "deleteProvider": ["google.com"]]) }),
            ("delete the email", { try hearth.accounts("update", ["idToken": passwordToken, "deleteAttribute": ["EMAIL"]]) }),
            ("link a password", {
                try hearth.accounts("signUp", ["idToken": googleToken, "email": Self.attackerMail, "password": Self.attackerPassword])
            }),
            ("change the password", { try hearth.accounts("update", ["idToken": passwordToken, "password": Self.attackerPassword]) }),
            ("link a provider", { try hearth.partner("attacker-partner", email: "p@evil.example", linking: googleToken) }),
            ("change the email by code", {
                try hearth.accounts("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": googleToken, "newEmail": Self.attackerMail])
            }),
            ("enrol a second factor", {
                try hearth.call("v2/accounts/mfaEnrollment:start", ["idToken": googleToken, "totpEnrollmentInfo": [String: Any]()])
            }),
            ("delete the account", { try hearth.accounts("delete", ["idToken": googleToken]) }),
        ]
        for (name, attempt) in attempts {
            let answer = try attempt()
            #expect(answer.status == 400 && answer.wireCode == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "\(name): \(answer.text)")
        }
        let account = try hearth.lookup(googleToken)
        #expect((account["providerUserInfo"] as? [[String: Any]])?.count == 1 && account["email"] as? String == "old.victim@gmail.com")
        #expect(try hearth.signInWithPassword("pw.victim@example.com", "victim's Passw0rd").status == 200)
        #expect(hearth.mailCount(to: Self.attackerMail) == 0)
    }

    @Test("a fresh sign-in may link a password, which ends the account's other sessions; a guest may upgrade at any age")
    func recentSignInEndsOtherSessions() throws {
        let hearth = try ProductionHearth(recentSignInSeconds: 2)
        let laptop = try hearth.google("two-devices", email: "two@gmail.com")
        let phone = try hearth.google("two-devices", email: "two@gmail.com")
        let linked = try hearth.accounts("signUp", [
            "idToken": try #require(phone.json["idToken"] as? String), "email": "two@gmail.com", "password": "two's Passw0rd",
        ])
        #expect(linked.status == 200, "\(linked.text)")
        #expect(try hearth.refresh(try #require(laptop.json["refreshToken"] as? String)).wireCode == "TOKEN_EXPIRED")
        #expect(try hearth.refresh(try #require(linked.json["refreshToken"] as? String)).status == 200)

        let guest = try hearth.accounts("signUp", ["returnSecureToken": true])
        hearth.waitPastRecentSignIn()
        let guestRefresh = try #require(guest.json["refreshToken"] as? String)
        let guestToken = try #require(try hearth.refresh(guestRefresh).json["id_token"] as? String)
        let upgraded = try hearth.accounts("signUp", ["idToken": guestToken, "email": "guest@example.com", "password": "guest Passw0rd"])
        #expect(upgraded.status == 200 && upgraded.json["localId"] as? String == guest.json["localId"] as? String, "\(upgraded.text)")
    }

    // MARK: Email oracle

    @Test("a guest cannot tell registered addresses from others: direct changes are refused, coded ones answer alike")
    func emailOracle() throws {
        let hearth = try ProductionHearth(extra: ["emailActions": [
            "authorizedDomains": [ProductionHearth.appHost], "emailChangesPerAccountPerHour": 3,
        ]])
        #expect(try hearth.signUp("known@example.com", "known Passw0rd").status == 200)
        let guest = try hearth.accounts("signUp", ["returnSecureToken": true])
        let guestToken = try #require(guest.json["idToken"] as? String)
        /// What the attacker sees of an answer: its status and its JSON (whose key order Foundation does not fix).
        func seen(_ answer: HTTPResult) -> NSDictionary {
            NSDictionary(dictionary: answer.json.merging(["status": answer.status]) { first, _ in first })
        }
        var answers: [String: [NSDictionary]] = [:]
        for address in ["known@example.com", "unknown@example.com"] {
            let direct = try hearth.accounts("update", ["idToken": guestToken, "email": address])
            #expect(direct.wireCode == "OPERATION_NOT_ALLOWED", "\(direct.text)")
            let coded = try hearth.accounts("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": guestToken, "newEmail": address])
            answers[address, default: []] += [seen(direct), seen(coded)]
        }
        #expect(answers["known@example.com"] == answers["unknown@example.com"])
        #expect(hearth.mailCount(to: "known@example.com") == 0, "the owner of a taken address gets nothing")
        #expect(hearth.mailCount(to: "unknown@example.com") == 1)
        // Once the account's quota of changes is spent, every address answers the same refusal.
        _ = try hearth.accounts("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": guestToken, "newEmail": "third@example.com"])
        let spent = try ["known@example.com", "unknown@example.com"].map { address in
            try hearth.accounts("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": guestToken, "newEmail": address])
        }
        #expect(spent.allSatisfy { $0.wireCode == "TOO_MANY_ATTEMPTS_TRY_LATER" }, "\(spent.map(\.text))")
        #expect(seen(spent[0]) == seen(spent[1]))
        // Linking an email and password to the guest counts against the same quota.
        let linked = try hearth.accounts("signUp", ["idToken": guestToken, "email": "known@example.com", "password": "guest Passw0rd"])
        #expect(linked.wireCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "\(linked.text)")
    }

    // MARK: Providers trusted for an address

    @Test("an IdP that lets users claim a verified address cannot sign in to that address's account")
    func untrustedProviderEmail() throws {
        let hearth = try ProductionHearth()
        let victim = try hearth.google("victim-1", email: Self.victim)
        #expect(victim.status == 200, "\(victim.text)")
        let victimID = try #require(victim.json["localId"] as? String)
        let attacker = try hearth.partner("attacker-1", email: Self.victim, verified: true)
        #expect(attacker.status == 200 && attacker.json["needConfirmation"] as? Bool == true, "\(attacker.text)")
        #expect(attacker.json["idToken"] == nil && attacker.json["refreshToken"] == nil)
        let account = try hearth.lookup(try #require(victim.json["idToken"] as? String))
        #expect((account["providerUserInfo"] as? [[String: Any]])?.compactMap { $0["providerId"] as? String } == ["google.com"])
        // Nor can it take over an unverified account with the address, and its own accounts stay unverified.
        #expect(try hearth.signUp("unproven@example.com", "someone's Passw0rd").status == 200)
        let takeover = try hearth.partner("attacker-2", email: "unproven@example.com", verified: true)
        #expect(takeover.json["needConfirmation"] as? Bool == true, "\(takeover.text)")
        #expect(try hearth.signInWithPassword("unproven@example.com", "someone's Passw0rd").status == 200)
        let fresh = try hearth.partner("attacker-3", email: "fresh@example.com", verified: true)
        #expect(fresh.json["emailVerified"] as? Bool == false, "\(fresh.text)")
        // Google is trusted only for its own addresses: gmail.com and the hosted domain a token names.
        #expect(try hearth.signUp("staff@corp.example", "staff Passw0rd").status == 200)
        let outside = try hearth.google("staff-google", email: "staff@corp.example")
        #expect(outside.json["needConfirmation"] as? Bool == true, "\(outside.text)")
        let hosted = try hearth.google("staff-google", email: "staff@corp.example", hd: "corp.example")
        #expect(hosted.status == 200 && hosted.json["idToken"] != nil, "\(hosted.text)")
        #expect(victimID != hosted.json["localId"] as? String)
    }

    @Test("an operator may trust an OpenID provider for emails; then its verified address joins the account")
    func trustedProviderEmail() throws {
        let hearth = try ProductionHearth(trustsPartnerEmails: true)
        let victim = try hearth.google("victim-1", email: Self.victim)
        let joined = try hearth.partner("partner-1", email: Self.victim, verified: true)
        #expect(joined.status == 200 && joined.json["localId"] as? String == victim.json["localId"] as? String, "\(joined.text)")
    }

    // MARK: One spelling per address

    @Test("addresses that differ only by Unicode form are one address; invisible characters are refused")
    func emailSpelling() throws {
        let hearth = try ProductionHearth()
        #expect(try hearth.signUp("zo\u{00EB}@example.com", "zoe's Passw0rd").status == 200)
        let decomposed = try hearth.signUp("zoe\u{0308}@example.com", "other Passw0rd")
        #expect(decomposed.wireCode == "EMAIL_EXISTS", "\(decomposed.text)")
        #expect(try hearth.signInWithPassword("ZOE\u{0308}@example.com", "zoe's Passw0rd").status == 200)
        for hidden in ["zo\u{200B}e@example.com", "zoe@exa\u{202E}mple.com", "zoe\u{2066}@example.com", "\u{FEFF}zoe@example.com"] {
            let answer = try hearth.signUp(hidden, "hidden Passw0rd")
            #expect(answer.wireCode == "INVALID_EMAIL", "\(hidden.unicodeScalars.map { String($0.value, radix: 16) }): \(answer.text)")
        }
    }
}
