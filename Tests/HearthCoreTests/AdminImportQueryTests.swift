import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("AdminService: batchCreate and query")
struct AdminImportQueryTests {
    private func row(_ json: String) throws -> ImportedUser {
        try ImportedUser(fields: RequestFields(json: Array(json.utf8)))
    }

    @Test("batchCreate imports users with providers, claims, phone factors and metadata")
    func importUsers() throws {
        let test = try TestPlatform()
        let users = [
            try row(#"""
                {"localId":"imp-1","email":"One@Example.com","emailVerified":true,"displayName":"One",
                 "photoUrl":"https://example.com/1.png","phoneNumber":"+15555550101","customAttributes":"{\"role\":\"x\"}",
                 "createdAt":"1600000000000","lastLoginAt":1600000001000,
                 "providerUserInfo":[{"providerId":"google.com","rawId":"g-1","email":"one@gmail.com"},{"providerId":"password","rawId":"one@example.com"}],
                 "mfaInfo":[{"phoneInfo":"+15555550199","displayName":"Phone"}]}
                """#),
            try row(#"{"localId":"imp-2","disabled":true}"#),
        ]
        let result = try test.platform.admin.batchCreate(BatchCreateRequest(users: users), by: .system)
        #expect(result.error == [])
        let one = try #require(try test.store.read { try $0.account(localID: "imp-1") })
        #expect(one.email == "one@example.com" && one.emailVerified && one.displayName == "One")
        #expect(one.phoneNumber == "+15555550101" && one.customAttributes == #"{"role":"x"}"#)
        #expect(one.createdAtMillis == 1_600_000_000_000 && one.lastLoginAtMillis == 1_600_000_001_000)
        #expect(one.validSinceMillis == test.time.nowMillis)
        #expect(one.providers == [LinkedIdentity(providerID: "google.com", rawID: "g-1", email: "one@gmail.com")])
        #expect(one.mfaEnrollments.map(\.phoneNumber) == ["+15555550199"] && one.mfaEnrollments.first?.kind == .phone)
        let two = try #require(try test.store.read { try $0.account(localID: "imp-2") })
        #expect(two.disabled && two.createdAtMillis == test.time.nowMillis)
    }

    @Test("batchCreate reports bad rows by index with Firebase's messages and imports the rest")
    func rowErrors() throws {
        let test = try TestPlatform()
        _ = try test.platform.admin.create({
            var request = AdminCreateAccountRequest()
            request.localId = "existing"
            request.email = "taken@example.com"
            return request
        }(), by: .system)
        let rows = [
            #"{"email":"no-uid@example.com"}"#,
            #"{"localId":"existing"}"#,
            #"{"localId":"r2","email":"TAKEN@example.com"}"#,
            #"{"localId":"r3","customAttributes":"{\"sub\":1}"}"#,
            #"{"localId":"r4","customAttributes":"[]"}"#,
            #"{"localId":"r5","phoneNumber":"12"}"#,
            #"{"localId":"r6","email":"mfa@example.com","mfaInfo":[{"phoneInfo":"+15555550100"}]}"#,
            #"{"localId":"r7","passwordHash":"c2VjcmV0","salt":"c2FsdA=="}"#,
            #"{"localId":"r8","providerUserInfo":[{"providerId":"google.com"}]}"#,
            #"{"localId":"fine","email":"fine@example.com"}"#,
            #"{"localId":"r9","email":"fine@example.com"}"#,
        ]
        let result = try test.platform.admin.batchCreate(BatchCreateRequest(users: try rows.map(row)), by: .system)
        #expect(result.error == [
            .init(index: 0, message: "localId is missing"),
            .init(index: 1, message: "localId belongs to an existing account - can not overwrite."),
            .init(index: 2, message: "email exists in other account in database"),
            .init(index: 3, message: "Custom claims provided include a reserved claim."),
            .init(index: 4, message: "Invalid custom claims provided."),
            .init(index: 5, message: "phone number format is invalid"),
            .init(index: 6, message: "Second factor account requires email to be verified."),
            .init(index: 7, message: "hashAlgorithm is required to import a password hash"),
            .init(index: 8, message: "federatedId or (providerId & rawId) is required"),
            .init(index: 10, message: "email exists in other account in database"),
        ])
        #expect(try test.store.read { try $0.accountCount() } == 2)
        #expect(try test.store.read { try $0.account(localID: "fine") } != nil)
    }

    @Test("batchCreate: allowOverwrite replaces an account; a federated id of another account is refused")
    func overwriteAndIdentities() throws {
        let test = try TestPlatform()
        let google = try #require(try test.signIn(subject: "G-9").localId)
        let first = try test.platform.admin.batchCreate(BatchCreateRequest(users: [
            try row(#"{"localId":"ow","displayName":"Before"}"#),
            try row(#"{"localId":"steal","providerUserInfo":[{"providerId":"google.com","rawId":"G-9"}]}"#),
        ]), by: .system)
        #expect(first.error == [.init(index: 1, message: "raw id exists in other account in database")])
        #expect(try test.store.read { try $0.account(providerID: "google.com", rawID: "G-9") }?.localID == google)
        let overwritten = try test.platform.admin.batchCreate(
            BatchCreateRequest(users: [try row(#"{"localId":"ow","displayName":"After"}"#)], allowOverwrite: true), by: .system)
        #expect(overwritten.error == [])
        #expect(try test.store.read { try $0.account(localID: "ow") }?.displayName == "After")
    }

    @Test("batchCreate refuses whole requests: no users, more than 1,000, duplicate uids, and with sanityCheck duplicate emails or raw ids")
    func wholeRequestRefusals() throws {
        let test = try TestPlatform()
        let admin = test.platform.admin
        let adminCaller = Caller.system
        #expect(wireErrorCode { _ = try admin.batchCreate(BatchCreateRequest(users: []), by: adminCaller) } == .missingUserAccount)
        let many = (0...1000).map { ImportedUser(localId: "u\($0)") }
        #expect(wireErrorCode { _ = try admin.batchCreate(BatchCreateRequest(users: many), by: adminCaller) } == .invalidArgument)
        let sameUID = [ImportedUser(localId: "a"), ImportedUser(localId: "a")]
        #expect(wireErrorCode { _ = try admin.batchCreate(BatchCreateRequest(users: sameUID), by: adminCaller) } == .duplicateLocalID)
        let sameEmail = [try row(#"{"localId":"a","email":"x@example.com"}"#), try row(#"{"localId":"b","email":"X@example.com"}"#)]
        #expect(wireErrorCode { _ = try admin.batchCreate(BatchCreateRequest(users: sameEmail, sanityCheck: true), by: adminCaller) } == .duplicateEmail)
        let sameRaw = [
            try row(#"{"localId":"a","providerUserInfo":[{"providerId":"github.com","rawId":"1"}]}"#),
            try row(#"{"localId":"b","providerUserInfo":[{"providerId":"github.com","rawId":"1"}]}"#),
        ]
        #expect(wireErrorCode { _ = try admin.batchCreate(BatchCreateRequest(users: sameRaw, sanityCheck: true), by: adminCaller) } == .duplicateRawID)
        #expect(try test.store.read { try $0.accountCount() } == 0)
        // Without sanityCheck the second row sees the first one's identity and is reported instead.
        let unchecked = try admin.batchCreate(BatchCreateRequest(users: sameRaw), by: adminCaller)
        #expect(unchecked.error == [.init(index: 1, message: "raw id exists in other account in database")])
    }

    @Test("query: filters by uid, email and phone, sorts, pages with offset and limit, and counts")
    func query() throws {
        let test = try TestPlatform()
        let rows = [
            #"{"localId":"c","email":"carol@example.com","displayName":"Carol","createdAt":3000}"#,
            #"{"localId":"a","email":"alice@example.com","displayName":"Zed","createdAt":2000,"phoneNumber":"+15555550001"}"#,
            #"{"localId":"b","displayName":"Bob","createdAt":1000}"#,
        ]
        _ = try test.platform.admin.batchCreate(BatchCreateRequest(users: try rows.map(row)), by: .system)
        let admin = test.platform.admin
        let adminCaller = Caller.system
        #expect(try admin.query(QueryAccountsRequest()).userInfo?.map(\.localId) == ["a", "b", "c"])
        #expect(try admin.query(QueryAccountsRequest(order: "DESC")).userInfo?.map(\.localId) == ["c", "b", "a"])
        #expect(try admin.query(QueryAccountsRequest(sortBy: "NAME")).userInfo?.map(\.localId) == ["b", "c", "a"])
        #expect(try admin.query(QueryAccountsRequest(sortBy: "CREATED_AT", order: "DESC")).userInfo?.map(\.localId) == ["c", "a", "b"])
        #expect(try admin.query(QueryAccountsRequest(sortBy: "USER_EMAIL")).userInfo?.map(\.localId) == ["b", "a", "c"])
        let page = try admin.query(QueryAccountsRequest(limit: 1, offset: 1))
        #expect(page.recordsCount == "3" && page.userInfo?.map(\.localId) == ["b"])
        #expect(try admin.query(QueryAccountsRequest(offset: 9)).userInfo == [])
        let count = try admin.query(QueryAccountsRequest(returnUserInfo: false))
        #expect(count == QueryAccountsResponse(recordsCount: 3, userInfo: nil))
        let filtered = try admin.query(QueryAccountsRequest(expression: [
            .init(email: "CAROL@example.com"), .init(phoneNumber: "+15555550001"), .init(userId: "c"),
            .init(userId: "b", email: "carol@example.com"), .init(userId: "nobody"),
        ]))
        #expect(filtered.recordsCount == "2" && filtered.userInfo?.map(\.localId) == ["a", "c"])
        let filteredCount = try admin.query(QueryAccountsRequest(returnUserInfo: false, expression: [.init(userId: "a")]))
        #expect(filteredCount == QueryAccountsResponse(recordsCount: 1, userInfo: nil))
    }

    @Test("query lists every account, beyond one store page")
    func queryReadsEveryPage() throws {
        let test = try TestPlatform()
        try test.store.write { writer in
            for index in 0..<2_100 {
                try writer.insertAccount(Account(localID: String(format: "q%05d", index), createdAtMillis: 1, validSinceMillis: 0))
            }
        }
        let last = try test.platform.admin.query(QueryAccountsRequest(limit: 500, offset: 2_000))
        #expect(last.recordsCount == "2100")
        #expect(last.userInfo?.first?.localId == "q02000" && last.userInfo?.count == 100)
    }

    @Test("query refuses limits outside 1 to 500, a negative offset and empty expressions")
    func queryRefusals() throws {
        let test = try TestPlatform()
        let admin = test.platform.admin
        let adminCaller = Caller.system
        for request in [
            QueryAccountsRequest(limit: 0), QueryAccountsRequest(limit: 501), QueryAccountsRequest(offset: -1),
            QueryAccountsRequest(expression: [.init()]),
        ] {
            #expect(wireErrorCode { _ = try admin.query(request) } == .invalidArgument)
        }
    }
}
