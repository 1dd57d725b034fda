import Foundation
import HearthProtocol
import Testing

@testable import HearthAdmin

/// Every admin call exactly as firebase-admin sends it (PROTOCOL.md §8), in development mode (`Bearer owner`).
@Suite("Requests")
struct RequestShapeTests {
    let harness = Harness()

    func expectAdminPOST(_ request: AdminHTTPRequest?, _ suffix: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(request?.method == "POST", sourceLocation: sourceLocation)
        #expect(request?.url.absoluteString == Fixture.projectBase + suffix, sourceLocation: sourceLocation)
        #expect(request?.headers["Authorization"] == "Bearer owner", sourceLocation: sourceLocation)
        #expect(request?.headers["Content-Type"] == "application/json", sourceLocation: sourceLocation)
        #expect(request?.headers["X-Client-Version"] == "Swift/HearthAdmin/\(HearthAdminVersion.string)", sourceLocation: sourceLocation)
    }

    @Test("getUser(uid:), (email:) and (phoneNumber:) post accounts:lookup with a one-element array")
    func lookups() async throws {
        let auth = harness.auth()
        for _ in 0..<3 { harness.transport.enqueue("accounts:lookup", json: Fixture.lookup()) }
        _ = try await auth.getUser(uid: "uid-1")
        _ = try await auth.getUser(email: "ada@example.com")
        _ = try await auth.getUser(phoneNumber: "+15555550100")
        let requests = harness.transport.requests
        #expect(requests.count == 3)
        for request in requests { expectAdminPOST(request, "/accounts:lookup") }
        #expect(requests.map(\.json) == [
            ["localId": ["uid-1"]], ["email": ["ada@example.com"]], ["phoneNumber": ["+15555550100"]],
        ])
    }

    @Test("getUsers combines every kind of identifier in one lookup and reports the ones nobody matched (emails in any case match)")
    func getUsers() async throws {
        harness.transport.enqueue("accounts:lookup", json: [
            "users": [
                ["localId": "uid-1", "email": "ada@example.com"],
                ["localId": "uid-2", "providerUserInfo": [["providerId": "google.com", "rawId": "g-2", "federatedId": "g-2"]]],
            ],
        ])
        let result = try await harness.auth().getUsers([
            .uid("uid-1"), .email("Ada@Example.com"), .phoneNumber("+15555550100"),
            .provider(providerID: "google.com", providerUID: "g-2"), .uid("uid-9"),
        ])
        let request = harness.transport.requests.first
        expectAdminPOST(request, "/accounts:lookup")
        #expect(request?.json == [
            "localId": ["uid-1", "uid-9"], "email": ["Ada@Example.com"], "phoneNumber": ["+15555550100"],
            "federatedUserId": [["providerId": "google.com", "rawId": "g-2"]],
        ])
        #expect(result.users.map(\.uid) == ["uid-1", "uid-2"])
        #expect(result.notFound == [.phoneNumber("+15555550100"), .uid("uid-9")])
    }

    @Test("getUsers refuses more than 100 identifiers without sending")
    func getUsersLimit() async {
        let identifiers = (0...100).map { UserIdentifier.uid("u\($0)") }
        let error = await adminError { try await harness.auth().getUsers(identifiers) }
        #expect(error?.code == .maximumUserCountExceeded)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("createUser posts the set fields to …/accounts, then reads the new user back")
    func createUser() async throws {
        harness.transport.enqueue("accounts", json: ["kind": "identitytoolkit#SignupNewUserResponse", "localId": "new-1"])
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(uid: "new-1", ["email": "ada@example.com"]))
        var request = CreateUserRequest()
        request.uid = "new-1"
        request.email = "ada@example.com"
        request.emailVerified = true
        request.displayName = "Ada"
        request.photoURL = "https://example.com/ada.png"
        request.phoneNumber = "+15555550100"
        request.disabled = false
        let user = try await harness.auth().createUser(request)
        let requests = harness.transport.requests
        expectAdminPOST(requests.first, "/accounts")
        #expect(requests.first?.json == [
            "localId": "new-1", "email": "ada@example.com", "emailVerified": true, "displayName": "Ada",
            "photoUrl": "https://example.com/ada.png", "phoneNumber": "+15555550100", "disabled": false,
        ])
        #expect(requests.last?.json == ["localId": ["new-1"]])
        #expect(user.uid == "new-1")
        #expect(user.email == "ada@example.com")
    }

    @Test("updateUser sends set fields, removals as deleteAttribute/deleteProvider, and claims as a JSON string")
    func updateUser() async throws {
        harness.transport.enqueue("accounts:update", json: ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": "uid-1"])
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup(["disabled": true]))
        var changes = UpdateUserRequest()
        changes.email = "new@example.com"
        changes.emailVerified = false
        changes.disabled = true
        changes.displayName = .remove
        changes.photoURL = .set("https://example.com/p.png")
        changes.phoneNumber = .remove
        changes.providersToDelete = ["google.com"]
        changes.customClaims = ["role": "admin"]
        let user = try await harness.auth().updateUser(uid: "uid-1", changes)
        let request = harness.transport.requests.first
        expectAdminPOST(request, "/accounts:update")
        #expect(request?.json == [
            "localId": "uid-1", "email": "new@example.com", "emailVerified": false, "disableUser": true,
            "photoUrl": "https://example.com/p.png", "deleteAttribute": ["DISPLAY_NAME"],
            "deleteProvider": ["google.com", "phone"], "customAttributes": #"{"role":"admin"}"#,
        ])
        #expect(user.disabled)
    }

    @Test("updateUser links a provider and replaces or clears the second factors")
    func updateUserProvidersAndFactors() async throws {
        for _ in 0..<2 {
            harness.transport.enqueue("accounts:update", json: ["localId": "uid-1"])
            harness.transport.enqueue("accounts:lookup", json: Fixture.lookup())
        }
        var replace = UpdateUserRequest()
        replace.providerToLink = UserInfo(providerID: "google.com", uid: "g-9", email: "ada@gmail.com")
        replace.multiFactor = [
            MultiFactorInfo(phoneNumber: "+15555550101", uid: "enr-1", displayName: "work"),
            MultiFactorInfo(phoneNumber: "+15555550102", enrollmentTime: Date(timeIntervalSince1970: 1_800_000_000.5)),
        ]
        var clear = UpdateUserRequest()
        clear.multiFactor = []
        let auth = harness.auth()
        _ = try await auth.updateUser(uid: "uid-1", replace)
        _ = try await auth.updateUser(uid: "uid-1", clear)
        let updates = harness.transport.requests(to: "accounts:update")
        #expect(updates.first?.json == [
            "localId": "uid-1",
            "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-9", "email": "ada@gmail.com"],
            "mfa": [
                "enrollments": [
                    ["mfaEnrollmentId": "enr-1", "phoneInfo": "+15555550101", "displayName": "work"],
                    ["phoneInfo": "+15555550102", "enrolledAt": "2027-01-15T08:00:00.500Z"],
                ],
            ],
        ])
        #expect(updates.last?.json == ["localId": "uid-1", "mfa": [:]])
    }

    @Test("deleteUser posts accounts:delete with the uid")
    func deleteUser() async throws {
        harness.transport.enqueue("accounts:delete", json: ["kind": "identitytoolkit#DeleteAccountResponse"])
        try await harness.auth().deleteUser(uid: "uid-1")
        expectAdminPOST(harness.transport.requests.first, "/accounts:delete")
        #expect(harness.transport.requests.first?.json == ["localId": "uid-1"])
    }

    @Test("deleteUsers posts batchDelete with force and reports each failed row with its index")
    func deleteUsers() async throws {
        harness.transport.enqueue("accounts:batchDelete", json: [
            "errors": [["index": 1, "localId": "b", "message": "NOT_DISABLED : Disable the account before batch deletion."]],
        ])
        let result = try await harness.auth().deleteUsers(["a", "b", "c"])
        expectAdminPOST(harness.transport.requests.first, "/accounts:batchDelete")
        #expect(harness.transport.requests.first?.json == ["localIds": ["a", "b", "c"], "force": true])
        #expect(result.successCount == 2)
        #expect(result.failureCount == 1)
        #expect(result.errors.first?.index == 1)
        #expect(result.errors.first?.error.code == .userNotDisabled)
        #expect(result.errors.first?.error.serverCode == "NOT_DISABLED")
        #expect(result.errors.first?.error.message == "Disable the account before batch deletion.")
    }

    @Test("deleteUsers refuses more than 1,000 uids without sending")
    func deleteUsersLimit() async {
        let error = await adminError { try await harness.auth().deleteUsers((0...1000).map { "u\($0)" }) }
        #expect(error?.code == .maximumUserCountExceeded)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("setCustomUserClaims sends customAttributes as sorted JSON text; nil sends {}")
    func setCustomUserClaims() async throws {
        for _ in 0..<2 { harness.transport.enqueue("accounts:update", json: ["localId": "uid-1"]) }
        let auth = harness.auth()
        try await auth.setCustomUserClaims(uid: "uid-1", ["role": "admin", "level": 3, "teams": ["a", "b"]])
        try await auth.setCustomUserClaims(uid: "uid-1", nil)
        let requests = harness.transport.requests
        for request in requests { expectAdminPOST(request, "/accounts:update") }
        #expect(requests.map(\.json) == [
            ["localId": "uid-1", "customAttributes": #"{"level":3,"role":"admin","teams":["a","b"]}"#],
            ["localId": "uid-1", "customAttributes": "{}"],
        ])
    }

    @Test("setCustomUserClaims refuses reserved names and claims over 1,000 UTF-16 code units without sending")
    func claimRules() async {
        let auth = harness.auth()
        let forbidden = await adminError { try await auth.setCustomUserClaims(uid: "u", ["admin": true, "firebase": "x"]) }
        #expect(forbidden?.code == .forbiddenClaim)
        #expect(forbidden?.message.contains("firebase") == true)
        let large = await adminError {
            try await auth.setCustomUserClaims(uid: "u", ["blob": .string(String(repeating: "x", count: 990))])
        }
        #expect(large?.code == .claimsTooLarge)
        // 500 characters, but 1,000 UTF-16 code units (and the JSON around them): too large, as Hearth counts.
        let emoji = await adminError {
            try await auth.setCustomUserClaims(uid: "u", ["blob": .string(String(repeating: "😀", count: 500))])
        }
        #expect(emoji?.code == .claimsTooLarge)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("revokeRefreshTokens sends validSince as the current second, a JSON number")
    func revoke() async throws {
        harness.clock.advance(by: 0.75)
        harness.transport.enqueue("accounts:update", json: ["localId": "uid-1"])
        try await harness.auth().revokeRefreshTokens(uid: "uid-1")
        expectAdminPOST(harness.transport.requests.first, "/accounts:update")
        #expect(harness.transport.requests.first?.json == ["localId": "uid-1", "validSince": 1_800_000_000])
    }

    @Test("createSessionCookie posts idToken and validDuration in seconds to :createSessionCookie")
    func createSessionCookie() async throws {
        harness.transport.enqueue("demo-hearth:createSessionCookie", json: ["sessionCookie": "cookie.jwt.value"])
        let cookie = try await harness.auth().createSessionCookie(idToken: "id.token.x", expiresIn: 86_400)
        expectAdminPOST(harness.transport.requests.first, ":createSessionCookie")
        #expect(harness.transport.requests.first?.json == ["idToken": "id.token.x", "validDuration": 86_400])
        #expect(cookie == "cookie.jwt.value")
    }

    @Test("createSessionCookie refuses a lifetime under 5 minutes or over 14 days without sending", arguments: [299.0, 1_209_601])
    func sessionCookieDuration(seconds: Double) async {
        let error = await adminError { try await harness.auth().createSessionCookie(idToken: "t", expiresIn: seconds) }
        #expect(error?.code == .invalidSessionCookieDuration)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a uid that is empty or over 128 characters is refused before sending")
    func uidRules() async {
        let auth = harness.auth()
        #expect(await adminError { try await auth.getUser(uid: "") }?.code == .invalidUID)
        #expect(await adminError { try await auth.deleteUser(uid: String(repeating: "u", count: 129)) }?.code == .invalidUID)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("the server URL may end with a slash and the project ID is escaped in the path")
    func urlBuilding() async throws {
        let transport = FakeTransport()
        transport.enqueue("p x:createSessionCookie", json: ["sessionCookie": "c"])
        let auth = AdminAuth(
            serverURL: URL(string: "http://127.0.0.1:9099/")!, projectID: "p x", credential: .owner, transport: transport,
            jwksHTTP: harness.jwks)
        _ = try await auth.createSessionCookie(idToken: "t", expiresIn: 300)
        #expect(transport.requests.first?.url.absoluteString
            == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/projects/p%20x:createSessionCookie")
    }
}
