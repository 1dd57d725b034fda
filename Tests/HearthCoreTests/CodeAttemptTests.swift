import Testing

@testable import HearthCore

/// The second-factor state machines as values (CodeAttempts.swift), without a store.
@Suite("Second-factor code attempts as values")
struct CodeAttemptTests {
    private static let nowMillis: Int64 = 1_800_000_000_123

    private static func session(expiresAt: Int64 = 1_800_000_300, failedAttempts: Int = 0) -> VerificationSession {
        VerificationSession(
            sessionHash: "h", purpose: .phoneSignIn, localID: "u", phoneNumber: "+15550100", codeHash: "c",
            failedAttempts: failedAttempts, expiresAt: expiresAt, createdAtMillis: nowMillis - 1_000)
    }

    @Test(
        "an attempt: right, wrong, the last wrong, or too late whatever the code",
        arguments: [
            (true, 0, Int64(1_800_000_300), CodeAttempt.accepted, 0),
            (false, 0, Int64(1_800_000_300), CodeAttempt.wrong, 1),
            (false, 1, Int64(1_800_000_300), CodeAttempt.wrong, 2),
            (false, 2, Int64(1_800_000_300), CodeAttempt.exhausted, 3),
            (true, 0, Int64(1_800_000_000), CodeAttempt.expired, 0),
            (false, 2, Int64(1_799_999_999), CodeAttempt.expired, 2),
        ])
    func attempt(matches: Bool, failedBefore: Int, expiresAt: Int64, expected: CodeAttempt, failedAfter: Int) {
        let before = Self.session(expiresAt: expiresAt, failedAttempts: failedBefore)
        let (outcome, after) = before.attempt(codeMatches: matches, atMillis: Self.nowMillis, maximumAttempts: 3)
        #expect(outcome == expected)
        #expect(after.failedAttempts == failedAfter)
        #expect(after.verifiedAtMillis == (expected == .accepted ? Self.nowMillis : nil))
        #expect(after.codeHash == before.codeHash, "ending the session is the caller's step")
    }

    @Test("a spent session keeps its number and time for the throttle, but no code, no secret and no life")
    func spent() {
        var session = Self.session()
        session.totpSecret = [1, 2, 3]
        let spent = session.spent
        #expect(spent.codeHash == nil && spent.totpSecret == nil && spent.expiresAt == 0)
        #expect(spent.phoneNumber == session.phoneNumber && spent.createdAtMillis == session.createdAtMillis)
        #expect(session.isOpen(atSeconds: 1_800_000_000))
        #expect(!spent.isOpen(atSeconds: 1_800_000_000))
        #expect(!session.isOpen(atSeconds: 1_800_000_300), "expired")
    }

    @Test("a pending sign-in ends at its fifth wrong code")
    func pendingSignIn() {
        var pending = MFAPendingSignIn(
            credentialHash: "p", localID: "u", signInProvider: "password", expiresAt: 1, createdAtMillis: 0)
        var ends: [Bool] = []
        for _ in 1...5 { ends.append(pending.countWrongCode(maximumAttempts: 5)) }
        #expect(ends == [false, false, false, false, true])
        #expect(pending.failedAttempts == 5)
    }

    @Test("a TOTP step is accepted once, and never one older than the last used")
    func totpReplay() {
        var enrollment = MFAEnrollment(enrollmentID: "e", kind: .totp, enrolledAtMillis: 0, totpSecret: [0])
        var accepted: [Bool] = []
        for step: Int64 in [100, 100, 99] { accepted.append(enrollment.acceptTOTP(step: step)) }
        #expect(accepted == [true, false, false])
        #expect(enrollment.lastUsedTOTPStep == 100)
        let next = enrollment.acceptTOTP(step: 101)
        #expect(next)
    }

    @Test("an SMS waits for an unused code younger than the resend interval, and stops at the hourly allowance")
    func smsThrottle() {
        let limits = MFAService.Limits()  // resend after 30 s, 10 an hour
        let now = Self.nowMillis
        func sent(secondsAgo: Int64, verified: Bool = false) -> VerificationSession {
            var session = Self.session()
            session.createdAtMillis = now - secondsAgo * 1000
            if verified { session.verifiedAtMillis = session.createdAtMillis + 1 }
            return session
        }
        #expect(limits.allowsSMS(after: [], atMillis: now))
        #expect(!limits.allowsSMS(after: [sent(secondsAgo: 10)], atMillis: now))
        #expect(limits.allowsSMS(after: [sent(secondsAgo: 10, verified: true)], atMillis: now), "its code was used")
        #expect(limits.allowsSMS(after: [sent(secondsAgo: 31)], atMillis: now))
        #expect(limits.allowsSMS(after: (1...9).map { sent(secondsAgo: 60 * Int64($0)) }, atMillis: now))
        #expect(!limits.allowsSMS(after: (1...10).map { sent(secondsAgo: 60 * Int64($0)) }, atMillis: now))
    }
}
