extension Account {
    /// The takeover of an account whose email nobody had proved, by a sign-in that just proved it (a provider trusted
    /// for the address, or an email link): every other way in drops — password, email-link sign-in, phone number,
    /// linked identities, second factors — so whoever registered the address first keeps nothing (PROTOCOL.md §4.3
    /// step 3c).
    ///
    /// The write that takes the account over must also end its sessions and void its outstanding email action codes:
    /// `StoreWriter.takeOver(_:atMillis:)` does all three.
    mutating func dropEveryWayIn() {
        passwordHash = nil
        passwordUpdatedAtMillis = nil
        emailLinkSignIn = false
        phoneNumber = nil
        providers = []
        mfaEnrollments = []
    }
}

extension StoreWriter {
    /// Takes `account` over in this write (``Account/dropEveryWayIn()``), ends every session it has
    /// (``endSessions(of:atMillis:)``) and voids every email action code issued for it, so that a code its earlier holder kept (a change of email to his own address, say) cannot take
    /// it back afterwards.
    func takeOver(_ account: inout Account, atMillis millis: Int64) throws {
        account.dropEveryWayIn()
        try endSessions(of: &account, atMillis: millis)
        try deleteOOBCodes(localID: account.localID, keeping: nil)
    }
}
