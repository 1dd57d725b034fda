import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("AdminService: update")
struct AdminUpdateTests {
    private func update(_ test: TestPlatform, _ localID: String?, _ configure: (inout AdminUpdateAccountRequest) -> Void)
        throws -> UpdateAccountResponse
    {
        var request = AdminUpdateAccountRequest(localId: localID)
        configure(&request)
        return try test.platform.admin.update(request, by: .system)
    }

    private func refresh(_ test: TestPlatform, _ refreshToken: String?) throws -> RefreshTokenResponse {
        try test.tokens.refresh(RefreshTokenRequest(refreshToken: refreshToken), by: .user(client: nil))
    }

    @Test("custom claims appear in the ID token of the next refresh, under the reserved ones")
    func claimsReachTokens() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "C-1", email: "c@example.com")
        let localID = try #require(signedIn.localId)
        _ = try update(test, localID) { $0.customAttributes = #"{"admin":true,"email":"forged@example.com"}"# }
        let claims = try test.claims(of: try refresh(test, signedIn.refreshToken).idToken)
        #expect(claims["admin"] == .bool(true))
        #expect(claims["email"] == "c@example.com")
    }

    @Test("disableUser stops refreshes with USER_DISABLED; enabling again lets them through")
    func disable() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "D-1")
        let localID = try #require(signedIn.localId)
        _ = try update(test, localID) { $0.disableUser = true }
        #expect(wireErrorCode { _ = try refresh(test, signedIn.refreshToken) } == .userDisabled)
        _ = try update(test, localID) { $0.disableUser = false }
        #expect(try refresh(test, signedIn.refreshToken).userId == localID)
    }

    @Test("validSince revokes the sessions that exist (refresh answers TOKEN_EXPIRED); new sign-ins work")
    func validSinceRevokes() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "R-1")
        let localID = try #require(signedIn.localId)
        test.time.advance(by: 1)
        _ = try update(test, localID) { $0.validSince = test.time.nowSeconds }
        #expect(wireErrorCode { _ = try refresh(test, signedIn.refreshToken) } == .tokenExpired)
        test.time.advance(by: 1)
        let again = try test.signIn(subject: "R-1")
        #expect(try refresh(test, again.refreshToken).userId == localID)
    }

    @Test("validSince never moves back: a past value still revokes, and does not restore revoked sessions")
    func validSinceNeverMovesBack() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "R-2")
        let localID = try #require(signedIn.localId)
        test.time.advance(by: 10)
        _ = try update(test, localID) { $0.validSince = 0 }
        #expect(wireErrorCode { _ = try refresh(test, signedIn.refreshToken) } == .tokenExpired)
        let revokedAt = try #require(try test.store.read { try $0.account(localID: localID) }).validSinceMillis
        #expect(revokedAt == test.time.nowMillis)
        _ = try update(test, localID) { $0.validSince = Int64.min }
        #expect(try test.store.read { try $0.account(localID: localID) }?.validSinceMillis == revokedAt)
    }

    @Test("a new email must be free, is stored unverified and revokes sessions; emailVerified can then be set")
    func changeEmail() throws {
        let test = try TestPlatform()
        let signedIn = try test.signIn(subject: "E-1", email: "old@example.com")
        let localID = try #require(signedIn.localId)
        _ = try test.signIn(subject: "E-2", email: "other@example.com")
        #expect(wireErrorCode { _ = try update(test, localID) { $0.email = "OTHER@example.com" } } == .emailExists)
        test.time.advance(by: 1)
        let changed = try update(test, localID) { $0.email = "New@Example.com" }
        #expect(changed.email == "new@example.com" && changed.emailVerified == false)
        #expect(wireErrorCode { _ = try refresh(test, signedIn.refreshToken) } == .tokenExpired)
        #expect(try update(test, localID) { $0.emailVerified = true }.emailVerified == true)
        #expect(wireErrorCode { _ = try update(test, localID) { $0.email = "bad" } } == .invalidEmail)
    }

    @Test("phone number: set, unique, removed with deleteProvider phone")
    func phoneNumber() throws {
        let test = try TestPlatform()
        let first = try #require(try test.signIn(subject: "P-1").localId)
        let second = try #require(try test.signIn(subject: "P-2").localId)
        let set = try update(test, first) { $0.phoneNumber = "+15555550123" }
        #expect(set.providerUserInfo?.contains { $0.providerId == "phone" && $0.rawId == "+15555550123" } == true)
        #expect(wireErrorCode { _ = try update(test, second) { $0.phoneNumber = "+15555550123" } } == .phoneNumberExists)
        #expect(wireErrorCode { _ = try update(test, second) { $0.phoneNumber = "555" } } == .invalidPhoneNumber)
        _ = try update(test, first) { $0.phoneNumber = "+15555550123" }
        _ = try update(test, first) { $0.deleteProvider = ["phone"] }
        #expect(try test.store.read { try $0.account(localID: first) }?.phoneNumber == nil)
        _ = try update(test, second) { $0.phoneNumber = "+15555550123" }
    }

    @Test("profile fields, deleteAttribute and deleteProvider as the client update applies them")
    func profile() throws {
        let test = try TestPlatform()
        let localID = try #require(try test.signIn(subject: "F-1", email: "f@example.com").localId)
        let named = try update(test, localID) {
            $0.displayName = "New Name"
            $0.photoUrl = "https://example.com/new.png"
        }
        #expect(named.displayName == "New Name" && named.photoUrl == "https://example.com/new.png")
        let cleared = try update(test, localID) {
            $0.deleteAttribute = ["DISPLAY_NAME", "PHOTO_URL"]
            $0.deleteProvider = ["google.com"]
        }
        #expect(cleared.displayName == nil && cleared.photoUrl == nil)
        #expect(cleared.providerUserInfo == [])
        #expect(wireErrorCode { _ = try update(test, localID) { $0.deleteAttribute = ["PROVIDER"] } } == .operationNotAllowed)
    }

    @Test("linkProviderUserInfo links an identity no other account has")
    func linkProvider() throws {
        let test = try TestPlatform()
        let owner = try #require(try test.signIn(subject: "L-1").localId)
        let other = try #require(try test.signIn(subject: "L-2").localId)
        func link(_ localID: String, _ fields: [String: JSONValue]) -> ErrorCode? {
            wireErrorCode {
                _ = try update(test, localID) { $0.linkProviderUserInfo = try? AdminLinkedProvider(fields: RequestFields(fields)) }
            }
        }
        #expect(link(other, ["providerId": "google.com", "rawId": "L-1"]) == .federatedUserIDAlreadyLinked)
        #expect(link(other, ["rawId": "x"]) == .missingProviderID)
        #expect(link(other, ["providerId": "github.com"]) == .missingRawID)
        #expect(link(other, ["providerId": "phone", "rawId": "+15555550100"]) == .invalidArgument)
        #expect(link(other, ["providerId": "github.com", "rawId": "42", "email": "Gh@Example.com"]) == nil)
        let linked = try #require(try test.store.read { try $0.account(providerID: "github.com", rawID: "42") })
        #expect(linked.localID == other && linked.identity(for: "github.com")?.email == "gh@example.com")
        #expect(link(owner, ["providerId": "github.com", "rawId": "42"]) == .federatedUserIDAlreadyLinked)
        #expect(link(other, ["providerId": "github.com", "rawId": "43"]) == nil)
        #expect(try test.store.read { try $0.account(localID: other) }?.providers.filter { $0.providerID == "github.com" }.map(\.rawID) == ["43"])
    }

    @Test("mfa.enrollments replaces phone factors, keeps named existing ones, and an empty list clears all")
    func mfaEnrollments() throws {
        let test = try TestPlatform()
        let localID = try #require(try test.signIn(subject: "M-1").localId)
        try test.store.write { writer in
            var account = try #require(try writer.account(localID: localID))
            account.mfaEnrollments = [
                MFAEnrollment(enrollmentID: "totp-1", kind: .totp, enrolledAtMillis: 1, totpSecret: Array(repeating: 7, count: 20)),
                MFAEnrollment(enrollmentID: "phone-1", kind: .phone, displayName: "Work", enrolledAtMillis: 2, phoneNumber: "+15555550001"),
            ]
            try writer.updateAccount(account)
        }
        _ = try update(test, localID) {
            $0.mfaEnrollments = [
                AdminMFAEnrollment(mfaEnrollmentId: "totp-1", displayName: "Authenticator", phoneInfo: nil),
                AdminMFAEnrollment(mfaEnrollmentId: "phone-1", phoneInfo: "+15555550002"),
                AdminMFAEnrollment(phoneInfo: "+15555550003"),
                AdminMFAEnrollment(phoneInfo: "+15555550003"),
            ]
        }
        let factors = try #require(try test.store.read { try $0.account(localID: localID) }).mfaEnrollments
        #expect(factors.count == 3)
        #expect(factors[0].enrollmentID == "totp-1" && factors[0].totpSecret != nil && factors[0].displayName == "Authenticator")
        #expect(factors[1].enrollmentID == "phone-1" && factors[1].phoneNumber == "+15555550002" && factors[1].displayName == "Work")
        #expect(factors[2].phoneNumber == "+15555550003" && factors[2].enrolledAtMillis == test.time.nowMillis)
        #expect(wireErrorCode { _ = try update(test, localID) { $0.mfaEnrollments = [AdminMFAEnrollment(phoneInfo: "12")] } } == .invalidMFAPhoneNumber)
        let six = (0..<6).map { AdminMFAEnrollment(phoneInfo: "+1555555001\($0)") }
        #expect(wireErrorCode { _ = try update(test, localID) { $0.mfaEnrollments = six } } == .secondFactorLimitExceeded)
        _ = try update(test, localID) { $0.mfaEnrollments = [] }
        #expect(try test.store.read { try $0.account(localID: localID) }?.mfaEnrollments == [])
    }

    @Test("update needs a localId of an existing account and refuses weak passwords, changing nothing")
    func refusals() throws {
        let test = try TestPlatform()
        let localID = try #require(try test.signIn(subject: "X-1").localId)
        let before = try test.store.read { try $0.account(localID: localID) }
        #expect(wireErrorCode { _ = try update(test, nil) { $0.disableUser = true } } == .missingLocalID)
        #expect(wireErrorCode { _ = try update(test, "") { $0.disableUser = true } } == .missingLocalID)
        #expect(wireErrorCode { _ = try update(test, "nobody") { $0.disableUser = true } } == .userNotFound)
        #expect(wireErrorCode {
            _ = try update(test, localID) {
                $0.disableUser = true
                $0.password = "short"
            }
        } == .weakPassword)
        #expect(wireErrorCode {
            _ = try update(test, localID) {
                $0.disableUser = true
                $0.customAttributes = #"{"exp":1}"#
            }
        } == .forbiddenClaim)
        #expect(try test.store.read { try $0.account(localID: localID) } == before)
    }
}
