import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

/// Who reaches the admin routes, and how their bad input is answered.
@Suite("Admin routes at the request edge")
struct AdminEdgeTests {
    static let base = "/identitytoolkit.googleapis.com/v1/projects/demo-hearth"
    static let owner: HTTPHeaders = ["Authorization": "Bearer owner"]

    /// Recognizes tokens starting `sa.`: `sa.good` is a service account, any other such token is refused.
    struct ServiceAccountStandIn: AdminTokenVerifier {
        func caller(bearerToken token: String) throws -> AdminCaller? {
            guard token.hasPrefix("sa.") else { return nil }
            guard token == "sa.good" else { throw WireError(.unauthenticated, "The admin access token has expired.") }
            return .serviceAccount(email: "robot@demo-hearth.iam.example")
        }
    }

    @Test("without a bearer token an admin route answers 401 UNAUTHENTICATED, an API key notwithstanding")
    func missingCredential() throws {
        let fixture = try ServerFixture()
        for headers: HTTPHeaders in [[:], ["x-goog-api-key": "k"], ["Authorization": "Bearer "], ["Authorization": "Basic b3duZXI6"]] {
            let response = fixture.postJSON("\(Self.base)/accounts:lookup?key=k", #"{"localId":["a"]}"#, headers: headers)
            #expect(response.status == 401)
            #expect(response.error["status"] as? String == "UNAUTHENTICATED")
            #expect((response.error["message"] as? String)?.hasPrefix("Request is missing required authentication credential.") == true)
        }
        let list = fixture.call(.get, "\(Self.base)/accounts:batchGet?key=k&maxResults=10")
        #expect(list.status == 401)
    }

    @Test("a bearer token no verifier recognizes answers 401 with the emulator's invalid-credentials message")
    func unrecognizedCredential() throws {
        let fixture = try ServerFixture()
        for token in ["owner2", "ya29.something", "eyJhbGciOiJub25lIn0.e30."] {
            let response = fixture.postJSON(Self.base + "/accounts", "{}", headers: ["Authorization": "Bearer \(token)"])
            #expect(response.status == 401)
            #expect((response.error["message"] as? String)?.hasPrefix("Request had invalid authentication credentials.") == true)
        }
        #expect(try fixture.platform.store.read { try $0.accountCount() } == 0)
    }

    @Test("Bearer owner is accepted in development in any case; the scheme too")
    func ownerInDevelopment() throws {
        let fixture = try ServerFixture()
        for header in ["Bearer owner", "bearer OWNER", "BEARER Owner"] {
            let response = fixture.postJSON(Self.base + "/accounts", "{}", headers: ["Authorization": header])
            #expect(response.status == 200)
            #expect((response.json["localId"] as? String)?.count == 28)
        }
    }

    @Test("without configured verifiers (production today) Bearer owner is refused")
    func ownerRefusedOutsideDevelopment() throws {
        let fixture = try ServerFixture(development: false)
        let response = fixture.postJSON(Self.base + "/accounts", "{}", headers: Self.owner)
        #expect(response.status == 401)
        #expect(try fixture.platform.store.read { try $0.accountCount() } == 0)
    }

    @Test("each configured verifier is asked in turn; a verifier's refusal of its own kind of token is answered")
    func verifierList() throws {
        let fixture = try ServerFixture(development: false, adminVerifiers: [ServiceAccountStandIn(), DevelopmentOwnerVerifier()])
        #expect(fixture.postJSON(Self.base + "/accounts", "{}", headers: ["Authorization": "Bearer sa.good"]).status == 200)
        #expect(fixture.postJSON(Self.base + "/accounts", "{}", headers: Self.owner).status == 200)
        let refused = fixture.postJSON(Self.base + "/accounts", "{}", headers: ["Authorization": "Bearer sa.expired"])
        #expect(refused.status == 401)
        #expect(refused.error["message"] as? String == "The admin access token has expired.")
        #expect(try fixture.platform.store.read { try $0.accountCount() } == 2)
    }

    @Test("another project's path is refused after authorization; tenants are refused")
    func projectAndTenant() throws {
        let fixture = try ServerFixture()
        let other = fixture.postJSON(
            "/identitytoolkit.googleapis.com/v1/projects/other-project/accounts", "{}", headers: Self.owner)
        #expect(other.status == 400)
        #expect((other.error["message"] as? String)?.hasPrefix("PROJECT_NOT_FOUND : Requested project ID other-project") == true)
        let unauthenticated = fixture.postJSON("/identitytoolkit.googleapis.com/v1/projects/other-project/accounts", "{}")
        #expect(unauthenticated.status == 401, "no project detail before the caller is known")
        let tenantPath = fixture.postJSON(Self.base + "/tenants/t1/accounts:lookup", #"{"localId":["a"]}"#, headers: Self.owner)
        #expect((tenantPath.error["message"] as? String)?.hasPrefix("TENANT_NOT_FOUND") == true)
        let tenantField = fixture.postJSON(Self.base + "/accounts", #"{"tenantId":"t1"}"#, headers: Self.owner)
        #expect((tenantField.error["message"] as? String)?.hasPrefix("TENANT_NOT_FOUND") == true)
        #expect(try fixture.platform.store.read { try $0.accountCount() } == 0)
    }

    @Test("the client endpoints still need an API key: Bearer owner alone does not reach them")
    func clientRoutesNeedKey() throws {
        let fixture = try ServerFixture()
        let response = fixture.postJSON("/identitytoolkit.googleapis.com/v1/accounts:lookup", #"{"idToken":"x"}"#, headers: Self.owner)
        #expect(response.status == 403)
    }

    @Test("bad input on every admin route is a 400 in the envelope, never a 500")
    func badInput() throws {
        let fixture = try ServerFixture()
        let bodies: [String: [String]] = [
            "accounts": [
                "not json", "[]", #"{"localId":{"a":1}}"#, #"{"email":["a@example.com"]}"#, #"{"disabled":"maybe"}"#,
                #"{"customAttributes":{"admin":true}}"#, #"{"emailVerified":1}"#,
            ],
            "accounts:lookup": [
                "not json", #"{"localId":{"a":1}}"#, #"{"federatedUserId":["google.com"]}"#, #"{"phoneNumber":[1.5]}"#,
            ],
            "accounts:update": [
                "not json", "{}", #"{"localId":"a","validSince":"soon"}"#, #"{"localId":"a","deleteAttribute":["NOPE"]}"#,
                #"{"localId":"a","mfa":{"enrollments":[1]}}"#, #"{"localId":"a","linkProviderUserInfo":"x"}"#,
                #"{"localId":"a","disableUser":"maybe"}"#,
            ],
            "accounts:delete": ["not json", "{}", #"{"localId":["a"]}"#],
            "accounts:batchDelete": ["not json", "{}", #"{"localIds":"x","force":"yes"}"#, #"{"localIds":[{"a":1}]}"#],
            "accounts:query": [
                "not json", #"{"limit":0}"#, #"{"limit":501}"#, #"{"offset":-1}"#, #"{"sortBy":"NOPE"}"#,
                #"{"order":7}"#, #"{"expression":[{}]}"#, #"{"expression":"x"}"#, #"{"returnUserInfo":"no"}"#,
            ],
            "accounts:batchCreate": [
                "not json", "{}", #"{"users":[]}"#, #"{"users":[1]}"#, #"{"users":[{"localId":"a"}],"allowOverwrite":"x"}"#,
                #"{"users":[{"localId":"a","createdAt":"yesterday"}]}"#, #"{"users":[{"localId":"a"},{"localId":"a"}]}"#,
            ],
        ]
        for (name, cases) in bodies {
            for body in cases {
                let response = fixture.postJSON("\(Self.base)/\(name)", body, headers: Self.owner)
                #expect(response.status == 400, "\(name) \(body): \(response.text)")
                #expect(response.error["message"] is String)
            }
        }
        #expect(try fixture.platform.store.read { try $0.accountCount() } == 0)
        for query in ["maxResults=abc", "maxResults=0", "maxResults=-1", "nextPageToken=%FF%FE", "nextPageToken=!!"] {
            let response = fixture.call(.get, "\(Self.base)/accounts:batchGet?\(query)", headers: Self.owner)
            #expect(response.status == 400, "\(query): \(response.text)")
        }
    }

    @Test("every admin route refuses a caller without credentials")
    func everyRouteNeedsCredentials() throws {
        let fixture = try ServerFixture()
        let names = ["accounts", "accounts:lookup", "accounts:update", "accounts:delete", "accounts:batchDelete", "accounts:query", "accounts:batchCreate"]
        for name in names {
            #expect(fixture.postJSON("\(Self.base)/\(name)?key=k", "{}").status == 401, "\(name)")
        }
    }
}
