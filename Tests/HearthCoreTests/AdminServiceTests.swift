import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("AdminService: create, lookup, delete, batchDelete, batchGet")
struct AdminServiceTests {
    private func create(_ test: TestPlatform, _ configure: (inout AdminCreateAccountRequest) -> Void) throws
        -> AdminCreateAccountResponse
    {
        var request = AdminCreateAccountRequest()
        configure(&request)
        return try test.platform.admin.create(request, by: .system)
    }

    @Test("create stores every field and lookup answers it in Firebase's formats")
    func createAndLookUp() throws {
        let test = try TestPlatform()
        let created = try create(test) {
            $0.localId = "admin-made"
            $0.email = "Ada@Example.com"
            $0.phoneNumber = "+15555550100"
            $0.displayName = "Ada"
            $0.photoUrl = "https://example.com/ada.png"
            $0.emailVerified = true
            $0.disabled = true
            $0.customAttributes = #"{"role":"admin"}"#
        }
        #expect(created == AdminCreateAccountResponse(localId: "admin-made", email: "ada@example.com", displayName: "Ada"))
        let users = try #require(try test.platform.admin.lookup(AdminLookupRequest(localId: ["admin-made"])).users)
        let user = try #require(users.first)
        #expect(users.count == 1)
        #expect(user.email == "ada@example.com" && user.emailVerified == true && user.disabled == true)
        #expect(user.phoneNumber == "+15555550100" && user.displayName == "Ada")
        #expect(user.photoUrl == "https://example.com/ada.png")
        #expect(user.customAttributes == #"{"role":"admin"}"#)
        #expect(user.createdAt == String(test.time.nowMillis))
        #expect(user.validSince == String(test.time.nowSeconds))
        #expect(user.lastLoginAt == nil && user.passwordHash == nil)
        #expect(user.providerUserInfo?.map(\.providerId) == ["phone"])
    }

    @Test("create without a uid generates one; each created account is distinct")
    func generatedUID() throws {
        let test = try TestPlatform()
        let first = try create(test) { _ in }
        let second = try create(test) { _ in }
        #expect(first.localId.count == 28 && second.localId.count == 28 && first.localId != second.localId)
    }

    @Test("create refuses a weak password, a taken uid, email or phone number, and bad values, and stores nothing")
    func createRefusals() throws {
        let test = try TestPlatform()
        _ = try create(test) {
            $0.localId = "taken"
            $0.email = "taken@example.com"
            $0.phoneNumber = "+15555550100"
        }
        let cases: [(ErrorCode, (inout AdminCreateAccountRequest) -> Void)] = [
            (.weakPassword, {
                $0.email = "weak@example.com"
                $0.password = "short"
            }),
            (.duplicateLocalID, { $0.localId = "taken" }),
            (.emailExists, { $0.email = "TAKEN@example.com" }),
            (.phoneNumberExists, { $0.phoneNumber = "+15555550100" }),
            (.invalidEmail, { $0.email = "not-an-email" }),
            (.invalidEmail, { $0.email = "a@b@c" }),
            (.invalidPhoneNumber, { $0.phoneNumber = "5555550100" }),
            (.invalidArgument, { $0.localId = String(repeating: "x", count: 129) }),
            (.invalidArgument, { $0.localId = "" }),
            (.invalidDisplayName, { $0.displayName = String(repeating: "n", count: 257) }),
            (.invalidPhotoURL, { $0.photoUrl = "not a url" }),
            (.forbiddenClaim, { $0.customAttributes = #"{"sub":"someone-else"}"# }),
        ]
        for (code, configure) in cases {
            #expect(wireErrorCode { _ = try create(test, configure) } == code)
        }
        #expect(try test.store.read { try $0.accountCount() } == 1)
    }

    @Test("custom claims: reserved names, more than 1,000 characters and non-objects are refused; {} clears")
    func customClaimRules() throws {
        let test = try TestPlatform()
        _ = try create(test) { $0.localId = "u" }
        func update(_ claims: String) -> ErrorCode? {
            wireErrorCode {
                var request = AdminUpdateAccountRequest(localId: "u")
                request.customAttributes = claims
                _ = try test.platform.admin.update(request, by: .system)
            }
        }
        for reserved in ["iss", "aud", "firebase", "auth_time", "nonce", "c_hash"] {
            #expect(update(#"{"\#(reserved)":1}"#) == .forbiddenClaim)
        }
        let large = #"{"k":""# + String(repeating: "x", count: 993) + #""}"#
        #expect(large.count == 1001)
        #expect(update(large) == .claimsTooLarge)
        #expect(update(String(large.dropLast(3)) + #""}"#) == nil)
        for notObject in ["[]", #""admin""#, "42", "null", "{", ""] {
            #expect(update(notObject) == .invalidClaims)
        }
        #expect(update(#"{"role":"admin"}"#) == nil)
        #expect(try test.store.read { try $0.account(localID: "u") }?.customAttributes == #"{"role":"admin"}"#)
        #expect(update("{}") == nil)
        #expect(try test.store.read { try $0.account(localID: "u") }?.customAttributes == nil)
    }

    @Test("lookup combines every kind of identifier, answers each account once, in request order")
    func lookupCombined() throws {
        let test = try TestPlatform()
        let google = try test.signIn(subject: "G-1", email: "g@example.com")
        _ = try create(test) {
            $0.localId = "by-phone"
            $0.phoneNumber = "+15555550111"
        }
        _ = try create(test) {
            $0.localId = "by-email"
            $0.email = "e@example.com"
        }
        let request = AdminLookupRequest(
            localId: ["by-email", "missing"], email: ["E@EXAMPLE.COM", "nobody@example.com"],
            phoneNumber: ["+15555550111"],
            federatedUserId: [FederatedUserID(providerId: "google.com", rawId: "G-1")])
        let users = try #require(try test.platform.admin.lookup(request).users)
        #expect(users.map(\.localId) == ["by-email", "by-phone", google.localId])
        #expect(users[2].providerUserInfo?.first?.rawId == "G-1")
        #expect(try test.platform.admin.lookup(AdminLookupRequest(localId: ["missing"])).users == nil)
    }

    @Test("lookup: federated entries without a provider or raw id are skipped; initialEmail is 501; at most 1,000")
    func lookupEdges() throws {
        let test = try TestPlatform()
        let fields = try RequestFields(json: Array(#"{"federatedUserId":[{"providerId":"google.com"},{"rawId":"x"}]}"#.utf8))
        #expect(try test.platform.admin.lookup(AdminLookupRequest(fields: fields)).users == nil)
        let initial = try RequestFields(json: Array(#"{"initialEmail":["a@example.com"]}"#.utf8))
        #expect(wireErrorCode { _ = try test.platform.admin.lookup(AdminLookupRequest(fields: initial)) } == .notImplemented)
        let many = AdminLookupRequest(localId: (0...1000).map { "u\($0)" })
        #expect(wireErrorCode { _ = try test.platform.admin.lookup(many) } == .invalidArgument)
    }

    @Test("delete removes the account; its refresh tokens then answer USER_NOT_FOUND")
    func delete() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "D-1")
        let fields = RequestFields(["localId": .string(signedIn.localId ?? "")])
        #expect(try test.platform.admin.delete(AdminDeleteAccountRequest(fields: fields), by: .system).kind == "identitytoolkit#DeleteAccountResponse")
        #expect(try test.store.read { try $0.account(localID: signedIn.localId ?? "") } == nil)
        #expect(wireErrorCode { _ = try test.tokens.refresh(RefreshTokenRequest(refreshToken: signedIn.refreshToken), by: .user(client: nil)) } == .userNotFound)
        #expect(wireErrorCode { _ = try test.platform.admin.delete(AdminDeleteAccountRequest(fields: fields), by: .system) } == .userNotFound)
        #expect(wireErrorCode { _ = try test.platform.admin.delete(AdminDeleteAccountRequest(fields: RequestFields()), by: .system) } == .missingLocalID)
    }

    @Test("batchDelete without force keeps enabled accounts and reports them; force deletes them; unknown ids are skipped")
    func batchDelete() throws {
        let test = try TestPlatform()
        _ = try create(test) { $0.localId = "enabled" }
        _ = try create(test) {
            $0.localId = "disabled"
            $0.disabled = true
        }
        let unforced = try test.platform.admin.batchDelete(
            BatchDeleteRequest(localIds: ["unknown", "enabled", "disabled"], force: false), by: .system)
        #expect(unforced.errors == [.init(index: 1, localId: "enabled", message: "NOT_DISABLED : Disable the account before batch deletion.")])
        try test.store.read { reader throws in
            #expect(try reader.account(localID: "enabled") != nil)
            #expect(try reader.account(localID: "disabled") == nil)
        }
        let forced = try test.platform.admin.batchDelete(BatchDeleteRequest(localIds: ["enabled"], force: true), by: .system)
        #expect(forced.errors == nil)
        #expect(try test.store.read { try $0.accountCount() } == 0)
    }

    @Test("batchDelete takes 1 to 1,000 ids")
    func batchDeleteLimits() throws {
        let test = try TestPlatform()
        for ids in [[], (0...1000).map { "u\($0)" }] {
            #expect(wireErrorCode { _ = try test.platform.admin.batchDelete(BatchDeleteRequest(localIds: ids, force: true), by: .system) } == .localIDListExceedsLimit)
        }
    }

    @Test("batchGet pages through every account by uid; the last page has no token")
    func batchGetPaging() throws {
        let test = try TestPlatform()
        let ids = (0..<45).map { String(format: "user-%02d", $0) }
        try test.store.write { writer in
            for id in ids.shuffled() { try writer.insertAccount(Account(localID: id, createdAtMillis: 1, validSinceMillis: 0)) }
        }
        var listed: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try test.platform.admin.batchGet(BatchGetRequest(maxResults: 20, nextPageToken: token))
            listed += page.users.map(\.localId)
            token = page.nextPageToken
            pages += 1
            if let token { #expect(!ids.contains(token)) }
        } while token != nil
        #expect(listed == ids)
        #expect(pages == 3)
        let exact = try test.platform.admin.batchGet(BatchGetRequest(maxResults: 45))
        #expect(exact.users.count == 45 && exact.nextPageToken == nil)
        #expect(try test.platform.admin.batchGet(BatchGetRequest()).users.count == AdminService.defaultPageSize)
        #expect(try test.platform.admin.batchGet(BatchGetRequest(maxResults: 5000)).users.count == 45)
    }

    @Test("batchGet: accounts added between pages do not shift the next one")
    func batchGetStable() throws {
        let test = try TestPlatform()
        try test.store.write { writer in
            for id in ["b", "d", "f"] { try writer.insertAccount(Account(localID: id, createdAtMillis: 1, validSinceMillis: 0)) }
        }
        let first = try test.platform.admin.batchGet(BatchGetRequest(maxResults: 2))
        #expect(first.users.map(\.localId) == ["b", "d"])
        try test.store.write { writer in
            for id in ["a", "c"] { try writer.insertAccount(Account(localID: id, createdAtMillis: 1, validSinceMillis: 0)) }
        }
        let second = try test.platform.admin.batchGet(BatchGetRequest(maxResults: 2, nextPageToken: first.nextPageToken))
        #expect(second.users.map(\.localId) == ["f"])
        #expect(second.nextPageToken == nil)
    }

    @Test("batchGet refuses maxResults below 1 and page tokens it never issued")
    func batchGetRefusals() throws {
        let test = try TestPlatform()
        for maxResults: Int64 in [0, -1] {
            #expect(wireErrorCode { _ = try test.platform.admin.batchGet(BatchGetRequest(maxResults: maxResults)) } == .invalidArgument)
        }
        for token in ["!!!", "_w", String(repeating: "QUFB", count: 60)] {
            #expect(wireErrorCode { _ = try test.platform.admin.batchGet(BatchGetRequest(nextPageToken: token)) } == .invalidPageSelection)
        }
    }
}
