import Foundation
import HearthCore
import Testing

/// The MFA part of the behaviour every `HearthStore` must have: enrolments (stored with the account),
/// pending MFA sign-ins and verification sessions. Each test runs against every `StoreKind`.
@Suite("Store conformance: MFA")
struct MFAConformanceTests {
    // MARK: Enrolments

    @Test("MFA enrolments round-trip with every field set and nil, in enrolment order", arguments: StoreKind.allCases)
    func enrollmentRoundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            // Neither id order nor time order: only the position keeps this order.
            var account = fullAccount()
            account.mfaEnrollments = [
                totpEnrollment("zz-totp-full", enrolledAtMillis: 1_700_000_900_000),
                bareEnrollment("aa-phone-bare", kind: .phone),
                phoneEnrollment("mm-phone-full"),
                bareEnrollment("bb-totp-bare", kind: .totp),
            ]
            let other = enrolledAccount("uid-2", [phoneEnrollment("other-phone", phoneNumber: "+15555550999")])
            let bare = bareAccount("uid-3")
            try store.write { writer throws in
                try writer.insertAccount(account)
                try writer.insertAccount(other)
                try writer.insertAccount(bare)
                #expect(try writer.account(localID: "uid-1") == account)
            }
            try store.read { reader throws in
                // Every way of loading an account loads its enrolments, and only its own.
                #expect(try reader.account(localID: "uid-1") == account)
                #expect(try reader.account(email: "ADA@example.com") == account)
                #expect(try reader.account(providerID: "github.com", rawID: "42") == account)
                #expect(try reader.account(localID: "uid-2") == other)
                #expect(try reader.account(localID: "uid-3")?.mfaEnrollments == [])
            }
            let loaded = try #require(try store.read { try $0.account(localID: "uid-1") })
            #expect(
                loaded.mfaEnrollments.map(\.enrollmentID) == [
                    "zz-totp-full", "aa-phone-bare", "mm-phone-full", "bb-totp-bare",
                ])
            #expect(loaded.mfaEnrollments[0].totpSecret == totpEnrollment("x").totpSecret)
            #expect(loaded.mfaEnrollments[1].totpSecret == nil)
            #expect(loaded.mfaEnrollments[1].lastUsedTOTPStep == nil)
        }
    }

    @Test("an empty TOTP secret stays empty, not nil", arguments: StoreKind.allCases)
    func emptySecret(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var enrollment = bareEnrollment("e1", kind: .totp)
            enrollment.totpSecret = []
            enrollment.lastUsedTOTPStep = 0
            try store.write { try $0.insertAccount(enrolledAccount("uid-1", [enrollment])) }
            let loaded = try store.read { try $0.account(localID: "uid-1") }?.mfaEnrollments
            #expect(loaded == [enrollment])
            #expect(loaded?.first?.totpSecret == [])
        }
    }

    @Test("updateAccount replaces the MFA enrolments", arguments: StoreKind.allCases)
    func updateReplacesEnrollments(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let original = enrolledAccount(
                "uid-1", [totpEnrollment("t1"), phoneEnrollment("p1"), bareEnrollment("b1")])
            try store.write { try $0.insertAccount(original) }

            // Reordered, one dropped, one added, one changed (a TOTP step used).
            var used = totpEnrollment("t1")
            used.lastUsedTOTPStep = 56_666_667
            used.displayName = nil
            var updated = original
            updated.mfaEnrollments = [phoneEnrollment("p1"), used, totpEnrollment("t2")]
            try store.write { try $0.updateAccount(updated) }
            #expect(try store.read { try $0.account(localID: "uid-1") } == updated)

            // Enrolments only: the rest of the account and its identities stay as given.
            updated.mfaEnrollments = []
            try store.write { try $0.updateAccount(updated) }
            #expect(try store.read { try $0.account(localID: "uid-1") } == updated)

            // Ids that were dropped are free again, for this account or another.
            try store.write { writer throws in
                try writer.insertAccount(enrolledAccount("uid-2", [bareEnrollment("b1"), bareEnrollment("t1")]))
                updated.mfaEnrollments = [bareEnrollment("p1"), bareEnrollment("t2")]
                try writer.updateAccount(updated)
            }
            #expect(try store.read { try $0.account(localID: "uid-1") } == updated)
            #expect(
                try store.read { try $0.account(localID: "uid-2") }?.mfaEnrollments.map(\.enrollmentID) == ["b1", "t1"])
        }
    }

    @Test(
        "an enrolment id twice in one account is duplicateEnrollment and changes nothing", arguments: StoreKind.allCases
    )
    func duplicateEnrollmentWithinAccount(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let twice = enrolledAccount(
                "uid-1", [phoneEnrollment("e1"), totpEnrollment("e2"), bareEnrollment("e1", kind: .totp)])
            #expect(throws: StoreError(.duplicateEnrollment)) { try store.write { try $0.insertAccount(twice) } }
            #expect(try store.read { try $0.account(localID: "uid-1") } == nil)
            #expect(try store.read { try $0.accountCount() } == 0)

            let stored = enrolledAccount("uid-1", [phoneEnrollment("e1")])
            try store.write { try $0.insertAccount(stored) }
            var changed = twice
            changed.displayName = "changed"
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateEnrollment)) { try writer.updateAccount(changed) }
                // The failed update left the account as it was, inside the transaction too.
                #expect(try writer.account(localID: "uid-1") == stored)
            }
            #expect(try store.read { try $0.account(localID: "uid-1") } == stored)
        }
    }

    @Test(
        "an enrolment id of another account is duplicateEnrollment and changes nothing", arguments: StoreKind.allCases)
    func duplicateEnrollmentAcrossAccounts(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let first = enrolledAccount("uid-1", [totpEnrollment("shared"), phoneEnrollment("p1")])
            let second = enrolledAccount("uid-2", [phoneEnrollment("p2")])
            try store.write { writer throws in
                try writer.insertAccount(first)
                try writer.insertAccount(second)
            }
            // Whatever else differs (kind, fields), the id alone clashes.
            let clash = enrolledAccount("uid-3", [bareEnrollment("fresh"), bareEnrollment("shared", kind: .phone)])
            #expect(throws: StoreError(.duplicateEnrollment)) { try store.write { try $0.insertAccount(clash) } }

            var secondClash = second
            secondClash.displayName = "changed"
            secondClash.mfaEnrollments = [phoneEnrollment("p2"), bareEnrollment("p1")]
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateEnrollment)) { try writer.updateAccount(secondClash) }
                #expect(try writer.account(localID: "uid-2") == second)
                // The write goes on after the failure.
                try writer.insertAccount(enrolledAccount("uid-4", [bareEnrollment("fresh")]))
            }
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == first)
                #expect(try reader.account(localID: "uid-2") == second)
                #expect(try reader.account(localID: "uid-3") == nil)
                #expect(try reader.account(localID: "uid-4")?.mfaEnrollments == [bareEnrollment("fresh")])
                #expect(try reader.accountCount() == 3)
            }
        }
    }

    // MARK: Deleting accounts

    @Test(
        "deleteAccount removes enrolments and pending sign-ins, not verification sessions or refresh tokens",
        arguments: StoreKind.allCases)
    func deleteAccountRemovesMFAState(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(enrolledAccount("uid-1", [totpEnrollment("t1"), phoneEnrollment("p1")]))
                try writer.insertAccount(enrolledAccount("uid-2", [phoneEnrollment("p2")]))
                try writer.insertRefreshSession(refreshSession("rt1", localID: "uid-1"))
                try writer.insertMFAPendingSignIn(pendingSignIn("pending-1", localID: "uid-1"))
                try writer.insertMFAPendingSignIn(pendingSignIn("pending-2", localID: "uid-2"))
                try writer.insertVerificationSession(verificationSession("session-1a", localID: "uid-1"))
                try writer.insertVerificationSession(
                    verificationSession("session-1b", purpose: .totpEnrollment, localID: "uid-1", phoneNumber: nil))
                try writer.insertVerificationSession(verificationSession("session-2", localID: "uid-2"))
            }
            #expect(try store.read { try $0.verificationSessions(phoneNumber: "+15555550123", createdSince: 0).count } == 2)
            #expect(try store.write { try $0.deleteAccount(localID: "uid-1") } == true)
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == nil)
                #expect(try reader.mfaPendingSignIn(hash: "pending-1") == nil)
                // Verification sessions outlive their account, and still count for SMS throttling (else
                // deleting and re-creating accounts would get round the throttle).
                #expect(
                    try reader.verificationSession(hash: "session-1a")
                        == verificationSession("session-1a", localID: "uid-1"))
                #expect(
                    try reader.verificationSession(hash: "session-1b")
                        == verificationSession(
                            "session-1b", purpose: .totpEnrollment, localID: "uid-1", phoneNumber: nil))
                #expect(try reader.verificationSessions(phoneNumber: "+15555550123", createdSince: 0).count == 2)
                // The other account keeps everything; the refresh token stays (see deleteAccount).
                #expect(try reader.account(localID: "uid-2")?.mfaEnrollments == [phoneEnrollment("p2")])
                #expect(try reader.mfaPendingSignIn(hash: "pending-2") == pendingSignIn("pending-2", localID: "uid-2"))
                #expect(
                    try reader.verificationSession(hash: "session-2")
                        == verificationSession("session-2", localID: "uid-2"))
                #expect(try reader.refreshSession(id: "rt1") == refreshSession("rt1", localID: "uid-1"))
            }
            // A new account with the same local id has no pending sign-ins; the enrolment ids are free again.
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                #expect(try writer.mfaPendingSignIn(hash: "pending-1") == nil)
                try writer.insertAccount(enrolledAccount("uid-3", [totpEnrollment("t1"), phoneEnrollment("p1")]))
                try writer.insertMFAPendingSignIn(pendingSignIn("pending-1", localID: "uid-1"))
            }
            #expect(try store.read { try $0.account(localID: "uid-1") } == bareAccount("uid-1"))
        }
    }

    @Test(
        "deleteAllAccounts removes enrolments and pending sign-ins, not verification sessions or refresh tokens",
        arguments: StoreKind.allCases)
    func deleteAllAccountsRemovesMFAState(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(enrolledAccount("uid-1", [totpEnrollment("t1")]))
                try writer.insertAccount(enrolledAccount("uid-2", [phoneEnrollment("p2")]))
                try writer.insertRefreshSession(refreshSession("rt1", localID: "uid-1"))
                try writer.insertMFAPendingSignIn(pendingSignIn("pending-1", localID: "uid-1"))
                try writer.insertMFAPendingSignIn(pendingSignIn("pending-2", localID: "uid-2"))
                try writer.insertVerificationSession(verificationSession("session-1", localID: "uid-1"))
                try writer.insertVerificationSession(verificationSession("session-2", localID: "uid-2"))
            }
            #expect(try store.write { try $0.deleteAllAccounts() } == 2)
            try store.read { reader throws in
                #expect(try reader.accountCount() == 0)
                #expect(try reader.mfaPendingSignIn(hash: "pending-1") == nil)
                #expect(try reader.mfaPendingSignIn(hash: "pending-2") == nil)
                #expect(
                    try reader.verificationSession(hash: "session-1")
                        == verificationSession("session-1", localID: "uid-1"))
                #expect(
                    try reader.verificationSession(hash: "session-2")
                        == verificationSession("session-2", localID: "uid-2"))
                #expect(try reader.verificationSessions(phoneNumber: "+15555550123", createdSince: .min).count == 2)
                #expect(try reader.refreshSession(id: "rt1") != nil)
            }
            // Enrolment ids and pending sign-in hashes are free again; session hashes stay taken.
            try store.write { writer throws in
                try writer.insertAccount(enrolledAccount("uid-1", [totpEnrollment("t1"), phoneEnrollment("p2")]))
                try writer.insertMFAPendingSignIn(pendingSignIn("pending-2", localID: "uid-1"))
                #expect(throws: StoreError(.duplicateToken)) {
                    try writer.insertVerificationSession(verificationSession("session-2", localID: "uid-1"))
                }
            }
            // Only purging removes them, whether or not their account exists.
            #expect(try store.write { try $0.deleteExpiredMFAState(before: .max, keepSinceMillis: .max) } == 3)
            try store.read { reader throws in
                #expect(try reader.verificationSession(hash: "session-1") == nil)
                #expect(try reader.verificationSession(hash: "session-2") == nil)
                #expect(try reader.verificationSessions(phoneNumber: "+15555550123", createdSince: .min).count == 0)
            }
            try store.write { try $0.insertVerificationSession(verificationSession("session-2", localID: "uid-1")) }
        }
    }

    @Test(
        "a deleted account's verification sessions can still be ended, deleted and purged, not added to",
        arguments: StoreKind.allCases)
    func sessionsOfDeletedAccount(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let number = "+15555550123"
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertVerificationSession(
                    verificationSession("s-ended", phoneNumber: number, expiresAt: 2_000, createdAtMillis: 1_000))
                try writer.insertVerificationSession(
                    verificationSession("s-open", phoneNumber: number, expiresAt: 2_000, createdAtMillis: 2_000))
                try writer.insertVerificationSession(
                    verificationSession("s-gone", phoneNumber: number, expiresAt: 2_000, createdAtMillis: 3_000))
                try writer.deleteAccount(localID: "uid-1")
            }
            #expect(try store.read { try $0.verificationSessions(phoneNumber: number, createdSince: 1_000).count } == 3)

            // Ending a session (as after a wrong code) works without its account, and keeps its account id.
            var ended = verificationSession("s-ended", phoneNumber: number, expiresAt: 0, createdAtMillis: 1_000)
            ended.codeHash = nil
            ended.totpSecret = nil
            ended.failedAttempts = 3
            try store.write { try $0.updateVerificationSession(ended) }
            #expect(try store.read { try $0.verificationSession(hash: "s-ended") } == ended)
            // An update never moves a session to another account, existing or not.
            var moved = ended
            moved.localID = "uid-2"
            moved.failedAttempts = 4
            try store.write { try $0.updateVerificationSession(moved) }
            moved.localID = "ghost"
            moved.failedAttempts = 5
            try store.write { try $0.updateVerificationSession(moved) }
            moved.localID = "uid-1"
            #expect(try store.read { try $0.verificationSession(hash: "s-ended") } == moved)

            #expect(try store.write { try $0.deleteVerificationSession(hash: "s-gone") })
            // No new session for the deleted account.
            #expect(throws: StoreError(.notFound)) {
                try store.write {
                    try $0.insertVerificationSession(verificationSession("s-new", phoneNumber: number, createdAtMillis: 4_000))
                }
            }
            #expect(try store.read { try $0.verificationSessions(phoneNumber: number, createdSince: 1_000).count } == 2)

            // Purging treats them like any other: expired and old enough.
            #expect(try store.write { try $0.deleteExpiredMFAState(before: 1_000, keepSinceMillis: 2_000) } == 1)
            try store.read { reader throws in
                #expect(try reader.verificationSession(hash: "s-ended") == nil)
                #expect(try reader.verificationSession(hash: "s-open") != nil)
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: .min).count == 1)
            }
        }
    }

    // MARK: Pending sign-ins

    @Test("pending MFA sign-ins round-trip, update and are consumed once", arguments: StoreKind.allCases)
    func pendingSignInLifecycle(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let pending = pendingSignIn("h1", failedAttempts: 0)
            var other = pendingSignIn("h2", expiresAt: -7, failedAttempts: 4, createdAtMillis: -1)
            other.signInProvider = "password"
            try store.write { writer throws in
                try writer.insertAccount(fullAccount())
                try writer.insertMFAPendingSignIn(pending)
                try writer.insertMFAPendingSignIn(other)
                #expect(try writer.mfaPendingSignIn(hash: "h1") == pending)
            }
            try store.read { reader throws in
                #expect(try reader.mfaPendingSignIn(hash: "h1") == pending)
                #expect(try reader.mfaPendingSignIn(hash: "h2") == other)
                #expect(try reader.mfaPendingSignIn(hash: "H1") == nil)
                #expect(try reader.mfaPendingSignIn(hash: "unknown") == nil)
            }

            var failed = pending
            failed.failedAttempts += 1
            try store.write { try $0.updateMFAPendingSignIn(failed) }
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h1") } == failed)
            // Update replaces every field but the hash.
            let replaced = MFAPendingSignIn(
                credentialHash: "h1", localID: "uid-1", signInProvider: "apple.com", expiresAt: 9_999,
                failedAttempts: 3, createdAtMillis: 12)
            try store.write { try $0.updateMFAPendingSignIn(replaced) }
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h1") } == replaced)
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h2") } == other)

            #expect(try store.write { try $0.deleteMFAPendingSignIn(hash: "h1") } == true)
            #expect(try store.write { try $0.deleteMFAPendingSignIn(hash: "h1") } == false)
            #expect(try store.write { try $0.deleteMFAPendingSignIn(hash: "unknown") } == false)
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h1") } == nil)
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h2") } == other)
        }
    }

    @Test("a pending sign-in hash can be stored once, for an existing account", arguments: StoreKind.allCases)
    func pendingSignInConstraints(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertMFAPendingSignIn(pendingSignIn("h1", localID: "uid-1"))
            }
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertMFAPendingSignIn(pendingSignIn("h1", localID: "uid-2", expiresAt: 5)) }
            }
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.insertMFAPendingSignIn(pendingSignIn("h2", localID: "ghost")) }
            }
            // Both wrong: the taken hash is reported.
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertMFAPendingSignIn(pendingSignIn("h1", localID: "ghost")) }
            }
            // Updating an unknown hash does not create it.
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.updateMFAPendingSignIn(pendingSignIn("h3", localID: "uid-1")) }
            }
            // Nor may a record be moved to an account that does not exist.
            #expect(throws: StoreError(.notFound)) {
                try store.write {
                    try $0.updateMFAPendingSignIn(pendingSignIn("h1", localID: "ghost", failedAttempts: 1))
                }
            }
            try store.read { reader throws in
                #expect(try reader.mfaPendingSignIn(hash: "h1") == pendingSignIn("h1", localID: "uid-1"))
                #expect(try reader.mfaPendingSignIn(hash: "h2") == nil)
                #expect(try reader.mfaPendingSignIn(hash: "h3") == nil)
            }
            // A failed call inside a write changes nothing, and the write goes on.
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateToken)) {
                    try writer.insertMFAPendingSignIn(pendingSignIn("h1", localID: "uid-2"))
                }
                try writer.insertMFAPendingSignIn(pendingSignIn("h2", localID: "uid-2"))
            }
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h1") }?.localID == "uid-1")
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "h2") }?.localID == "uid-2")
        }
    }

    // MARK: Verification sessions

    @Test(
        "verification sessions of every purpose round-trip, update and are deleted once", arguments: StoreKind.allCases)
    func verificationSessionLifecycle(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let sessions = VerificationSession.Purpose.allCases.flatMap { purpose in
                [
                    verificationSession("full-\(purpose.rawValue)", purpose: purpose, full: true),
                    verificationSession("bare-\(purpose.rawValue)", purpose: purpose, phoneNumber: nil, full: false),
                ]
            }
            try store.write { writer throws in
                try writer.insertAccount(fullAccount())
                for session in sessions { try writer.insertVerificationSession(session) }
                #expect(try writer.verificationSession(hash: sessions[0].sessionHash) == sessions[0])
            }
            try store.read { reader throws in
                for session in sessions {
                    #expect(try reader.verificationSession(hash: session.sessionHash) == session)
                }
                #expect(try reader.verificationSession(hash: "FULL-phone-sign-in") == nil)
                #expect(try reader.verificationSession(hash: "unknown") == nil)
            }
            let loaded = try store.read { try $0.verificationSession(hash: "full-totp-enrollment") }
            #expect(loaded?.totpSecret == verificationSession("x").totpSecret)

            // Update replaces every field but the hash, set to nil or not.
            var failed = sessions[0]
            failed.failedAttempts += 1
            try store.write { try $0.updateVerificationSession(failed) }
            #expect(try store.read { try $0.verificationSession(hash: failed.sessionHash) } == failed)
            let cleared = verificationSession(
                failed.sessionHash, purpose: .totpEnrollment, phoneNumber: nil, expiresAt: 1, createdAtMillis: 2,
                full: false)
            try store.write { try $0.updateVerificationSession(cleared) }
            #expect(try store.read { try $0.verificationSession(hash: failed.sessionHash) } == cleared)
            var filled = sessions[1]
            filled.codeHash = "c0de"
            filled.totpSecret = [1, 2, 3]
            filled.pendingCredentialHash = "p"
            filled.enrollmentID = "e"
            try store.write { try $0.updateVerificationSession(filled) }
            #expect(try store.read { try $0.verificationSession(hash: filled.sessionHash) } == filled)

            #expect(try store.write { try $0.deleteVerificationSession(hash: failed.sessionHash) } == true)
            #expect(try store.write { try $0.deleteVerificationSession(hash: failed.sessionHash) } == false)
            #expect(try store.write { try $0.deleteVerificationSession(hash: "unknown") } == false)
            try store.read { reader throws in
                #expect(try reader.verificationSession(hash: failed.sessionHash) == nil)
                #expect(try reader.verificationSession(hash: filled.sessionHash) == filled)
                for session in sessions.dropFirst(2) {
                    #expect(try reader.verificationSession(hash: session.sessionHash) == session)
                }
            }
        }
    }

    @Test("a verification session hash can be stored once, for an existing account", arguments: StoreKind.allCases)
    func verificationSessionConstraints(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertVerificationSession(verificationSession("h1", localID: "uid-1"))
            }
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write {
                    try $0.insertVerificationSession(
                        verificationSession("h1", purpose: .phoneEnrollment, localID: "uid-2"))
                }
            }
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.insertVerificationSession(verificationSession("h2", localID: "ghost")) }
            }
            // Both wrong: the taken hash is reported.
            #expect(throws: StoreError(.duplicateToken)) {
                try store.write { try $0.insertVerificationSession(verificationSession("h1", localID: "ghost")) }
            }
            // Updating an unknown hash does not create it.
            #expect(throws: StoreError(.notFound)) {
                try store.write { try $0.updateVerificationSession(verificationSession("h3", localID: "uid-1")) }
            }
            try store.read { reader throws in
                #expect(try reader.verificationSession(hash: "h1") == verificationSession("h1", localID: "uid-1"))
                #expect(try reader.verificationSession(hash: "h2") == nil)
                #expect(try reader.verificationSession(hash: "h3") == nil)
                // Failed inserts are not counted for throttling.
                #expect(try reader.verificationSessions(phoneNumber: "+15555550123", createdSince: .min).count == 1)
            }
            // An update never changes the account: the local id it names is ignored.
            try store.write {
                try $0.updateVerificationSession(verificationSession("h1", localID: "ghost", full: false))
            }
            #expect(
                try store.read { try $0.verificationSession(hash: "h1") }
                    == verificationSession("h1", localID: "uid-1", full: false))
            // A failed call inside a write changes nothing, and the write goes on.
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateToken)) {
                    try writer.insertVerificationSession(verificationSession("h1", localID: "uid-2"))
                }
                #expect(throws: StoreError(.notFound)) {
                    try writer.insertVerificationSession(verificationSession("h2", localID: "ghost"))
                }
                try writer.insertVerificationSession(verificationSession("h2", localID: "uid-2"))
            }
            #expect(try store.read { try $0.verificationSession(hash: "h1") }?.localID == "uid-1")
            #expect(try store.read { try $0.verificationSession(hash: "h2") } == verificationSession("h2", localID: "uid-2"))
        }
    }

    @Test(
        "verificationSessionCount counts one number's sessions created at or after a time",
        arguments: StoreKind.allCases)
    func verificationSessionCount(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let number = "+15555550123"
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertAccount(bareAccount("uid-2"))
                try writer.insertVerificationSession(
                    verificationSession("before", phoneNumber: number, createdAtMillis: 999))
                try writer.insertVerificationSession(
                    verificationSession("edge", phoneNumber: number, createdAtMillis: 1_000))
                // Another account and another purpose, same number: counted (throttling is per number).
                try writer.insertVerificationSession(
                    verificationSession(
                        "after", purpose: .phoneEnrollment, localID: "uid-2", phoneNumber: number,
                        createdAtMillis: 1_001,
                        full: false))
                // Other numbers, including one that differs only in formatting, and no number at all.
                try writer.insertVerificationSession(
                    verificationSession("other", phoneNumber: "+15555550124", createdAtMillis: 1_000))
                try writer.insertVerificationSession(
                    verificationSession("spaced", phoneNumber: "+1 555 555 0123", createdAtMillis: 1_000))
                try writer.insertVerificationSession(
                    verificationSession("none", purpose: .totpEnrollment, phoneNumber: nil, createdAtMillis: 1_000))
                #expect(try writer.verificationSessions(phoneNumber: number, createdSince: 1_000).count == 2)
            }
            try store.read { reader throws in
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: .min).count == 3)
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: 999).count == 3)
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: 1_000).count == 2)
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: 1_001).count == 1)
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: 1_002).count == 0)
                #expect(try reader.verificationSessions(phoneNumber: number, createdSince: .max).count == 0)
                #expect(try reader.verificationSessions(phoneNumber: "+15555550124", createdSince: 0).count == 1)
                #expect(try reader.verificationSessions(phoneNumber: "+15555550000", createdSince: 0).count == 0)
                #expect(try reader.verificationSessions(phoneNumber: "", createdSince: .min).count == 0)
            }
            // Deleted sessions are not counted.
            #expect(try store.write { try $0.deleteVerificationSession(hash: "edge") })
            #expect(try store.read { try $0.verificationSessions(phoneNumber: number, createdSince: 1_000).count } == 1)
        }
    }

    // MARK: Purging

    @Test(
        "deleteExpiredMFAState removes expired pending sign-ins and sessions, keeping recent sessions",
        arguments: StoreKind.allCases)
    func deleteExpiredMFAState(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertAccount(bareAccount("uid-1"))
                try writer.insertMFAPendingSignIn(pendingSignIn("p-older", expiresAt: -5))
                try writer.insertMFAPendingSignIn(pendingSignIn("p-old", expiresAt: 99, createdAtMillis: 999_999))
                try writer.insertMFAPendingSignIn(pendingSignIn("p-edge", expiresAt: 100))
                try writer.insertMFAPendingSignIn(pendingSignIn("p-new", expiresAt: 101))
                // Expired and created before keepSinceMillis: removed.
                try writer.insertVerificationSession(verificationSession("s-old", expiresAt: 99, createdAtMillis: 499))
                try writer.insertVerificationSession(verificationSession("s-older", expiresAt: -5, createdAtMillis: -1))
                // Expired but created at or after keepSinceMillis: kept for SMS throttling.
                try writer.insertVerificationSession(
                    verificationSession("s-recent-edge", expiresAt: 99, createdAtMillis: 500))
                try writer.insertVerificationSession(
                    verificationSession("s-recent", expiresAt: 99, createdAtMillis: 501))
                // Not expired (expiring at the boundary counts as not expired), however old.
                try writer.insertVerificationSession(verificationSession("s-edge", expiresAt: 100, createdAtMillis: 0))
                try writer.insertVerificationSession(verificationSession("s-new", expiresAt: 101, createdAtMillis: -9))
            }
            #expect(try store.write { try $0.deleteExpiredMFAState(before: 100, keepSinceMillis: 500) } == 4)
            #expect(try store.write { try $0.deleteExpiredMFAState(before: 100, keepSinceMillis: 500) } == 0)
            try store.read { reader throws in
                for hash in ["p-older", "p-old"] { #expect(try reader.mfaPendingSignIn(hash: hash) == nil, "\(hash)") }
                for hash in ["p-edge", "p-new"] { #expect(try reader.mfaPendingSignIn(hash: hash) != nil, "\(hash)") }
                for hash in ["s-old", "s-older"] {
                    #expect(try reader.verificationSession(hash: hash) == nil, "\(hash)")
                }
                for hash in ["s-recent-edge", "s-recent", "s-edge", "s-new"] {
                    #expect(try reader.verificationSession(hash: hash) != nil, "\(hash)")
                }
                #expect(try reader.verificationSessions(phoneNumber: "+15555550123", createdSince: 500).count == 2)
                #expect(try reader.account(localID: "uid-1") == bareAccount("uid-1"))
            }
            // Later, the throttling window has passed too.
            #expect(try store.write { try $0.deleteExpiredMFAState(before: 100, keepSinceMillis: .max) } == 2)
            #expect(try store.read { try $0.verificationSession(hash: "s-edge") } != nil)
            #expect(try store.read { try $0.mfaPendingSignIn(hash: "p-edge") } != nil)
        }
    }

    // MARK: Transactions and persistence

    @Test("a write whose body throws leaves no MFA change behind", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            let kept = enrolledAccount("kept", [totpEnrollment("t1")])
            try store.write { writer throws in
                try writer.insertAccount(kept)
                try writer.insertMFAPendingSignIn(pendingSignIn("p1", localID: "kept"))
                try writer.insertVerificationSession(verificationSession("s1", localID: "kept", expiresAt: 1))
            }
            #expect(throws: Abort.self) {
                try store.write { writer throws in
                    try writer.insertAccount(enrolledAccount("new", [phoneEnrollment("p-new")]))
                    try writer.insertMFAPendingSignIn(pendingSignIn("p2", localID: "new"))
                    try writer.insertVerificationSession(verificationSession("s2", localID: "new"))
                    try writer.updateAccount(enrolledAccount("kept", [phoneEnrollment("p-changed")]))
                    try writer.updateMFAPendingSignIn(pendingSignIn("p1", localID: "kept", failedAttempts: 5))
                    #expect(try writer.deleteExpiredMFAState(before: 100, keepSinceMillis: .max) == 1)
                    #expect(try writer.deleteMFAPendingSignIn(hash: "p1"))
                    #expect(try writer.deleteAccount(localID: "kept"))
                    throw Abort()
                }
            }
            try store.read { reader throws in
                #expect(try reader.account(localID: "kept") == kept)
                #expect(try reader.account(localID: "new") == nil)
                #expect(try reader.mfaPendingSignIn(hash: "p1") == pendingSignIn("p1", localID: "kept"))
                #expect(try reader.mfaPendingSignIn(hash: "p2") == nil)
                #expect(
                    try reader.verificationSession(hash: "s1")
                        == verificationSession("s1", localID: "kept", expiresAt: 1))
                #expect(try reader.verificationSession(hash: "s2") == nil)
                #expect(try reader.verificationSessions(phoneNumber: "+15555550123", createdSince: .min).count == 1)
            }
            // The rolled-back enrolment id is free; the kept one is still taken.
            try store.write { try $0.insertAccount(enrolledAccount("new", [phoneEnrollment("p-new")])) }
            #expect(throws: StoreError(.duplicateEnrollment)) {
                try store.write { try $0.insertAccount(enrolledAccount("other", [totpEnrollment("t1")])) }
            }
        }
    }

    @Test("MFA state survives closing and reopening the store", arguments: StoreKind.persistentCases)
    func persistence(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        var account = fullAccount()
        account.mfaEnrollments = [totpEnrollment("t1"), bareEnrollment("b1")]
        do {
            let store = try kind.open(directory.path)
            try store.write { writer throws in
                try writer.insertAccount(account)
                try writer.insertMFAPendingSignIn(pendingSignIn("p1"))
                try writer.insertVerificationSession(verificationSession("s1"))
            }
            store.close()
        }
        let reopened = try kind.open(directory.path)
        defer { reopened.close() }
        try reopened.read { reader throws in
            #expect(try reader.account(localID: "uid-1") == account)
            #expect(try reader.mfaPendingSignIn(hash: "p1") == pendingSignIn("p1"))
            #expect(try reader.verificationSession(hash: "s1") == verificationSession("s1"))
        }
        #expect(throws: StoreError(.duplicateEnrollment)) {
            try reopened.write { try $0.insertAccount(enrolledAccount("uid-2", [bareEnrollment("t1")])) }
        }
        #expect(throws: StoreError(.duplicateToken)) {
            try reopened.write { try $0.insertMFAPendingSignIn(pendingSignIn("p1")) }
        }
    }
}
