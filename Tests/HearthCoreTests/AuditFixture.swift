import Foundation
import HearthCore
import HearthProtocol
import Synchronization
import Testing

/// A platform (both second factors on, small password lockouts) whose audit events a test reads back, and
/// the checks every audit test makes.
struct AuditFixture {
    static let client = "203.0.113.7"
    static let password = "correct horse battery staple"

    let test: TestPlatform

    /// - Parameters:
    ///   - audit: the audit log's settings.
    ///   - reruns: runs every write body twice (the first run rolled back), as PostgreSQL's store may.
    ///   - wrapStore: wraps the store the platform writes through (failures injected by tests).
    init(
        audit: AuditLog = AuditLog(), reruns: Bool = false, emailEnumerationProtection: Bool = true,
        wrapStore: (any HearthStore) -> any HearthStore = { $0 }
    ) throws {
        var lockouts = PasswordLockouts()
        lockouts.perEmail = FailureLockout(burst: 3, lockout: 60, maximumPerWindow: 100, window: 3_600)
        test = try TestPlatform(
            mfa: .allFactors, passwordLockouts: lockouts, emailEnumerationProtection: emailEnumerationProtection,
            rerunsWriteBodies: reruns, audit: audit, wrapStore: wrapStore)
    }

    var platform: IdentityPlatform { test.platform }

    /// Every committed event, oldest first.
    func events() throws -> [AuditEvent] {
        try test.store.read { try $0.auditEvents(AuditQuery(limit: 10_000)) }.reversed()
    }

    func events(_ kind: AuditEventKind) throws -> [AuditEvent] { try events().filter { $0.kind == kind } }

    /// The one event of `kind`; fails the test unless there is exactly one.
    func only(_ kind: AuditEventKind, sourceLocation: SourceLocation = #_sourceLocation) throws -> AuditEvent {
        let found = try events(kind)
        #expect(found.count == 1, "\(kind): \(found)", sourceLocation: sourceLocation)
        return try #require(found.last, sourceLocation: sourceLocation)
    }

    /// Fails the test if any field of any event holds one of `secrets`.
    func expectNoSecret(_ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for event in try events() {
            let fields = [event.id, event.localID, event.provider, event.clientAddress, event.actor.rawValue, event.detail]
            for secret in secrets where !secret.isEmpty {
                #expect(
                    !fields.contains { $0?.localizedCaseInsensitiveContains(secret) == true },
                    "\(event.kind) holds a secret", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: - Steps

    /// A Google sign-in (a sign-up the first time) from ``client``.
    @discardableResult
    func google(_ subject: String = "g-1", email: String? = nil, linking idToken: String? = nil) throws
        -> SignInWithIdpResponse
    {
        let request = test.signInRequest(
            idToken: try test.google.idToken(subject: subject, email: email ?? "\(subject)@example.com"), linking: idToken)
        return try platform.accounts.signInWithIdp(request, by: .user(client: Self.client))
    }

    @discardableResult
    func passwordSignUp(_ email: String = "ada@example.com") throws -> SignUpResponse {
        try platform.accounts.signUp(SignUpRequest(email: email, password: Self.password), by: .user(client: Self.client))
    }

    @discardableResult
    func passwordSignIn(_ email: String = "ada@example.com", _ password: String = password) throws
        -> SignInWithPasswordResponse
    {
        try platform.passwordAccounts.signIn(
            SignInWithPasswordRequest(email: email, password: password), by: .user(client: Self.client))
    }

    /// Signs in with an email link sent to `email` (an administrator asking for it); returns the link's code.
    @discardableResult
    func emailLinkSignIn(_ email: String) throws -> String {
        let request = SendOobCodeRequest(
            requestType: "EMAIL_SIGNIN", email: email, continueUrl: "https://app.example.com/", returnOobLink: true)
        let code = try #require(try platform.emailActions.sendOobCode(request, by: .commandLine).oobCode)
        _ = try platform.emailActions.signInWithEmailLink(
            SignInWithEmailLinkRequest(email: email, oobCode: code), by: .user(client: Self.client))
        return code
    }

    /// Enrols a TOTP factor for a Google user; returns the user's first sign-in, the secret and the factor's id.
    func enrolledTOTPUser(_ subject: String = "mfa-user") throws
        -> (user: MFAFlowTests.Fixture, secret: String, enrollmentID: String, tokens: MFATokensResponse)
    {
        let user = try MFAFlowTests.Fixture(test, subject: subject)
        let (secret, tokens) = try user.enrollTOTP()
        let enrollmentID = try #require(
            try platform.accounts.lookup(LookupRequest(idToken: tokens.idToken)).users?.first?.mfaInfo?.first?.mfaEnrollmentId)
        return (user, secret, enrollmentID, tokens)
    }
}

/// A store whose writes can be made to fail after their body ran (and recorded its events): the transaction
/// rolls back, as it does when a database refuses the commit.
final class FailingCommitStore: HearthStore, Sendable {
    struct Injected: Error {}
    typealias Condition = @Sendable (any StoreReader) throws -> Bool
    private let inner: any HearthStore
    private let condition = Mutex<Condition?>(nil)

    init(_ inner: any HearthStore) {
        self.inner = inner
    }

    /// From now on, a write fails after its body ran when `condition` holds for what the body left (nil: none fails).
    func fail(when condition: Condition?) { self.condition.withLock { $0 = condition } }

    var scope: StoreScope { inner.scope }
    func scoped(to scope: StoreScope) -> any HearthStore { inner.scoped(to: scope) }
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try inner.read(body) }

    func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        try inner.write(isolation) { writer in
            let value = try body(writer)
            if let condition = condition.withLock({ $0 }), try condition(writer) { throw Injected() }
            return value
        }
    }

    func close() { inner.close() }
}
