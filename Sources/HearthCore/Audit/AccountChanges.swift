/// What changed between two versions of one account, as the audit events that record it. Names providers,
/// factors and fields, never their values (no email, phone number, hash or claim).
struct AccountChanges {
    /// One event to record, before it is stamped with its time, actor and client.
    struct Event: Equatable {
        var kind: AuditEventKind
        var provider: String?
        var detail: String = ""
    }

    let old: Account
    let new: Account

    init(from old: Account, to new: Account) {
        self.old = old
        self.new = new
    }

    /// The changes a user (or an email action) can make: identities and the phone number or password removed
    /// (`unlink`) or added (`link`), second factors, the password, the email and `validSince`.
    var events: [Event] {
        var events: [Event] = []
        let oldIdentities = Set(old.providers.map { [$0.providerID, $0.rawID] })
        let newIdentities = Set(new.providers.map { [$0.providerID, $0.rawID] })
        for identity in old.providers where !newIdentities.contains([identity.providerID, identity.rawID]) {
            events.append(Event(kind: .unlink, provider: identity.providerID))
        }
        for identity in new.providers where !oldIdentities.contains([identity.providerID, identity.rawID]) {
            events.append(Event(kind: .link, provider: identity.providerID))
        }
        if old.phoneNumber != nil, new.phoneNumber == nil { events.append(Event(kind: .unlink, provider: "phone")) }
        if old.phoneNumber == nil, new.phoneNumber != nil { events.append(Event(kind: .link, provider: "phone")) }
        if old.passwordHash != nil, new.passwordHash == nil { events.append(Event(kind: .unlink, provider: "password")) }
        if let hash = new.passwordHash, hash != old.passwordHash {
            events.append(Event(kind: .passwordChanged, provider: "password"))
        }
        if old.email != new.email { events.append(Event(kind: .emailChanged)) }
        let oldFactors = Set(old.mfaEnrollments.map(\.enrollmentID))
        let newFactors = Set(new.mfaEnrollments.map(\.enrollmentID))
        for factor in old.mfaEnrollments where !newFactors.contains(factor.enrollmentID) {
            events.append(Event(kind: .factorRemoved, provider: factor.kind.rawValue, detail: Self.factorDetail(factor)))
        }
        for factor in new.mfaEnrollments where !oldFactors.contains(factor.enrollmentID) {
            events.append(Event(kind: .factorEnrolled, provider: factor.kind.rawValue, detail: Self.factorDetail(factor)))
        }
        if new.validSinceMillis > old.validSinceMillis { events.append(Event(kind: .sessionsRevoked)) }
        return events
    }

    /// An administrator's change: `account_updated` naming the changed fields, `account_disabled` /
    /// `account_enabled`, `claims_changed`, then ``events``. Nothing when nothing changed.
    var administratorEvents: [Event] {
        let fields = changedFields
        guard !fields.isEmpty else { return [] }
        var events = [Event(kind: .accountUpdated, detail: "fields=" + fields.joined(separator: ","))]
        if old.disabled != new.disabled { events.append(Event(kind: new.disabled ? .accountDisabled : .accountEnabled)) }
        if old.customAttributes != new.customAttributes { events.append(Event(kind: .claimsChanged)) }
        return events + self.events
    }

    /// The wire names of the fields that differ.
    var changedFields: [String] {
        let comparisons: [(String, Bool)] = [
            ("email", old.email != new.email),
            ("emailVerified", old.emailVerified != new.emailVerified),
            ("password", old.passwordHash != new.passwordHash),
            ("phoneNumber", old.phoneNumber != new.phoneNumber),
            ("displayName", old.displayName != new.displayName),
            ("photoUrl", old.photoURL != new.photoURL),
            ("disabled", old.disabled != new.disabled),
            ("customAttributes", old.customAttributes != new.customAttributes),
            ("validSince", old.validSinceMillis != new.validSinceMillis),
            ("providerUserInfo", old.providers != new.providers),
            ("mfaInfo", old.mfaEnrollments != new.mfaEnrollments),
        ]
        return comparisons.filter(\.1).map(\.0)
    }

    /// `enrollment=<id>`: which factor, never its number or secret.
    static func factorDetail(_ factor: MFAEnrollment) -> String { "enrollment=\(factor.enrollmentID)" }
}
