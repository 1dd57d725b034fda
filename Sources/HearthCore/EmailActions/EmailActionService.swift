import Foundation
public import HearthProtocol

/// Email actions (PROTOCOL.md §3.8–3.11): out-of-band codes sent by email for a password reset, an email
/// verification, a change of email (and its undo), and email-link sign-in; `createAuthUri`.
///
/// Codes are 256-bit random strings (base64url), stored as SHA-256 hashes only (`OOBCodeRecord`), single use
/// (consumed by deleting their record in the transaction that acts on them, so concurrent uses get one success)
/// and expire (`EmailActionSettings`). Emails are sent after the transaction that made their code has committed.
public final class EmailActionService: Sendable {
    let project: ProjectConfiguration
    let store: any HearthStore
    let tokens: TokenService
    /// Where email-link sign-ins complete.
    let completion: SignInCompletion
    let time: any TimeSource
    let sender: any EmailSender
    let passwords: (any PasswordHashing)?
    /// The settings the server was started with; the authorized domains the config API set replace theirs
    /// (``currentSettings()``).
    public let settings: EmailActionSettings
    /// The scope's enforced configuration: email privacy, the password policy of resets, the authorized domains.
    let scopeSettings: ScopeSettings
    let limiter: RateLimiter
    /// Development only: the plain codes, for the log and the emulator's listing.
    let issuedCodes: IssuedOOBCodes?
    let report: @Sendable (SecurityEvent) -> Void
    let audit: AuditRecorder
    /// The SAML providers' SP-initiated start (`createAuthUri` with a `saml.*` provider); nil: not served.
    let saml: SAMLSignIn?

    /// - Parameters:
    ///   - context: the project, store and clock; its security events receive exhausted send quotas and failed
    ///     deliveries once committed; its audit log records email-link sign-ins, and the password and email changes
    ///     action codes make.
    ///   - sender: delivers the emails.
    ///   - passwords: sets the new password of a reset; without one, resets are refused (`OPERATION_NOT_ALLOWED`).
    ///   - settings: links, lifetimes and quotas; `scopeSettings`: the scope's enforced configuration.
    ///   - issuedCodes: in development, records every code in plain text (log line and listing).
    ///   - saml: answers `createAuthUri` for `saml.*` providers.
    public init(
        context: ServiceContext, tokens: TokenService, mfa: MFAService, sender: any EmailSender,
        passwords: (any PasswordHashing)?, settings: EmailActionSettings, scopeSettings: ScopeSettings,
        issuedCodes: IssuedOOBCodes?, saml: SAMLSignIn? = nil
    ) {
        self.scopeSettings = scopeSettings
        self.saml = saml
        audit = context.auditRecorder
        project = context.project
        store = context.store
        self.tokens = tokens
        completion = SignInCompletion(tokens: tokens, mfa: mfa, audit: audit)
        time = context.time
        self.sender = sender
        self.passwords = passwords
        self.settings = settings
        limiter = context.rateLimiter
        self.issuedCodes = issuedCodes
        report = context.securityEvents
    }

    /// The settings in force: ``settings`` with the authorized domains and the action URL the config API set for the
    /// project, if any.
    public func currentSettings() throws -> EmailActionSettings {
        try scopeSettings.emailActions(settings)
    }

    /// Whether `oobCode` names a code that can still be used (the emulator lists only those).
    public func isOpen(oobCode: String) throws -> Bool {
        guard let record = try store.read({ try $0.oobCode(hash: Identifiers.hash(oobCode)) }) else { return false }
        return record.expiresAtMillis > time.nowMillis
    }

    // MARK: - Codes

    /// The record of a code that can be used now: `MISSING_OOB_CODE`, `INVALID_OOB_CODE` (unknown or used, or of
    /// another kind than `kinds`), `EXPIRED_OOB_CODE`.
    func liveCode(_ code: String?, kinds: Set<OOBCodeRecord.Kind>? = nil, reader: any StoreReader) throws -> OOBCodeRecord {
        guard let code, !code.isEmpty else { throw WireError(.missingOOBCode) }
        guard let record = try reader.oobCode(hash: Identifiers.hash(code)), kinds?.contains(record.kind) ?? true else {
            throw Self.invalidCode
        }
        guard record.expiresAtMillis > time.nowMillis else {
            throw WireError(.expiredOOBCode, "The action code has expired.")
        }
        return record
    }

    /// Consumes `record` inside `writer`: a code another request consumed first is `INVALID_OOB_CODE`.
    func consume(_ record: OOBCodeRecord, writer: any StoreWriter) throws {
        guard try writer.deleteOOBCode(hash: record.codeHash) else { throw Self.invalidCode }
    }

    /// The account a code acts on, as long as it still has the address the code was sent for (a code for an
    /// address the account no longer has is void).
    func account(of record: OOBCodeRecord, email: String? = nil, reader: any StoreReader) throws -> Account {
        guard let localID = record.localID, let account = try reader.account(localID: localID),
            (account.email ?? "") == (email ?? record.email)
        else { throw Self.invalidCode }
        guard !account.disabled else { throw WireError(.userDisabled) }
        return account
    }

    static let invalidCode = WireError(
        .invalidOOBCode, "The action code is invalid. This can happen if the code is malformed, expired, or has already been used.")

    /// Issues a new code of `kind` inside `writer` and returns it (plain text; only its hash is stored).
    func issue(
        _ kind: OOBCodeRecord.Kind, localID: String?, email: String, newEmail: String? = nil, continueURL: String?,
        writer: any StoreWriter
    ) throws -> String {
        let code = Identifiers.secret()
        let now = time.nowMillis
        try writer.insertOOBCode(
            OOBCodeRecord(
                codeHash: Identifiers.hash(code), kind: kind, localID: localID, email: email, newEmail: newEmail,
                continueURL: continueURL, createdAtMillis: now,
                expiresAtMillis: now.addingClamped(settings.lifetime(of: kind).multipliedClamped(by: 1000))))
        return code
    }

    /// The link for a code, with the project's API key in it, to the action page in force (Hearth's own when the
    /// configuration cannot be read: its links always work).
    func link(_ kind: OOBCodeRecord.Kind, code: String, continueURL: String?, locale: String? = nil) -> String {
        ActionLink.url(
            settings: (try? currentSettings()) ?? settings, kind: kind, code: code, apiKey: linkAPIKey,
            continueURL: continueURL, locale: locale)
    }

    /// The key links carry: the project's first configured key, or the emulator's `fake-api-key` when any key is
    /// accepted.
    private var linkAPIKey: String {
        switch project.apiKeys {
        case .anyNonEmpty: "fake-api-key"
        case .only(let keys): keys.sorted().first ?? "fake-api-key"
        }
    }

    /// Records (development) and sends the email of a committed code. Returns whether it was delivered; a failure
    /// is reported, never with the message.
    @discardableResult
    func deliver(
        _ kind: OOBCodeRecord.Kind, code: String, to address: String, email: String, newEmail: String? = nil,
        displayName: String? = nil, continueURL: String?, locale: String? = nil, send: Bool = true
    ) -> Bool {
        let link = link(kind, code: code, continueURL: continueURL, locale: locale)
        issuedCodes?.record(
            IssuedOOBCode(email: email, newEmail: newEmail, requestType: kind.rawValue, oobCode: code, oobLink: link))
        guard send else { return true }
        let custom = (try? currentSettings())?.customTemplate(for: kind)
        var message = EmailTemplates.message(
            kind, to: address, appName: project.displayName ?? project.projectID, link: link, newEmail: newEmail,
            displayName: displayName, custom: custom, locale: locale)
        message.action = EmailAction(kind: kind.rawValue, code: code, link: link, locale: locale, newEmail: newEmail)
        do {
            try sender.send(message)
            return true
        } catch {
            report(.emailNotDelivered(action: kind.rawValue, reason: Self.reason(error)))
            return false
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? EmailDeliveryError {
        case .notConfigured: "no email sender is configured"
        case .failed(let reason): reason
        case nil: String(describing: type(of: error))
        }
    }

    /// Runs `body` as one write transaction with a ``LimitLedger`` for `caller`; reports its events once committed.
    func transaction<Value>(
        _ caller: Caller, _ body: (any StoreWriter, inout LimitLedger) throws -> WriteOutcome<Value>
    ) throws -> Value {
        try store.transaction(atMillis: time.nowMillis, report: report, audit: nil, caller: caller, body)
    }
}

extension EmailActionService {
    /// The code `oobCode` names, if it can be used now (for the action page, which shows what it will do and
    /// redirects sign-in links to the continue URL the code was issued with, never one from the request).
    public func pendingAction(oobCode: String?) throws -> OOBCodeRecord {
        try store.read { try liveCode(oobCode, reader: $0) }
    }

    /// Where the action page may send the browser after `record`'s action: its continue URL, checked again as
    /// when the code was issued (a code stored before a rule, or an authorized domain removed since, sends no one
    /// anywhere; `INVALID_CONTINUE_URI`, `UNAUTHORIZED_DOMAIN`). Nil when the code has none.
    public func continueURL(of record: OOBCodeRecord) throws -> BrowserURL? {
        try record.continueURL.map { try currentSettings().continueURL($0) }
    }

    /// In development, the codes issued that can still be used, oldest first (the emulator's listing).
    public func openIssuedCodes() throws -> [IssuedOOBCode] {
        try (issuedCodes?.issued ?? []).filter { try isOpen(oobCode: $0.oobCode) }
    }
}
