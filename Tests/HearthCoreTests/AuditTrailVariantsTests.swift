import Foundation
import HearthCore
import HearthProtocol
import Testing

/// The audit events of every path that records one, beyond the one scenario per kind of `AuditTrailTests`, and
/// their rollback with the change they record.
@Suite("Audit trail: every path")
struct AuditTrailVariantsTests {
    static let client = AuditFixture.client

    /// `kind localID provider client actor detail` of every event (`-` for nil), sorted: events of one
    /// millisecond have no order (their ids sort by time, then at random), and the test clock stands still.
    static func summary(_ f: AuditFixture) throws -> [String] {
        try f.events().map {
            [$0.kind.rawValue, $0.localID ?? "-", $0.provider ?? "-", $0.clientAddress ?? "-", $0.actor.rawValue, $0.detail]
                .joined(separator: " ")
        }.sorted()
    }

    @Test("every way in records one sign_up for a new account and one sign_in after it")
    func signInPaths() throws {
        let f = try AuditFixture()
        let guest = try f.platform.accounts.signUp(SignUpRequest(), by: .user(client: Self.client))
        let google = try f.google("g-7")
        let ada = try f.passwordSignUp()
        try f.passwordSignIn()
        let account = try TestServiceAccount(f.test)
        let customToken = { try account.sign(account.customTokenClaims(uid: "custom-1", now: f.test.time.nowSeconds)) }
        let customTokens = [try customToken(), try customToken()]
        for token in customTokens {
            _ = try f.platform.customTokens.signIn(SignInWithCustomTokenRequest(token: token), by: .user(client: Self.client))
        }
        let codes = [try f.emailLinkSignIn("link@example.com"), try f.emailLinkSignIn("link@example.com")]
        let link = try #require(try f.test.store.read { try $0.account(email: "link@example.com") })
        #expect(
            try Self.summary(f) == [
                "sign_up \(guest.localId) anonymous \(Self.client) user ",
                "sign_up \(try #require(google.localId)) google.com \(Self.client) user ",
                "sign_up \(ada.localId) password \(Self.client) user ",
                "sign_in \(ada.localId) password \(Self.client) user ",
                "sign_up custom-1 custom \(Self.client) user ",
                "sign_in custom-1 custom \(Self.client) user ",
                "sign_up \(link.localID) emailLink \(Self.client) user ",
                "sign_in \(link.localID) emailLink \(Self.client) user ",
            ].sorted())
        try f.expectNoSecret(customTokens + codes + [AuditFixture.password, guest.refreshToken, ada.refreshToken])
    }

    @Test("a sign-in stopped at the second factor says mfa_required; its finish is a sign_in with the factor")
    func secondFactorSignIn() throws {
        let f = try AuditFixture()
        let (user, secret, enrollmentID, _) = try f.enrolledTOTPUser()
        let localID = try #require(user.signIn.localId)
        let stopped = try f.google("mfa-user", email: "mfa-user@example.com")
        let pending = try #require(stopped.mfaPendingCredential)
        f.test.time.advance(by: 30)
        let code = user.totpCode(secret)
        let finished = try f.platform.mfa.finalizeSignIn(
            FinalizeMFASignInRequest(
                mfaPendingCredential: pending, mfaEnrollmentId: enrollmentID,
                totpVerificationInfo: TOTPVerificationInfo(verificationCode: code)),
            by: .user(client: Self.client))
        #expect(
            try Self.summary(f).filter { $0.hasPrefix("sign_in \(localID)") } == [
                "sign_in \(localID) google.com \(Self.client) user mfa_required",
                "sign_in \(localID) totp \(Self.client) user first_factor=google.com",
            ].sorted())
        try f.expectNoSecret([secret, pending, code, finished.idToken, finished.refreshToken])
    }

    @Test("refused sign-ins record the wire code, the account only when it is known, and nothing submitted")
    func refusedSignIns() throws {
        let f = try AuditFixture()
        let ada = try f.passwordSignUp()
        let google = try f.google("g-8")
        var codes: [ErrorCode?] = []
        codes.append(wireErrorCode { try f.passwordSignIn("ada@example.com", "not-her-password") })
        let badToken = "eyJhbGciOiJSUzI1NiJ9.not-a-token.at-all"
        codes.append(
            wireErrorCode { _ = try f.platform.accounts.signInWithIdp(f.test.signInRequest(idToken: badToken), by: .user(client: Self.client)) })
        codes.append(
            wireErrorCode {
                _ = try f.platform.customTokens.signIn(SignInWithCustomTokenRequest(token: "forged.custom.token"), by: .user(client: Self.client))
            })
        // iOS asks for the credential back: the refusal is an answer, not an error, and is recorded all the same.
        let taken = try f.platform.accounts.signInWithIdp(
            f.test.signInRequest(
                idToken: try f.test.google.idToken(subject: "g-8", email: "g-8@example.com"), linking: ada.idToken),
            by: .user(client: Self.client))
        #expect(taken.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
        var disable = AdminUpdateAccountRequest(localId: ada.localId)
        disable.disableUser = true
        _ = try f.platform.admin.update(disable, by: .system)
        codes.append(wireErrorCode { try f.passwordSignIn() })
        #expect(codes.map { $0?.rawValue } == ["INVALID_LOGIN_CREDENTIALS", "INVALID_IDP_RESPONSE", "INVALID_CUSTOM_TOKEN", "USER_DISABLED"])
        #expect(
            try Self.summary(f).filter { $0.hasPrefix("sign_in_failed") } == [
                "sign_in_failed \(ada.localId) password \(Self.client) user code=INVALID_LOGIN_CREDENTIALS",
                "sign_in_failed - google.com \(Self.client) user code=INVALID_IDP_RESPONSE",
                "sign_in_failed - custom \(Self.client) user code=INVALID_CUSTOM_TOKEN",
                "sign_in_failed - google.com \(Self.client) user code=FEDERATED_USER_ID_ALREADY_LINKED",
                "sign_in_failed \(ada.localId) password \(Self.client) user code=USER_DISABLED",
            ].sorted())
        try f.expectNoSecret(["not-her-password", badToken, "forged.custom.token", try #require(google.idToken)])
    }

    @Test("an expired pending sign-in, and wrong codes up to a factor's lockout, are recorded without the codes")
    func secondFactorFailures() throws {
        let f = try AuditFixture()
        let (user, secret, enrollmentID, _) = try f.enrolledTOTPUser()
        let localID = try #require(user.signIn.localId)
        let expired = try #require(try user.signInAgain().mfaPendingCredential)
        f.test.time.advance(by: 601)
        let finish = { (pending: String, code: String) in
            wireErrorCode {
                _ = try f.platform.mfa.finalizeSignIn(
                    FinalizeMFASignInRequest(
                        mfaPendingCredential: pending, mfaEnrollmentId: enrollmentID,
                        totpVerificationInfo: TOTPVerificationInfo(verificationCode: code)),
                    by: .user(client: Self.client))
            }
        }
        #expect(finish(expired, user.totpCode(secret)) == .invalidMFAPendingCredential)
        let pending = try #require(try user.signInAgain().mfaPendingCredential)
        let wrong = user.totpCode(secret) == "123456" ? "654321" : "123456"
        for _ in 0..<5 { _ = finish(pending, wrong) }
        let until = f.test.time.nowMillis + 900_000
        let events = try Self.summary(f).filter { $0.hasPrefix("mfa_failed") || $0.hasPrefix("lockout") }
        #expect(
            events == [
                "mfa_failed \(localID) totp \(Self.client) user code=INVALID_MFA_PENDING_CREDENTIAL",
                "mfa_failed \(localID) totp \(Self.client) user code=INVALID_CODE",
                "mfa_failed \(localID) totp \(Self.client) user code=INVALID_CODE",
                "mfa_failed \(localID) totp \(Self.client) user code=INVALID_CODE",
                "mfa_failed \(localID) totp \(Self.client) user code=INVALID_CODE",
                "lockout \(localID) - \(Self.client) system key=mfa-failure:factor:\(localID):\(enrollmentID) until_ms=\(until)",
                "mfa_failed \(localID) totp \(Self.client) user code=TOO_MANY_ATTEMPTS_TRY_LATER",
            ].sorted())
        try f.expectNoSecret([secret, wrong, pending, expired])
    }

    @Test("an administrator's update records the fields and what each change means, as the caller")
    func administratorUpdate() throws {
        let f = try AuditFixture()
        let actor = AuditActor.owner
        let admin = f.platform.admin
        let adminCaller = Caller(client: nil, actor: actor)
        let (user, _, enrollmentID, _) = try f.enrolledTOTPUser()
        let localID = try #require(user.signIn.localId)
        f.test.time.advance(by: 5)
        var request = AdminUpdateAccountRequest(localId: localID)
        request.displayName = "Grace"
        request.disableUser = true
        request.customAttributes = #"{"level":"claim-secret-9"}"#
        request.validSince = 0
        request.deleteProvider = ["google.com"]
        request.mfaEnrollments = []
        _ = try admin.update(request, by: adminCaller)
        let recorded = try Self.summary(f).filter { $0.contains(" owner ") }
        #expect(
            recorded == [
                "account_updated \(localID) - - owner fields=displayName,disabled,customAttributes,validSince,providerUserInfo,mfaInfo",
                "account_disabled \(localID) - - owner ",
                "claims_changed \(localID) - - owner ",
                "unlink \(localID) google.com - owner ",
                "factor_removed \(localID) totp - owner enrollment=\(enrollmentID)",
                "sessions_revoked \(localID) - - owner ",
            ].sorted())
        try f.expectNoSecret(["claim-secret-9", "Grace"])
    }

    @Test("batch imports and deletions record one event per account, in their one transaction")
    func batches() throws {
        let f = try AuditFixture()
        let admin = f.platform.admin
        let adminCaller = Caller(client: nil, actor: AuditTrailTests.serviceAccount)
        let ids = ["import-1", "import-2", "import-3"]
        var rows = ids.map { ImportedUser(localId: $0) }
        rows[0].email = "one@example.com"
        let imported = try admin.batchCreate(BatchCreateRequest(users: rows), by: adminCaller)
        #expect(imported.error.isEmpty)
        _ = try admin.batchDelete(BatchDeleteRequest(localIds: ["import-1", "unknown", "import-3"], force: true), by: adminCaller)
        let actor = AuditTrailTests.serviceAccount.rawValue
        #expect(
            try Self.summary(f) == (ids.map { "account_created \($0) - - \(actor) " } + [
                "account_deleted import-1 - - \(actor) ", "account_deleted import-3 - - \(actor) ",
            ]).sorted())
        try f.expectNoSecret(["one@example.com"])
    }

    @Test("a user's own changes: unlinking, credentials, an emailed password reset, deletion")
    func userChanges() throws {
        let f = try AuditFixture(emailEnumerationProtection: false)
        let ada = try f.passwordSignUp()
        f.test.time.advance(by: 5)
        var request = UpdateAccountRequest(idToken: ada.idToken)
        request.email = "ada.lovelace@example.com"
        request.password = "another long passphrase"
        let changed = try f.platform.accounts.update(request, by: .user(client: Self.client))
        let reset = try #require(
            try f.platform.emailActions.sendOobCode(
                SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "ada.lovelace@example.com", returnOobLink: true),
                by: .commandLine
            ).oobCode)
        f.test.time.advance(by: 5)
        _ = try f.platform.emailActions.resetPassword(
            ResetPasswordRequest(oobCode: reset, newPassword: "a third passphrase"), by: .user(client: Self.client))
        let signedIn = try f.passwordSignIn("ada.lovelace@example.com", "a third passphrase")
        _ = try f.platform.accounts.delete(DeleteAccountRequest(idToken: signedIn.idToken), by: .user(client: Self.client))
        let id = ada.localId
        #expect(
            try Self.summary(f).filter { !$0.hasPrefix("sign_") } == [
                "password_changed \(id) password \(Self.client) user ",
                "email_changed \(id) - \(Self.client) user ",
                "sessions_revoked \(id) - \(Self.client) user ",
                "password_changed \(id) password \(Self.client) user ",
                "sessions_revoked \(id) - \(Self.client) user ",
                "account_deleted \(id) - \(Self.client) user ",
            ].sorted())
        try f.expectNoSecret(
            ["another long passphrase", "a third passphrase", reset, try #require(changed.idToken), "ada.lovelace@example.com"])
    }

    @Test("the operator's `hearth users` actions are recorded as command-line")
    func operatorActions() throws {
        let f = try AuditFixture()
        let (user, _, enrollmentID, _) = try f.enrolledTOTPUser()
        let localID = try #require(user.signIn.localId)
        f.test.time.advance(by: 5)
        try f.platform.admin.setDisabled(localID: localID, true, by: .commandLine)
        try f.platform.admin.setDisabled(localID: localID, false, by: .commandLine)
        try f.platform.admin.revokeSessions(localID: localID, by: .commandLine)
        _ = try f.platform.admin.removeSecondFactor(localID: localID, enrollmentID: enrollmentID, by: .commandLine)
        _ = try f.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(localID)])), by: .commandLine)
        #expect(
            try Self.summary(f).filter { $0.contains(" command-line ") } == [
                "account_updated \(localID) - - command-line fields=disabled",
                "account_disabled \(localID) - - command-line ",
                "account_updated \(localID) - - command-line fields=disabled",
                "account_enabled \(localID) - - command-line ",
                "account_updated \(localID) - - command-line fields=validSince",
                "sessions_revoked \(localID) - - command-line ",
                "account_updated \(localID) - - command-line fields=mfaInfo",
                "factor_removed \(localID) totp - command-line enrollment=\(enrollmentID)",
                "account_deleted \(localID) - - command-line ",
            ].sorted())
    }

    @Test("a verified sign-in that takes over an unproven email records the identity linked and every way in dropped")
    func takeovers() throws {
        let f = try AuditFixture()
        let byGoogle = try f.passwordSignUp("taken@gmail.com")
        let byLink = try f.passwordSignUp("linked@example.com")
        f.test.time.advance(by: 5)
        _ = try f.google("g-10", email: "taken@gmail.com")
        let code = try f.emailLinkSignIn("linked@example.com")
        let (google, link) = (byGoogle.localId, byLink.localId)
        #expect(
            try Self.summary(f).filter { !$0.hasPrefix("sign_up") } == [
                "unlink \(google) password \(Self.client) user ", "link \(google) google.com \(Self.client) user ",
                "sessions_revoked \(google) - \(Self.client) user ", "sign_in \(google) google.com \(Self.client) user ",
                "unlink \(link) password \(Self.client) user ", "sessions_revoked \(link) - \(Self.client) user ",
                "sign_in \(link) emailLink \(Self.client) user ",
            ].sorted())
        try f.expectNoSecret([code, AuditFixture.password])
    }

    @Test("a change whose transaction rolls back leaves no event; once it commits, exactly one")
    func rollback() throws {
        var failing: FailingCommitStore?
        let f = try AuditFixture { store in
            let wrapper = FailingCommitStore(store)
            failing = wrapper
            return wrapper
        }
        let store = try #require(failing)
        let admin = f.platform.admin
        let adminCaller = Caller(client: nil, actor: .owner)
        var create = AdminCreateAccountRequest()
        create.localId = "rolled-back"
        let badToken = "not.a.token"

        // Only the transactions that make these changes are refused, so an event written in a write of its own
        // (before or beside the change) would stay.
        store.fail { reader in
            try reader.account(localID: "rolled-back") != nil || reader.account(providerID: "google.com", rawID: "g-9") != nil
                || reader.account(email: "ada@example.com") != nil || reader.signingKeys().count > 1
        }
        #expect(throws: FailingCommitStore.Injected.self) { try admin.create(create, by: adminCaller) }
        #expect(throws: FailingCommitStore.Injected.self) { try f.google("g-9") }
        #expect(throws: FailingCommitStore.Injected.self) { try f.passwordSignUp() }
        #expect(throws: FailingCommitStore.Injected.self) { try f.platform.sessionKeys.rotate(by: .commandLine) }
        #expect(try f.events().isEmpty)
        #expect(try f.test.store.read { try $0.accountCount() } == 0)

        // Every write refused: a refusal whose record cannot be written is still answered as the refusal.
        store.fail { _ in true }
        #expect(
            wireErrorCode { _ = try f.platform.accounts.signInWithIdp(f.test.signInRequest(idToken: badToken), by: .user(client: Self.client)) }
                == .invalidIdpResponse)
        #expect(try f.events().isEmpty)

        store.fail(when: nil)
        _ = try admin.create(create, by: adminCaller)
        _ = try f.google("g-9")
        #expect(
            wireErrorCode { _ = try f.platform.accounts.signInWithIdp(f.test.signInRequest(idToken: badToken), by: .user(client: Self.client)) }
                == .invalidIdpResponse)
        #expect(try f.events().map(\.kind).sorted() == [.accountCreated, .signInFailed, .signUp])
        #expect(try f.only(.accountCreated).localID == "rolled-back")
    }
}
