import Foundation
import HearthCore
import HearthProtocol
import Synchronization
import Testing

/// `EmailActionService` over an in-memory store: what the e2e tests cannot switch on a `--dev` server (enumeration
/// protection off, failing delivery, second factors, small send limits) and the emails themselves.
@Suite("Email actions")
struct EmailActionServiceTests {
    /// Keeps what it is asked to send (test double).
    final class RecordingEmailSender: EmailSender {
        let sent = Mutex<[EmailMessage]>([])
        func send(_ message: EmailMessage) throws { sent.withLock { $0.append(message) } }
        var messages: [EmailMessage] { sent.withLock { $0 } }
    }

    /// Fails every send, as an SMTP server that is down would (test double).
    struct FailingEmailSender: EmailSender {
        func send(_ message: EmailMessage) throws { throw EmailDeliveryError.failed(reason: "550 refused") }
    }

    /// The security events a platform reported.
    final class EventLog: Sendable {
        private let events = Mutex<[SecurityEvent]>([])
        func append(_ event: SecurityEvent) { events.withLock { $0.append(event) } }
        func withLock<T>(_ body: ([SecurityEvent]) -> T) -> T { events.withLock { body($0) } }
    }

    static func platform(
        sender: any EmailSender = RecordingEmailSender(), settings: EmailActionSettings = EmailActionSettings(),
        mfa: MFAPolicy = .disabled, events: EventLog = EventLog(), enumerationProtection: Bool = true
    ) throws -> TestPlatform {
        try TestPlatform(
            mfa: mfa, emailSender: sender, emailActions: settings, emailEnumerationProtection: enumerationProtection,
            securityEvents: { event in
            events.append(event)
        })
    }

    static func reset(_ email: String) -> SendOobCodeRequest { SendOobCodeRequest(requestType: "PASSWORD_RESET", email: email) }

    @Test("without enumeration protection an unknown email is EMAIL_NOT_FOUND and createAuthUri tells the sign-in methods")
    func withoutProtection() throws {
        let test = try Self.platform(enumerationProtection: false)
        let actions = test.platform.emailActions
        #expect(wireErrorCode { _ = try actions.sendOobCode(Self.reset("nobody@example.com"), by: .user(client: "10.0.0.1")) } == .emailNotFound)
        _ = try test.signIn(subject: "g-1", email: "gina@example.com")
        let methods = try actions.createAuthUri(CreateAuthUriRequest(identifier: "Gina@example.com", continueUri: "http://localhost/"))
        #expect(methods.registered == true)
        #expect(methods.signinMethods == ["google.com"])
        #expect(methods.allProviders == ["google.com"])
        let unknown = try actions.createAuthUri(CreateAuthUriRequest(identifier: "nobody@example.com", continueUri: "http://localhost/"))
        #expect(unknown.registered == false && unknown.signinMethods == nil)
    }

    @Test("per-email and per-client send limits hold for known and unknown emails alike")
    func sendLimits() throws {
        let sender = RecordingEmailSender()
        let settings = EmailActionSettings(
            sendsPerEmail: WindowQuota(limit: 2, window: 3_600), sendsPerClient: WindowQuota(limit: 5, window: 3_600))
        let events = EventLog()
        let test = try Self.platform(sender: sender, settings: settings, events: events)
        let actions = test.platform.emailActions
        _ = try test.signIn(subject: "k-1", email: "known@example.com")
        for email in ["known@example.com", "unknown@example.com"] {
            for _ in 0..<2 { _ = try actions.sendOobCode(Self.reset(email), by: .user(client: "10.0.0.1")) }
            #expect(wireErrorCode { _ = try actions.sendOobCode(Self.reset(email), by: .user(client: "10.0.0.2")) } == .resetPasswordExceedLimit)
        }
        #expect(sender.messages.count == 2)  // the unknown address got nothing
        #expect(events.withLock { $0 }.contains(.quotaExhausted(key: "email:address:unknown@example.com")))
        // Client 10.0.0.1 was charged 4 times (its refused requests too); one more is allowed, then it is refused
        // whatever the address.
        _ = try actions.sendOobCode(Self.reset("third@example.com"), by: .user(client: "10.0.0.1"))
        #expect(wireErrorCode { _ = try actions.sendOobCode(Self.reset("fourth@example.com"), by: .user(client: "10.0.0.1")) } == .tooManyAttemptsTryLater)
        // Administrators are not limited.
        for _ in 0..<3 { _ = try actions.sendOobCode(Self.reset("known@example.com"), by: .commandLine) }
        test.time.advance(by: 3_601)
        _ = try actions.sendOobCode(Self.reset("known@example.com"), by: .user(client: "10.0.0.1"))
    }

    @Test("a failed delivery is the client's error unless that would tell a known email from an unknown one")
    func failedDelivery() throws {
        let events = EventLog()
        let test = try Self.platform(sender: FailingEmailSender(), events: events)
        let actions = test.platform.emailActions
        let signIn = try test.signIn(subject: "f-1", email: "fail@example.com")
        let verify = SendOobCodeRequest(requestType: "VERIFY_EMAIL", idToken: signIn.idToken)
        #expect(wireErrorCode { _ = try actions.sendOobCode(verify, by: .user(client: nil)) } == .unavailable)
        // With enumeration protection on, a reset answers as for an unknown email; the operator is told.
        #expect(try actions.sendOobCode(Self.reset("fail@example.com"), by: .user(client: nil)).email == "fail@example.com")
        #expect(events.withLock { $0 }.filter { if case .emailNotDelivered = $0 { true } else { false } }.count == 2)
        #expect(events.withLock { $0 }.allSatisfy { !$0.logLine.contains("oobCode") })
    }

    @Test("the change of email completes when the recovery email cannot be sent (the change is committed, nothing to retry)")
    func changeWithFailedRecoveryEmail() throws {
        let events = EventLog()
        let test = try Self.platform(sender: FailingEmailSender(), events: events)
        let actions = test.platform.emailActions
        let signIn = try test.signIn(subject: "c-1", email: "before@example.com")
        let generated = try actions.sendOobCode(
            SendOobCodeRequest(requestType: "VERIFY_AND_CHANGE_EMAIL", email: "before@example.com", newEmail: "after@example.com", returnOobLink: true),
            by: .commandLine)
        let changed = try test.accounts.update(UpdateAccountRequest(fields: RequestFields(["oobCode": .string(generated.oobCode ?? "")])), by: .user(client: nil))
        #expect(changed.email == "after@example.com")
        #expect(try test.store.read { try $0.account(localID: signIn.localId ?? "") }?.initialEmail == "before@example.com")
        #expect(events.withLock { $0 } == [.emailNotDelivered(action: "RECOVER_EMAIL", reason: "550 refused")])
    }

    @Test("email-link sign-in of a user with a second factor answers the pending MFA credential, and the code is used")
    func secondFactor() throws {
        let fixture = try MFAFlowTests.Fixture(subject: "mfa-link")
        _ = try fixture.enrollTOTP()
        let actions = fixture.test.platform.emailActions
        let generated = try actions.sendOobCode(
            SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "mfa-link@example.com", continueUrl: "https://app.example.com/", returnOobLink: true),
            by: .commandLine)
        let code = try #require(generated.oobCode)
        let answer = try actions.signInWithEmailLink(SignInWithEmailLinkRequest(email: "mfa-link@example.com", oobCode: code), by: .user(client: nil))
        #expect(answer.idToken == nil && answer.refreshToken == nil)
        #expect(answer.mfaPendingCredential != nil)
        #expect(answer.mfaInfo?.count == 1)
        #expect(wireErrorCode { _ = try actions.signInWithEmailLink(SignInWithEmailLinkRequest(email: "mfa-link@example.com", oobCode: code), by: .user(client: nil)) } == .invalidOOBCode)
    }

    @Test("emails name the app, carry the link with its continue URL, and escape HTML; production links open /__/auth/action")
    func emails() throws {
        let sender = RecordingEmailSender()
        let settings = EmailActionSettings(publicURL: "https://auth.example.com", development: false)
        let test = try Self.platform(sender: sender, settings: settings)
        _ = try test.signIn(subject: "e-1", email: "mail@example.com")
        _ = try test.platform.emailActions.sendOobCode(
            SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "mail@example.com", continueUrl: "https://app.example.com/x?a=1&b=<2>"),
            by: .user(client: nil))
        let message = try #require(sender.messages.first)
        #expect(message.to == "mail@example.com")
        #expect(message.subject.contains(TestPlatform.projectID))
        let link = try #require(message.text.split(separator: "\n").first { $0.hasPrefix("https://") }.map(String.init))
        #expect(link.hasPrefix("https://auth.example.com/__/auth/action?mode=signIn&oobCode="))
        #expect(link.contains("&continueUrl=https%3A%2F%2Fapp.example.com%2Fx%3Fa%3D1%26b%3D%3C2%3E&lang=en"))
        #expect(message.html?.contains("<2>") == false)
        #expect(message.html?.contains("href=\"\(link.replacingOccurrences(of: "&", with: "&amp;"))\"") == true)

        let named = EmailTemplates.message(.verifyEmail, to: "a@example.com", appName: "<script>Shop</script>", link: "https://x/")
        #expect(named.html?.contains("<script>") == false)
        #expect(named.html?.contains("&lt;script&gt;Shop") == true)
    }

    @Test("a continue URL outside the authorized domains is UNAUTHORIZED_DOMAIN, nothing stored or sent; inside (any case) it works")
    func authorizedDomains() throws {
        let sender = RecordingEmailSender()
        let settings = EmailActionSettings(
            publicURL: "https://auth.example.com", development: false,
            authorizedDomains: EmailActionSettings.defaultAuthorizedDomains(publicURL: "https://auth.example.com")
                .union(["app.example.com"]))
        let test = try Self.platform(sender: sender, settings: settings)
        _ = try test.signIn(subject: "d-1", email: "domains@example.com")
        let actions = test.platform.emailActions
        func send(_ continueURL: String) throws {
            _ = try actions.sendOobCode(
                SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "domains@example.com", continueUrl: continueURL),
                by: .user(client: "10.0.0.2"))
        }
        for attacker in ["https://evil.example.net/phish", "https://app.example.com.evil.example.net/", "https://example.com/"] {
            #expect(wireErrorCode { try send(attacker) } == .unauthorizedDomain, "\(attacker)")
        }
        #expect(wireErrorCode { try send("https://app.example.com@evil.example.net/") } == .invalidContinueURI, "user info")
        #expect(sender.messages.isEmpty, "nothing sent")
        #expect(try test.platform.store.read { try $0.limitCounter(key: "email:client:10.0.0.2") } == nil,
                "nothing counted either")
        try send("https://APP.example.com/done")
        try send("https://auth.example.com/back")
        try send("http://localhost:5173/")
        #expect(sender.messages.count == 3)

        let anyHost = try Self.platform(settings: EmailActionSettings(publicURL: "http://127.0.0.1:9099", development: true))
        _ = try anyHost.signIn(subject: "d-2", email: "emulated@example.com")
        _ = try anyHost.platform.emailActions.sendOobCode(
            SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "emulated@example.com", continueUrl: "https://anywhere.example.org/"),
            by: .user(client: nil))
    }

    @Test("a continue URL browsers read with another host than Hearth is INVALID_CONTINUE_URI for every request type; nothing stored, counted or sent")
    func browserAmbiguousContinueURLs() throws {
        let sender = RecordingEmailSender()
        let settings = EmailActionSettings(
            publicURL: "https://auth.example.com", authorizedDomains: EmailActionSettings.defaultAuthorizedDomains(publicURL: "https://auth.example.com"))
        let test = try Self.platform(sender: sender, settings: settings)
        let idToken = try #require(try test.signIn(subject: "b-1", email: "victim@example.com").idToken)
        let actions = test.platform.emailActions
        let requests = [
            SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "victim@example.com"),
            SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "victim@example.com"),
            SendOobCodeRequest(requestType: "VERIFY_EMAIL", idToken: idToken),
            SendOobCodeRequest(requestType: "VERIFY_AND_CHANGE_EMAIL", newEmail: "new@example.com", idToken: idToken),
        ]
        for continueURL in ["http://ATTACKER\\@localhost/finish", "http://ATTACKER\\\\@localhost/", "https://EVIL\\@127.0.0.1/",
                            "http://evil.example\\@auth.example.com/", "http://localhost/\r\nSet-Cookie: a=b", "http://0x7f.1/",
                            "http:localhost/", "http://localhost./"] {
            for var request in requests {
                request.continueUrl = continueURL
                let refused = wireError { _ = try actions.sendOobCode(request, by: .user(client: "10.0.0.3")) }
                #expect(refused?.code == .invalidContinueURI, "\(request.requestType ?? "") \(continueURL.debugDescription)")
            }
        }
        #expect(sender.messages.isEmpty)
        #expect(try test.platform.store.read { try $0.limitCounter(key: "email:client:10.0.0.3") } == nil)
        let why = wireError {
            _ = try actions.sendOobCode(
                SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "victim@example.com", continueUrl: "http://ATTACKER\\@localhost/"),
                by: .user(client: nil))
        }
        #expect(why?.message == "INVALID_CONTINUE_URI : The continue URL must be an absolute http(s) URL that browsers read as Hearth does: it contains a backslash.")
        #expect(wireErrorCode {
            _ = try actions.createAuthUri(CreateAuthUriRequest(identifier: "victim@example.com", continueUri: "http://ATTACKER\\@localhost/"))
        } == .invalidContinueURI)

        for var request in requests {
            request.continueUrl = "http://localhost:5173/finish"
            _ = try actions.sendOobCode(request, by: .user(client: "10.0.0.3"))
        }
        #expect(sender.messages.count == requests.count)
    }

    @Test("a stored continue URL is checked again where the action page redirects: one stored before the rule, or on a domain no longer authorized, sends no one anywhere")
    func storedContinueURLCheckedAgain() throws {
        let settings = EmailActionSettings(
            publicURL: "https://auth.example.com", authorizedDomains: EmailActionSettings.defaultAuthorizedDomains(publicURL: "https://auth.example.com"))
        let actions = try Self.platform(settings: settings).platform.emailActions
        func record(_ continueURL: String?) -> OOBCodeRecord {
            OOBCodeRecord(
                codeHash: "0", kind: .emailSignIn, localID: nil, email: "v@example.com", continueURL: continueURL,
                createdAtMillis: 0, expiresAtMillis: 1)
        }
        #expect(wireErrorCode { _ = try actions.continueURL(of: record("http://ATTACKER\\@localhost/finish")) } == .invalidContinueURI)
        #expect(wireErrorCode { _ = try actions.continueURL(of: record("http://localhost/\r\nSet-Cookie: a=b")) } == .invalidContinueURI)
        #expect(wireErrorCode { _ = try actions.continueURL(of: record("https://removed.example.com/")) } == .unauthorizedDomain)
        #expect(try actions.continueURL(of: record("HTTPS://Auth.Example.com/done?x=1"))?.description == "https://auth.example.com/done?x=1")
        #expect(try actions.continueURL(of: record(nil)) == nil)
    }
}
