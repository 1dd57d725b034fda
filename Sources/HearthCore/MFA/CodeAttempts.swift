/// The second-factor state machines as values: what one attempt at a code does to the record it is made against,
/// decided without the store (``MFAService`` reads the record, applies one of these and writes what they return).

/// What one attempt at a verification session's code (an SMS code, or the first TOTP code of an enrolment) means.
enum CodeAttempt: Equatable {
    /// The code is right; the session is over.
    case accepted
    /// The code is wrong, and the session may be tried again.
    case wrong
    /// The code is wrong and was the last one the session allowed; it is over.
    case exhausted
    /// The session had expired before the attempt (whatever the code); it is over.
    case expired
}

extension VerificationSession {
    /// The outcome of an attempt made at `nowMillis` whose code matched or not, and the session afterwards: one
    /// more failed attempt after a wrong code, `verifiedAtMillis` set when accepted. An expired session is expired
    /// whatever the code, so a late right code proves nothing. Sessions that are over are ended by the caller
    /// (``spent`` for SMS, which stay for the throttle; TOTP enrolments are deleted).
    func attempt(codeMatches: Bool, atMillis nowMillis: Int64, maximumAttempts: Int) -> (CodeAttempt, VerificationSession) {
        var after = self
        guard expiresAt > nowMillis / 1000 else { return (.expired, after) }
        guard codeMatches else {
            after.failedAttempts += 1
            return (after.failedAttempts >= maximumAttempts ? .exhausted : .wrong, after)
        }
        after.verifiedAtMillis = nowMillis
        return (.accepted, after)
    }

    /// The session once over: no code, no secret, expired; its record stays (counting against its number's SMS
    /// allowance) until the purge.
    var spent: VerificationSession {
        var ended = self
        ended.codeHash = nil
        ended.totpSecret = nil
        ended.expiresAt = 0
        return ended
    }

    /// Whether this session still holds a code or secret that could be used before it expires.
    func isOpen(atSeconds now: Int64) -> Bool {
        (codeHash != nil || totpSecret != nil) && expiresAt > now
    }
}

extension MFAPendingSignIn {
    /// Counts one wrong code; true when that was the last one the pending sign-in allowed (it must end).
    mutating func countWrongCode(maximumAttempts: Int) -> Bool {
        failedAttempts += 1
        return failedAttempts >= maximumAttempts
    }
}

extension MFAEnrollment {
    /// Accepts a TOTP code that matched at `step`: at most once per step and never an earlier one than the last used,
    /// so a code seen once cannot be replayed. Records the step; false (nothing changed) for a replay.
    mutating func acceptTOTP(step: Int64) -> Bool {
        guard step > (lastUsedTOTPStep ?? Int64.min) else { return false }
        lastUsedTOTPStep = step
        return true
    }
}

extension MFAService.Limits {
    /// Whether another SMS may go to a number whose verification sessions of the last hour are `recent`, at
    /// `nowMillis`: none of them unused and younger than `resendInterval`, and fewer than `maximumSMSPerHour`.
    func allowsSMS(after recent: [VerificationSession], atMillis nowMillis: Int64) -> Bool {
        let resendAfter = nowMillis - resendInterval * 1000
        let waiting = recent.contains { $0.createdAtMillis >= resendAfter && $0.verifiedAtMillis == nil }
        return !waiting && recent.count < maximumSMSPerHour
    }
}
