import Foundation
import HearthProtocol
import Testing

@testable import HearthAdmin

@Suite("importUsers")
struct ImportUsersTests {
    let harness = Harness()

    @Test("each row carries the uid, profile, claims, metadata in milliseconds, providers and phone factors")
    func rowShape() async throws {
        harness.transport.enqueue("accounts:batchCreate", json: ["kind": "identitytoolkit#UploadAccountResponse"])
        var ada = UserImportRecord(uid: "ada")
        ada.email = "ada@example.com"
        ada.emailVerified = true
        ada.displayName = "Ada"
        ada.photoURL = "https://example.com/ada.png"
        ada.phoneNumber = "+15555550100"
        ada.disabled = false
        ada.customClaims = ["admin": true]
        ada.metadata = UserMetadata(
            creationTime: Date(timeIntervalSince1970: 1_700_000_000.123), lastSignInTime: Date(timeIntervalSince1970: 1_700_000_100))
        ada.providerData = [UserInfo(providerID: "google.com", uid: "g-1", email: "ada@example.com", displayName: "Ada L")]
        ada.multiFactor = [
            MultiFactorInfo(
                phoneNumber: "+15555550101", uid: "enr-1", displayName: "work", enrollmentTime: Date(timeIntervalSince1970: 1_700_000_000))
        ]
        let result = try await harness.auth().importUsers([ada, UserImportRecord(uid: "bob")])
        let request = harness.transport.requests.first
        #expect(request?.method == "POST")
        #expect(request?.url.absoluteString == Fixture.projectBase + "/accounts:batchCreate")
        #expect(request?.headers["Authorization"] == "Bearer owner")
        #expect(request?.json == [
            "users": [
                [
                    "localId": "ada", "email": "ada@example.com", "emailVerified": true, "displayName": "Ada",
                    "photoUrl": "https://example.com/ada.png", "phoneNumber": "+15555550100", "disabled": false,
                    "customAttributes": #"{"admin":true}"#, "createdAt": 1_700_000_000_123, "lastLoginAt": 1_700_000_100_000,
                    "providerUserInfo": [
                        ["providerId": "google.com", "rawId": "g-1", "email": "ada@example.com", "displayName": "Ada L"]
                    ],
                    "mfaInfo": [
                        [
                            "mfaEnrollmentId": "enr-1", "phoneInfo": "+15555550101", "displayName": "work",
                            "enrolledAt": "2023-11-14T22:13:20.000Z",
                        ]
                    ],
                ],
                ["localId": "bob"],
            ],
        ])
        #expect(result.successCount == 2)
        #expect(result.errors.isEmpty)
    }

    @Test("per-row errors keep their index, code and the server's message")
    func rowErrors() async throws {
        harness.transport.enqueue("accounts:batchCreate", json: [
            "kind": "identitytoolkit#UploadAccountResponse",
            "error": [
                ["index": 2, "message": "phone number already exists"],
                ["index": 1, "message": "Provider id(x): not allowed"],
                ["index": 0, "message": "EMAIL_EXISTS : The email address is already in use by another account."],
            ],
        ])
        let users = ["a", "b", "c"].map(UserImportRecord.init(uid:))
        let result = try await harness.auth().importUsers(users)
        #expect(result.successCount == 0)
        #expect(result.failureCount == 3)
        #expect(result.errors.map(\.index) == [0, 1, 2])
        #expect(result.errors[0].error.code == .emailAlreadyExists)
        #expect(result.errors[0].error.message == "The email address is already in use by another account.")
        #expect(result.errors[0].error.serverCode == "EMAIL_EXISTS")
        // Sentences carry no code: the whole message is kept, and serverCode stays empty.
        #expect(result.errors[1].error.code == .invalidUserImport)
        #expect(result.errors[1].error.message == "Provider id(x): not allowed")
        #expect(result.errors[1].error.serverCode == nil)
        #expect(result.errors[2].error.code == .invalidUserImport)
        #expect(result.errors[2].error.message == "phone number already exists")
        #expect(result.errors[2].error.serverCode == nil)
    }

    @Test("a row error naming an index outside the input is an unexpected response")
    func rowIndexOutOfRange() async {
        harness.transport.enqueue("accounts:batchCreate", json: ["error": [["index": 5, "message": "x"]]])
        let error = await adminError { try await harness.auth().importUsers([UserImportRecord(uid: "a")]) }
        #expect(error?.code == .unexpectedResponse)
    }

    @Test("more than 1,000 users, a bad uid or a reserved claim is refused before sending")
    func clientSideRules() async {
        let auth = harness.auth()
        let many = (0...1000).map { UserImportRecord(uid: "u\($0)") }
        #expect(await adminError { try await auth.importUsers(many) }?.code == .maximumUserCountExceeded)
        #expect(await adminError { try await auth.importUsers([UserImportRecord(uid: "")]) }?.code == .invalidUID)
        var reserved = UserImportRecord(uid: "a")
        reserved.customClaims = ["sub": "x"]
        #expect(await adminError { try await auth.importUsers([reserved]) }?.code == .forbiddenClaim)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a whole-request refusal is thrown with its mapped code")
    func wholeRequestRefusal() async {
        harness.transport.enqueueError("accounts:batchCreate", message: "DUPLICATE_LOCAL_ID : a")
        let error = await adminError { try await harness.auth().importUsers([UserImportRecord(uid: "a"), UserImportRecord(uid: "a")]) }
        #expect(error?.code == .uidAlreadyExists)
        #expect(error?.message == "a")
    }
}
