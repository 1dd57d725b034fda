import Foundation
import HearthCore
import Testing

/// Scopes (`StoreScope`) on every store: the same keys in two scopes are two records, a scope's records are invisible
/// and untouchable from another, the project-wide records are shared, and the maintenance purges act in every scope.
@Suite("Store conformance: scopes")
struct ScopeConformanceTests {
    private let tenant = try! StoreScope.tenant("tenant-ü-1")

    /// `body` with the store as opened (the project) and a view of it in `tenant`.
    private func withScopes(_ kind: StoreKind, _ body: (_ project: any HearthStore, _ tenant: any HearthStore) throws -> Void)
        throws
    {
        try withStore(kind) { store throws in
            #expect(store.scope == .project)
            let scoped = store.scoped(to: tenant)
            #expect(scoped.scope == tenant)
            #expect(scoped.scoped(to: .project).scope == .project)
            try body(store, scoped)
        }
    }

    @Test("tenant ids are 1 to 128 characters")
    func tenantIDs() throws {
        #expect(throws: StoreError(.invalidScope)) { try StoreScope.tenant("") }
        #expect(throws: StoreError(.invalidScope)) { try StoreScope.tenant(String(repeating: "t", count: 129)) }
        #expect(try StoreScope.tenant(String(repeating: "t", count: 128)).tenantID.count == 128)
        #expect(StoreScope.project.tenantID == "" && StoreScope.project.isProject)
    }

    @Test("the same uid, email, provider identity, phone and enrolment id in two scopes are two accounts", arguments: StoreKind.allCases)
    func sameKeysInTwoScopes(kind: StoreKind) throws {
        try withScopes(kind) { project, tenant throws in
            var ours = enrolledAccount("uid-1", [totpEnrollment("enrol-1")])
            ours.email = "ada@example.com"
            ours.phoneNumber = "+15555550100"
            ours.providers = [LinkedIdentity(providerID: "google.com", rawID: "g-1")]
            var theirs = ours
            theirs.displayName = "the tenant's Ada"
            try project.write { try $0.insertAccount(ours) }
            try tenant.write { try $0.insertAccount(theirs) }
            for (store, expected) in [(project, ours), (tenant, theirs)] {
                try store.read { reader throws in
                    #expect(try reader.account(localID: "uid-1")?.displayName == expected.displayName)
                    #expect(try reader.account(email: "ADA@example.com")?.displayName == expected.displayName)
                    #expect(try reader.account(providerID: "google.com", rawID: "g-1")?.displayName == expected.displayName)
                    #expect(try reader.account(phoneNumber: "+15555550100")?.displayName == expected.displayName)
                    #expect(try reader.accounts(after: nil, limit: 10).map(\.displayName) == [expected.displayName])
                    #expect(try reader.accountCount() == 1)
                    #expect(try reader.scopes() == [.project, self.tenant])
                }
            }
            // Within one scope the keys stay unique.
            #expect(throws: StoreError(.duplicateLocalID)) { try tenant.write { try $0.insertAccount(theirs) } }
            var other = bareAccount("uid-2")
            other.email = "ada@example.com"
            #expect(throws: StoreError(.duplicateEmail)) { try tenant.write { try $0.insertAccount(other) } }
            other.email = nil
            other.providers = [LinkedIdentity(providerID: "google.com", rawID: "g-1")]
            #expect(throws: StoreError(.duplicateIdentity)) { try tenant.write { try $0.insertAccount(other) } }
            other.providers = []
            other.mfaEnrollments = [totpEnrollment("enrol-1")]
            #expect(throws: StoreError(.duplicateEnrollment)) { try tenant.write { try $0.insertAccount(other) } }
            let empty = project.scoped(to: try StoreScope.tenant("nobody"))
            try empty.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == nil)
                #expect(try reader.account(email: "ada@example.com") == nil)
                #expect(try reader.accountCount() == 0)
            }
        }
    }

    @Test("updates, deletes and deleteAllAccounts act in their scope only", arguments: StoreKind.allCases)
    func accountWritesStayInScope(kind: StoreKind) throws {
        try withScopes(kind) { project, tenant throws in
            let ours = enrolledAccount("uid-1", [totpEnrollment("enrol-1")])
            try project.write { try $0.insertAccount(ours) }
            try project.write { try $0.insertPendingSignIn() }
            var theirs = bareAccount("uid-1")
            #expect(throws: StoreError(.notFound)) { try tenant.write { try $0.updateAccount(theirs) } }
            try tenant.write { writer throws in
                try writer.recordRefresh(localID: "uid-1", atMillis: 99)
                #expect(try writer.deleteAccount(localID: "uid-1") == false)
                #expect(try writer.deleteAllAccounts() == 0)
                try writer.insertAccount(theirs)
                theirs.displayName = "changed"
                try writer.updateAccount(theirs)
                #expect(try writer.deleteAllAccounts() == 1)
            }
            try project.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == ours)
                #expect(try reader.mfaPendingSignIn(hash: "pending-1") != nil, "the pending sign-in stays with its account")
            }
        }
    }

    @Test("refresh sessions of one scope are not found, rotated, revoked or counted from another", arguments: StoreKind.allCases)
    func sessions(kind: StoreKind) throws {
        try withScopes(kind) { project, tenant throws in
            try project.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshSession(refreshSession("session-a"))
            }
            // The tenant has no uid-1 yet: a session for it is refused.
            #expect(throws: StoreError(.notFound)) {
                try tenant.write { try $0.insertRefreshSession(refreshSession("session-b")) }
            }
            try tenant.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertRefreshSession(refreshSession("session-b"))
                #expect(try writer.refreshSession(id: "session-a") == nil)
                #expect(try writer.revokeSession("session-a", atMillis: 5) == false)
                #expect(try writer.liveSessionIDs(localID: "uid-1", skippingNewest: 0) == ["session-b"])
                #expect(try writer.refreshSessions(after: nil, limit: 10).map(\.sessionID) == ["session-b"])
            }
            #expect(throws: StoreError(.notFound)) {
                try tenant.write {
                    try $0.rotateRefreshSession(
                        id: "session-a", replacing: "current-of-session-a", with: "new", atMillis: 5,
                        sealedSuccessor: [1])
                }
            }
            try project.read { reader throws in
                let session = try #require(try reader.refreshSession(id: "session-a"))
                #expect(session.revokedAtMillis == nil && session.currentTokenHash == "current-of-session-a")
                #expect(try reader.refreshSession(id: "session-b") == nil)
                #expect(try reader.liveSessionIDs(localID: "uid-1", skippingNewest: 0) == ["session-a"])
            }
            // Deleting the tenant's account leaves the project's sessions live.
            try tenant.write { try $0.deleteAccount(localID: "uid-1") }
            let step = try project.write { try $0.purgeSessions(after: nil, limit: 10, revokedBefore: 0, atMillis: 7) }
            #expect(step.deleted == 0)
            #expect(try project.read { try $0.refreshSession(id: "session-a")?.revokedAtMillis } == nil)
            #expect(try tenant.read { try $0.refreshSession(id: "session-b")?.revokedAtMillis } == 7,
                "the purge run from the project revokes the tenant's orphaned session")
        }
    }

    @Test("pending sign-ins and verification sessions of one scope are invisible and untouchable from another", arguments: StoreKind.allCases)
    func mfaState(kind: StoreKind) throws {
        try withScopes(kind) { project, tenant throws in
            try project.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertPendingSignIn()
                try writer.insertVerificationSession(verificationSession("verify-1"))
            }
            #expect(throws: StoreError(.notFound)) { try tenant.write { try $0.insertMFAPendingSignIn(pendingSignIn("p-2")) } }
            #expect(throws: StoreError(.notFound)) {
                try tenant.write { try $0.insertVerificationSession(verificationSession("verify-2")) }
            }
            try tenant.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                #expect(try writer.mfaPendingSignIn(hash: "pending-1") == nil)
                #expect(try writer.verificationSession(hash: "verify-1") == nil)
                #expect(try writer.verificationSessions(phoneNumber: "+15555550123", createdSince: 0).isEmpty)
                #expect(try writer.deleteMFAPendingSignIn(hash: "pending-1") == false)
                #expect(try writer.deleteVerificationSession(hash: "verify-1") == false)
                #expect(throws: StoreError(.notFound)) {
                    try writer.updateMFAPendingSignIn(pendingSignIn("pending-1", failedAttempts: 3))
                }
                #expect(throws: StoreError(.notFound)) {
                    try writer.updateVerificationSession(verificationSession("verify-1", full: false))
                }
            }
            try project.read { reader throws in
                #expect(try reader.mfaPendingSignIn(hash: "pending-1") == pendingSignIn("pending-1"))
                #expect(try reader.verificationSession(hash: "verify-1") == verificationSession("verify-1"))
            }
        }
    }

    @Test("action codes, limit counters and audit events of one scope are invisible and untouchable from another", arguments: StoreKind.allCases)
    func codesCountersAndEvents(kind: StoreKind) throws {
        try withScopes(kind) { project, tenant throws in
            let code = OOBCodeRecord(
                codeHash: "code-1", kind: .passwordReset, localID: "uid-1", email: "ada@example.com",
                createdAtMillis: 1, expiresAtMillis: 10_000)
            let counter = LimitCounter(key: "password:uid-1", windowStartMillis: 1, count: 3, expiresAtMillis: 10_000)
            let event = AuditEvent(
                id: AuditEvent.newID(atMillis: 1_000), atMillis: 1_000, kind: .signIn, localID: "uid-1", actor: .user)
            try project.write { writer throws in
                try writer.insertOOBCode(code)
                try writer.saveLimitCounter(counter)
                try writer.insertAuditEvent(event)
            }
            try tenant.write { writer throws in
                #expect(try writer.oobCode(hash: "code-1") == nil)
                #expect(try writer.deleteOOBCode(hash: "code-1") == false)
                #expect(try writer.deleteOOBCodes(localID: "uid-1", keeping: nil) == 0)
                #expect(try writer.limitCounter(key: "password:uid-1") == nil)
                #expect(try writer.deleteLimitCounter(key: "password:uid-1") == false)
                var theirs = counter
                theirs.count = 1
                try writer.saveLimitCounter(theirs)
                #expect(try writer.auditEvents(AuditQuery(limit: 10)).isEmpty)
                #expect(try writer.auditEvents(AuditQuery(localID: "uid-1", limit: 10)).isEmpty)
                #expect(try writer.auditEvents(AuditQuery(kind: .signIn, limit: 10)).isEmpty)
            }
            try project.read { reader throws in
                #expect(try reader.oobCode(hash: "code-1") == code)
                #expect(try reader.limitCounter(key: "password:uid-1") == counter)
                #expect(try reader.auditEvents(AuditQuery(limit: 10)) == [event])
            }
            #expect(try tenant.read { try $0.limitCounter(key: "password:uid-1")?.count } == 1)
        }
    }

    @Test("the purges of expired state act in every scope; project-wide records are the same from every scope", arguments: StoreKind.allCases)
    func storeWide(kind: StoreKind) throws {
        try withScopes(kind) { project, tenant throws in
            try tenant.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertPendingSignIn()
                try writer.insertVerificationSession(verificationSession("verify-1", createdAtMillis: 1))
                try writer.insertOOBCode(OOBCodeRecord(
                    codeHash: "code-1", kind: .verifyEmail, localID: "uid-1", email: "ada@example.com",
                    createdAtMillis: 1, expiresAtMillis: 10))
                try writer.saveLimitCounter(LimitCounter(key: "k", windowStartMillis: 1, expiresAtMillis: 10))
                try writer.insertAuditEvent(AuditEvent(
                    id: AuditEvent.newID(atMillis: 5), atMillis: 5, kind: .signIn, localID: "uid-1", actor: .user))
                try writer.insertSigningKey(signingKey("key-1", createdAt: 1))
            }
            try project.write { writer throws in
                #expect(try writer.signingKeys().map(\.keyID) == ["key-1"])
                #expect(try writer.deleteExpiredMFAState(before: 3_000, keepSinceMillis: 2) == 2)
                #expect(try writer.deleteExpiredOOBCodes(before: 11, limit: 10) == 1)
                #expect(try writer.deleteExpiredLimitCounters(before: 11, limit: 10) == 1)
                #expect(try writer.deleteAuditEvents(before: 6, limit: 10) == 1)
            }
            try tenant.read { reader throws in
                #expect(try reader.mfaPendingSignIn(hash: "pending-1") == nil)
                #expect(try reader.verificationSession(hash: "verify-1") == nil)
                #expect(try reader.oobCode(hash: "code-1") == nil)
                #expect(try reader.limitCounter(key: "k") == nil)
                #expect(try reader.auditEvents(AuditQuery(limit: 10)).isEmpty)
            }
        }
    }
}

extension StoreWriter {
    /// Stores `pendingSignIn("pending-1")` for uid-1.
    fileprivate func insertPendingSignIn() throws { try insertMFAPendingSignIn(pendingSignIn("pending-1")) }
}
