import HearthProtocol

extension MFAEnrollment {
    /// The policy factor this enrolment is.
    var factor: MFAPolicy.Factor {
        switch kind {
        case .phone: .phone
        case .totp: .totp
        }
    }

    /// The wire form (`mfaInfo[]`): the phone number masked before the second factor, in full in lookup.
    func wireInfo(masked: Bool) -> MFAEnrollmentInfo {
        MFAEnrollmentInfo(
            mfaEnrollmentId: enrollmentID, displayName: displayName,
            enrolledAt: Timestamps.rfc3339(millis: enrolledAtMillis),
            phoneInfo: phoneNumber.map { masked ? PhoneNumbers.masked($0) : $0 },
            totpInfo: kind == .totp ? EmptyObject() : nil)
    }
}
