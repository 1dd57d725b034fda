import Foundation
import HearthCore
import HearthProtocol
import Testing

/// Every first-factor method against the same account states: one completion decides for all of them, so each
/// row's outcome is the same for every method that can reach that state (DESIGN.md decision 19).
@Suite("One sign-in completion: every method × every account state")
struct SignInCompletionTableTests {
    /// What a sign-in answered, as the table compares it.
    enum Outcome: Equatable, CustomStringConvertible {
        /// Tokens for `localID`.
        case session(localID: String, isNewUser: Bool)
        /// A pending credential instead of tokens.
        case secondFactor(localID: String)
        /// `needConfirmation` for the account that has the email; no tokens.
        case needsConfirmation
        case refused(ErrorCode)

        var description: String {
            switch self {
            case .session(let id, let new): "session(\(id), new: \(new))"
            case .secondFactor(let id): "secondFactor(\(id))"
            case .needsConfirmation: "needsConfirmation"
            case .refused(let code): "refused(\(code))"
            }
        }
    }

    /// A first-factor method: how it registers a returning user, and how it signs one in.
    struct Method: CustomTestStringConvertible, Sendable {
        let name: String
        /// Makes the account this method signs in to later, for `email`; returns its uid.
        let register: @Sendable (Harness, String) throws -> String
        /// Signs in as the user of `email`.
        let signIn: @Sendable (Harness, String) throws -> Outcome
        /// What the user does before the account's state changes (an email link is sent, then the account disabled).
        var start: @Sendable (Harness, String) throws -> Void = { _, _ in }
        /// The method proves the email, so it takes over an unverified account of the same address.
        var provesEmail = true
        /// The method asks for an enrolled second factor (a custom token does not, as in the Firebase emulator).
        var asksSecondFactor = true

        var testDescription: String { name }
    }

    /// A platform with every method configured, and the refresh tokens each sign-in returned.
    final class Harness: @unchecked Sendable {
        // @unchecked: one test uses one harness, from one thread.
        let test: TestPlatform
        let serviceAccount: TestServiceAccount
        /// Refresh tokens in the order the sign-ins returned them.
        var refreshTokens: [String] = []
        /// Email-link codes sent ahead of the sign-in, by address.
        var sentLinks: [String: String] = [:]
        static let password = "correct horse battery staple"

        init(maximumSessions: Int = 10) throws {
            var sessions = SessionPolicy()
            sessions.maximumSessionsPerAccount = maximumSessions
            test = try TestPlatform(mfa: .allFactors, sessions: sessions)
            serviceAccount = try TestServiceAccount(test)
        }

        /// The subject a provider knows `email`'s user by.
        static func subject(_ email: String) -> String { "sub-" + email.prefix { $0 != "@" } }

        func outcome(localID: String?, idToken: String?, refreshToken: String?, isNewUser: Bool?, pending: String?)
            -> Outcome
        {
            if pending != nil, idToken == nil { return .secondFactor(localID: localID ?? "") }
            guard idToken != nil, let refreshToken else { return .refused(.internalError) }
            refreshTokens.append(refreshToken)
            return .session(localID: localID ?? "", isNewUser: isNewUser ?? false)
        }

        func idp(_ providerID: String, _ email: String) throws -> Outcome {
            let answer = try test.signIn(subject: Self.subject(email), email: email, providerID: providerID)
            if answer.needConfirmation == true { return .needsConfirmation }
            return outcome(
                localID: answer.localId, idToken: answer.idToken, refreshToken: answer.refreshToken,
                isNewUser: answer.isNewUser, pending: answer.mfaPendingCredential)
        }

        func signUpWithPassword(_ email: String) throws -> String {
            let answer = try test.platform.passwordAccounts.signUp(SignUpRequest(email: email, password: Self.password), by: .user(client: nil))
            refreshTokens.append(answer.refreshToken)
            return answer.localId
        }

        func passwordSignIn(_ email: String) throws -> Outcome {
            let answer = try test.platform.passwordAccounts.signIn(
                SignInWithPasswordRequest(email: email, password: Self.password), by: .user(client: nil))
            return outcome(
                localID: answer.localId, idToken: answer.idToken, refreshToken: answer.refreshToken, isNewUser: false,
                pending: answer.mfaPendingCredential)
        }

        func sendLink(_ email: String) throws -> String? {
            try test.platform.emailActions.sendOobCode(
                SendOobCodeRequest(
                    requestType: "EMAIL_SIGNIN", email: email, continueUrl: "https://app.example.com/", returnOobLink: true),
                by: .commandLine
            ).oobCode
        }

        func emailLink(_ email: String) throws -> Outcome {
            let code = try sentLinks.removeValue(forKey: email) ?? sendLink(email)
            let answer = try test.platform.emailActions.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code), by: .user(client: nil))
            return outcome(
                localID: answer.localId, idToken: answer.idToken, refreshToken: answer.refreshToken,
                isNewUser: answer.isNewUser, pending: answer.mfaPendingCredential)
        }

        /// The uid a custom token for `email`'s user names.
        static func uid(_ email: String) -> String { "uid-" + email.prefix { $0 != "@" } }

        func customToken(_ email: String) throws -> Outcome {
            let token = try serviceAccount.sign(serviceAccount.customTokenClaims(uid: Self.uid(email), now: test.time.nowSeconds))
            let answer = try test.platform.customTokens.signIn(SignInWithCustomTokenRequest(token: token), by: .user(client: nil))
            let localID = try test.claims(of: answer.idToken)["user_id"]?.stringValue
            return outcome(
                localID: localID, idToken: answer.idToken, refreshToken: answer.refreshToken, isNewUser: answer.isNewUser,
                pending: nil)
        }

        func account(_ localID: String) throws -> Account? { try test.store.read { try $0.account(localID: localID) } }

        func change(_ localID: String, _ body: @escaping @Sendable (inout Account) -> Void) throws {
            try test.store.write { writer in
                guard var account = try writer.account(localID: localID) else { throw StoreError(.notFound) }
                body(&account)
                try writer.updateAccount(account)
            }
        }

        /// Whether `refreshToken` still refreshes.
        func refreshes(_ refreshToken: String) -> Bool {
            (try? test.tokens.refresh(RefreshTokenRequest(refreshToken: refreshToken), by: .user(client: nil))) != nil
        }
    }

    static let methods: [Method] = [
        Method(
            name: "Google (signInWithIdp)",
            register: { harness, email in
                guard case .session(let id, _) = try harness.idp("google.com", email) else { throw Unexpected() }
                return id
            },
            signIn: { try $0.idp("google.com", $1) }),
        Method(
            name: "OpenID provider not trusted for emails",
            register: { harness, email in
                guard case .session(let id, _) = try harness.idp(TestPlatform.untrustedOpenID, email) else { throw Unexpected() }
                return id
            },
            signIn: { try $0.idp(TestPlatform.untrustedOpenID, $1) }, provesEmail: false),
        Method(
            name: "email and password", register: { try $0.signUpWithPassword($1) }, signIn: { try $0.passwordSignIn($1) }),
        Method(
            name: "email link",
            register: { harness, email in
                guard case .session(let id, _) = try harness.emailLink(email) else { throw Unexpected() }
                return id
            },
            signIn: { try $0.emailLink($1) },
            start: { harness, email in harness.sentLinks[email] = try harness.sendLink(email) }),
        Method(
            name: "custom token",
            register: { harness, email in
                guard case .session(let id, _) = try harness.customToken(email) else { throw Unexpected() }
                return id
            },
            signIn: { try $0.customToken($1) }, provesEmail: false, asksSecondFactor: false),
    ]

    struct Unexpected: Error {}

    /// Runs `body`; a wire error becomes the refusal it is.
    static func attempt(_ body: () throws -> Outcome) throws -> Outcome {
        do { return try body() } catch let error as WireError { return .refused(error.code) }
    }

    @Test("a new user: a session of a new account (a password sign-in has no account to find)", arguments: methods)
    func newUser(_ method: Method) throws {
        let harness = try Harness()
        let email = "new.user@gmail.com"
        let outcome = try Self.attempt { try method.signIn(harness, email) }
        if method.name == "email and password" {
            // The sign-up is this method's "new user"; a sign-in of an unknown address names no account.
            #expect(outcome == .refused(.invalidLoginCredentials))
            let localID = try harness.signUpWithPassword(email)
            #expect(try harness.account(localID)?.email == email)
            return
        }
        guard case .session(let localID, let isNew) = outcome else {
            Issue.record("\(method.name): \(outcome)")
            return
        }
        #expect(isNew)
        #expect(try harness.account(localID) != nil)
    }

    @Test("a returning user: a session of the same account, not new, and its last sign-in recorded", arguments: methods)
    func returningUser(_ method: Method) throws {
        let harness = try Harness()
        let email = "returning@gmail.com"
        let localID = try method.register(harness, email)
        harness.test.time.advance(by: 60)
        #expect(try Self.attempt { try method.signIn(harness, email) } == .session(localID: localID, isNewUser: false))
        #expect(try harness.account(localID)?.lastLoginAtMillis == harness.test.time.nowMillis)
    }

    @Test("a second factor enrolled: a pending credential and no tokens (a custom token is exempt)", arguments: methods)
    func secondFactorEnrolled(_ method: Method) throws {
        let harness = try Harness()
        let email = "enrolled@gmail.com"
        let localID = try method.register(harness, email)
        let sessionsBefore = harness.refreshTokens.count
        try harness.change(localID) { account in
            account.emailVerified = true
            account.mfaEnrollments = [
                MFAEnrollment(
                    enrollmentID: "factor-1", kind: .totp, enrolledAtMillis: 0,
                    totpSecret: Array("12345678901234567890".utf8))
            ]
        }
        let outcome = try Self.attempt { try method.signIn(harness, email) }
        if method.asksSecondFactor {
            #expect(outcome == .secondFactor(localID: localID))
            #expect(harness.refreshTokens.count == sessionsBefore, "no session started")
        } else {
            #expect(outcome == .session(localID: localID, isNewUser: false))
        }
    }

    @Test(
        "an unverified account with the same email: taken over by a method that proves the address, else left alone",
        arguments: methods)
    func unverifiedAccountWithTheEmail(_ method: Method) throws {
        let harness = try Harness()
        let email = "claimed@gmail.com"
        // Someone else registered the address with a password and never verified it.
        let squatter = try harness.signUpWithPassword(email)
        let squatterSession = try harness.passwordSignIn(email)
        #expect(squatterSession == .session(localID: squatter, isNewUser: false))
        let squatterToken = try #require(harness.refreshTokens.last)
        let outcome = try Self.attempt { try method.signIn(harness, email) }
        switch method.name {
        case "email and password":
            // The password is the squatter's own: it signs the squatter in, nothing more.
            #expect(outcome == .session(localID: squatter, isNewUser: false))
        case _ where method.provesEmail:
            // The address is proven: the account becomes the prover's, the squatter's password and sessions end.
            #expect(outcome == .session(localID: squatter, isNewUser: false))
            let account = try #require(try harness.account(squatter))
            #expect(account.emailVerified)
            #expect(account.passwordHash == nil)
            #expect(!harness.refreshes(squatterToken))
            #expect(try Self.attempt { try harness.passwordSignIn(email) } == .refused(.invalidLoginCredentials))
        case "custom token":
            // A custom token names a uid, not an address: its own account, the squatter's untouched.
            guard case .session(let localID, true) = outcome else {
                Issue.record("\(method.name): \(outcome)")
                return
            }
            #expect(localID != squatter)
            #expect(harness.refreshes(squatterToken))
        default:
            // A provider not trusted for the address may not join or take over its account.
            #expect(outcome == .needsConfirmation)
            #expect(try harness.account(squatter)?.passwordHash != nil)
            #expect(harness.refreshes(squatterToken))
        }
    }

    @Test("a disabled account: USER_DISABLED, no session, and the refusal audited", arguments: methods)
    func disabledAccount(_ method: Method) throws {
        let harness = try Harness()
        let email = "disabled@gmail.com"
        let localID = try method.register(harness, email)
        let sessionsBefore = harness.refreshTokens.count
        // An email link sent before the account was disabled: the sign-in, not the sending, is refused.
        try method.start(harness, email)
        try harness.change(localID) { $0.disabled = true }
        #expect(try Self.attempt { try method.signIn(harness, email) } == .refused(.userDisabled))
        #expect(harness.refreshTokens.count == sessionsBefore)
        let events = try harness.test.store.read { try $0.auditEvents(AuditQuery(localID: localID, limit: 100)) }
        #expect(events.contains { $0.kind == .signInFailed }, "\(method.name): the refusal is in the audit log")
    }

    @Test("the session cap reached: the sign-in succeeds and the account's oldest session ends", arguments: methods)
    func sessionCapReached(_ method: Method) throws {
        let harness = try Harness(maximumSessions: 2)
        let email = "busy@gmail.com"
        let localID = try method.register(harness, email)
        for _ in 0..<2 {
            harness.test.time.advance(by: 1)
            #expect(try Self.attempt { try method.signIn(harness, email) } == .session(localID: localID, isNewUser: false))
        }
        let tokens = harness.refreshTokens
        #expect(tokens.count == 3)
        #expect(tokens.map(harness.refreshes) == [false, true, true])
    }
}
