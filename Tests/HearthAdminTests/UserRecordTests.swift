import Foundation
import HearthProtocol
import Testing

@testable import HearthAdmin

@Suite("UserRecord")
struct UserRecordTests {
    let harness = Harness()

    /// A record as Hearth's admin lookup sends it (PROTOCOL.md §3.5).
    static let wireUser: JSONValue = [
        "localId": "uid-1", "email": "ada@example.com", "emailVerified": true, "displayName": "Ada",
        "photoUrl": "https://example.com/ada.png", "phoneNumber": "+15555550100", "disabled": false,
        "validSince": "1800000000", "createdAt": "1700000000123", "lastLoginAt": "1700000100000",
        "lastRefreshAt": "2027-01-15T08:00:00.250Z", "customAttributes": #"{"admin":true,"tier":2}"#,
        "providerUserInfo": [
            ["providerId": "google.com", "rawId": "g-1", "federatedId": "g-1", "email": "ada@example.com", "displayName": "Ada L", "photoUrl": "https://example.com/g.png"],
            ["providerId": "phone", "rawId": "+15555550100", "federatedId": "+15555550100", "phoneNumber": "+15555550100"],
        ],
        "mfaInfo": [
            ["mfaEnrollmentId": "enr-1", "displayName": "work phone", "enrolledAt": "2027-01-01T00:00:00.000Z", "phoneInfo": "+15555550101"],
            ["mfaEnrollmentId": "enr-2", "enrolledAt": "2027-01-02T00:00:00Z", "totpInfo": [:]],
        ],
    ]

    @Test("every firebase-admin field is read from the admin wire format")
    func decodesEveryField() async throws {
        harness.transport.enqueue("accounts:lookup", json: ["kind": "identitytoolkit#GetAccountInfoResponse", "users": [Self.wireUser]])
        let user = try await harness.auth().getUser(uid: "uid-1")
        #expect(user.uid == "uid-1")
        #expect(user.email == "ada@example.com")
        #expect(user.emailVerified)
        #expect(user.displayName == "Ada")
        #expect(user.photoURL == "https://example.com/ada.png")
        #expect(user.phoneNumber == "+15555550100")
        #expect(!user.disabled)
        #expect(user.customClaims == ["admin": true, "tier": 2])
        #expect(user.tokensValidAfterTime == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(user.metadata.creationTime == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(user.metadata.lastSignInTime == Date(timeIntervalSince1970: 1_700_000_100))
        #expect(user.metadata.lastRefreshTime == Date(timeIntervalSince1970: 1_800_000_000.25))
        #expect(user.providerData == [
            UserInfo(providerID: "google.com", uid: "g-1", email: "ada@example.com", displayName: "Ada L", photoURL: "https://example.com/g.png"),
            UserInfo(providerID: "phone", uid: "+15555550100", phoneNumber: "+15555550100"),
        ])
        #expect(user.multiFactor.map(\.factorID) == ["phone", "totp"])
        #expect(user.multiFactor[0].uid == "enr-1")
        #expect(user.multiFactor[0].displayName == "work phone")
        #expect(user.multiFactor[0].phoneNumber == "+15555550101")
        #expect(user.multiFactor[0].enrollmentTime == Date(timeIntervalSince1970: 1_798_761_600))
        #expect(user.multiFactor[1].phoneNumber == nil)
    }

    @Test("a minimal record has defaults: not verified, enabled, no claims, no metadata")
    func minimalRecord() async throws {
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["customAttributes": "{}"]))
        let user = try await harness.auth().getUser(uid: "uid-1")
        #expect(!user.emailVerified)
        #expect(!user.disabled)
        #expect(user.customClaims == nil)
        #expect(user.metadata == UserMetadata())
        #expect(user.tokensValidAfterTime == nil)
        #expect(user.providerData.isEmpty)
        #expect(user.multiFactor.isEmpty)
    }

    @Test("customAttributes that is not a JSON object is an unexpected response")
    func badCustomAttributes() async {
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["customAttributes": "[1,2]"]))
        #expect(await adminError { try await harness.auth().getUser(uid: "uid-1") }?.code == .unexpectedResponse)
    }
}
