import Foundation
import HearthCore
import HearthProtocol
import Testing

/// The services of a tenant (`IdentityPlatform.scoped(to:)`): `firebase.tenant` in its tokens, the tenant check of
/// ID tokens and custom tokens, and the scope marker of refresh tokens.
@Suite("Tokens in a tenant's scope")
struct TenantScopeTokenTests {
    /// The project's test platform, the services of tenants `tenant-a` and `tenant-b`.
    private func platforms() throws -> (test: TestPlatform, a: IdentityPlatform, b: IdentityPlatform) {
        let test = try TestPlatform()
        try test.store.write { writer in
            for id in ["tenant-a", "tenant-b"] {
                try writer.insertTenant(Tenant(id: id, createdAtMillis: 0, updatedAtMillis: 0))
            }
        }
        return (test, test.platform.scoped(to: try .tenant("tenant-a")), test.platform.scoped(to: try .tenant("tenant-b")))
    }

    private func signIn(_ test: TestPlatform, _ platform: IdentityPlatform, subject: String) throws
        -> (idToken: String, refreshToken: String, localID: String)
    {
        let answer = try platform.accounts.signInWithIdp(
            test.signInRequest(idToken: test.google.idToken(subject: subject, email: "same@example.com")),
            by: .user(client: nil))
        return (try #require(answer.idToken), try #require(answer.refreshToken), try #require(answer.localId))
    }

    private func refresh(_ platform: IdentityPlatform, _ token: String) throws -> RefreshTokenResponse {
        try platform.tokens.refresh(RefreshTokenRequest(refreshToken: token), by: .user(client: nil))
    }

    @Test("a tenant's ID tokens and cookies name it; each scope refuses another's ID token with TENANT_ID_MISMATCH")
    func tenantClaim() throws {
        let (test, a, b) = try platforms()
        #expect(a.tenantID == "tenant-a" && test.platform.tenantID == nil)
        #expect(test.platform.scoped(to: .project) === test.platform)
        let project = try signIn(test, test.platform, subject: "p")
        let inA = try signIn(test, a, subject: "a")
        #expect(inA.localID != project.localID, "one identity, one account per scope")
        #expect(try test.claims(of: inA.idToken)["firebase"]?["tenant"] == "tenant-a")
        #expect(try test.claims(of: project.idToken)["firebase"]?["tenant"] == nil)
        #expect(try a.tokens.authenticate(idToken: inA.idToken).account.localID == inA.localID)
        #expect(wireErrorCode { _ = try b.tokens.authenticate(idToken: inA.idToken) } == .tenantIDMismatch)
        #expect(wireErrorCode { _ = try test.tokens.authenticate(idToken: inA.idToken) } == .tenantIDMismatch)
        #expect(wireErrorCode { _ = try a.tokens.authenticate(idToken: project.idToken) } == .tenantIDMismatch)

        let cookie = try a.tokens.mintSessionCookie(idToken: inA.idToken, validDuration: nil)
        #expect(try test.claims(of: cookie)["firebase"]?["tenant"] == "tenant-a")
        #expect(wireErrorCode { _ = try test.tokens.mintSessionCookie(idToken: inA.idToken, validDuration: nil) }
            == .tenantIDMismatch)
        #expect(wireErrorCode { _ = try b.tokens.mintSessionCookie(idToken: inA.idToken, validDuration: nil) }
            == .tenantIDMismatch)
    }

    @Test("a tenant's refresh tokens carry its scope marker; moved to another scope they find nothing and revoke nothing")
    func refreshMarker() throws {
        let (test, a, b) = try platforms()
        let project = try signIn(test, test.platform, subject: "p")
        let inA = try signIn(test, a, subject: "a")
        let parts = inA.refreshToken.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3 && parts[2] == "tenant-a")
        #expect(project.refreshToken.split(separator: ".", omittingEmptySubsequences: false).count == 2,
                "the project's tokens are unchanged")
        #expect(TokenService.tenantID(ofRefreshToken: inA.refreshToken) == "tenant-a")
        #expect(TokenService.tenantID(ofRefreshToken: project.refreshToken) == nil)

        let movedToB = "\(parts[0]).\(parts[1]).tenant-b"
        let markerRemoved = "\(parts[0]).\(parts[1])"
        #expect(wireErrorCode { _ = try refresh(b, movedToB) } == .invalidRefreshToken)
        #expect(wireErrorCode { _ = try refresh(test.platform, markerRemoved) } == .invalidRefreshToken)
        #expect(wireErrorCode { _ = try refresh(test.platform, inA.refreshToken) } == .invalidRefreshToken)
        #expect(wireErrorCode { _ = try refresh(b, inA.refreshToken) } == .invalidRefreshToken)
        #expect(wireErrorCode { _ = try refresh(a, project.refreshToken) } == .invalidRefreshToken)

        let refreshed = try refresh(a, inA.refreshToken)
        #expect(refreshed.userId == inA.localID)
        #expect(try test.claims(of: refreshed.idToken)["firebase"]?["tenant"] == "tenant-a")
        #expect(TokenService.tenantID(ofRefreshToken: refreshed.refreshToken) == "tenant-a")
        #expect(try refresh(test.platform, project.refreshToken).userId == project.localID)
    }

    @Test("a custom token naming a tenant signs in to that tenant only; a tenant takes no other token")
    func customTokens() throws {
        let (test, a, b) = try platforms()
        let account = try TestServiceAccount(test)
        func token(_ tenant: String?) throws -> String {
            try account.sign(account.customTokenClaims(
                uid: "carol", now: test.time.nowSeconds, overrides: tenant.map { ["tenant_id": .string($0)] } ?? [:]))
        }
        func signIn(_ platform: IdentityPlatform, _ token: String) throws -> SignInWithCustomTokenResponse {
            try platform.customTokens.signIn(SignInWithCustomTokenRequest(token: token), by: .user(client: nil))
        }
        let signedIn = try signIn(a, token("tenant-a"))
        #expect(try test.claims(of: signedIn.idToken)["firebase"]?["tenant"] == "tenant-a")
        #expect(wireErrorCode { _ = try signIn(b, token("tenant-a")) } == .tenantIDMismatch)
        #expect(wireErrorCode { _ = try signIn(test.platform, token("tenant-a")) } == .tenantIDMismatch)
        #expect(wireErrorCode { _ = try signIn(a, token(nil)) } == .tenantIDMismatch)
        #expect(try test.store.read { try $0.account(localID: "carol") } == nil, "nothing made in the project")
        #expect(try a.store.read { try $0.account(localID: "carol") } != nil)
    }

    @Test("a tenant's switches refuse client calls with the emulator's codes")
    func switches() throws {
        var tenant = Tenant(id: "t", createdAtMillis: 0, updatedAtMillis: 0)
        func code(_ use: SignInUse) -> ErrorCode? { wireErrorCode { try tenant.permit(use) } }
        #expect(code(.other) == nil)
        #expect(code(.signUp(withPassword: true)) == .operationNotAllowed)
        #expect(code(.signUp(withPassword: false)) == .adminOnlyOperation)
        #expect(code(.passwordSignIn) == .passwordLoginDisabled)
        #expect(code(.emailLinkSignIn) == .operationNotAllowed)
        tenant.allowPasswordSignup = true
        tenant.enableAnonymousUser = true
        tenant.enableEmailLinkSignin = true
        for use in [SignInUse.other, .signUp(withPassword: true), .signUp(withPassword: false), .passwordSignIn,
                    .emailLinkSignIn] {
            #expect(code(use) == nil)
        }
        tenant.disableAuth = true
        #expect(code(.other) == .projectDisabled)
    }

    @Test("TenantPlatforms: TENANT_NOT_FOUND for a missing tenant; a record is read again once forgotten")
    func cache() throws {
        let (test, _, _) = try platforms()
        let platforms = TenantPlatforms(project: test.platform)
        #expect(wireErrorCode { _ = try platforms.tenant("ghost") } == .tenantNotFound)
        #expect(wireErrorCode { _ = try platforms.tenant("not a tenant id!") } == .tenantNotFound)
        let first = try platforms.tenant("tenant-a")
        #expect(first.platform.tenantID == "tenant-a" && !first.tenant.disableAuth)
        try test.store.write { writer in
            var changed = first.tenant
            changed.disableAuth = true
            try writer.updateTenant(changed)
        }
        #expect(try platforms.tenant("tenant-a").tenant.disableAuth == false, "within the freshness bound")
        #expect(try platforms.tenant("tenant-a").platform === first.platform)
        platforms.forget("tenant-a")
        let reread = try platforms.tenant("tenant-a")
        #expect(reread.tenant.disableAuth == true)
        try test.store.write { writer in
            var changed = reread.tenant
            changed.disableAuth = false
            try writer.updateTenant(changed)
        }
        test.time.advance(by: 6)
        let expired = try platforms.tenant("tenant-a")
        #expect(expired.tenant.disableAuth == false, "read again past the freshness bound")
        #expect(expired.platform === reread.platform, "the services are kept")
    }
}
