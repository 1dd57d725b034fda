import Foundation
import HearthConsole
import HearthCore
import HearthHTTP
import HearthProtocol

/// What the console changes, each through the admin operations acting as the visitor (so the audit log records
/// `console:<uid>`): a GET of a change's path shows its confirmation step and changes nothing; the POST (CSRF-checked
/// by the gate) makes the change and answers 303 to the page it concerns.
struct ConsoleChanges {
    let platform: IdentityPlatform
    let gate: ConsoleGate
    let cookies: ConsoleCookies
    /// The request edge's tenants, dropped after a tenant's settings change here (enforced at once).
    let tenantPlatforms: TenantPlatforms

    /// The `?done=` notices pages show after a change.
    static let notices = [
        "claims": "Custom claims saved.", "revoked": "Sessions revoked: every refresh token and session cookie issued until now is refused.",
        "disabled": "Account disabled.", "enabled": "Account enabled.", "factor": "Second factor removed.",
        "rotated": "Key rotated: new tokens are signed with the new key.",
        "config": "Configuration saved: client calls follow it from now on.",
    ]

    /// An account change behind a confirmation: its path under the user's page, the confirmation's wording, and the
    /// update it makes.
    private struct AccountChange {
        var name: String
        var title: String
        var explanation: String
        var button: String
        var done: String
        var update: @Sendable (inout AdminUpdateAccountRequest, Int64) -> Void
    }

    private static let accountChanges = [
        AccountChange(
            name: "revoke", title: "Revoke sessions",
            explanation: "Every session of this account ends: its refresh tokens and session cookies are refused from now on, and its apps must sign in again.",
            button: "Revoke sessions", done: "revoked", update: { request, now in request.validSince = now }),
        AccountChange(
            name: "disable", title: "Disable account",
            explanation: "The account can no longer sign in or refresh its tokens until it is enabled again.",
            button: "Disable", done: "disabled", update: { request, _ in request.disableUser = true }),
        AccountChange(
            name: "enable", title: "Enable account", explanation: "The account can sign in again.",
            button: "Enable", done: "enabled", update: { request, _ in request.disableUser = false }),
    ]

    func register(in router: inout Router, chain: MiddlewareChain) {
        let user = "\(ConsolePaths.users)/{uid}"
        for change in Self.accountChanges {
            router.add(.get, "\(user)/\(change.name)", chain.handler(gate.page { request, visit in
                let account = try ConsoleRoutes.account(request, platform.store)
                return Self.confirm(change.title, "\(change.explanation) Account: \(account.email ?? account.localID).", request, change.button, visit)
            }))
            router.add(.post, "\(user)/\(change.name)", chain.handler(gate.change { request, _, visit in
                let account = try ConsoleRoutes.account(request, platform.store)
                var update = AdminUpdateAccountRequest(localId: account.localID)
                change.update(&update, platform.time.nowSeconds)
                _ = try platform.admin.update(update, by: visit.caller)
                return Self.done(ConsoleHTML.userPath(account.localID), change.done)
            }))
        }
        router.add(.get, "\(user)/delete", chain.handler(gate.page { request, visit in
            let account = try ConsoleRoutes.account(request, platform.store)
            return Self.confirm(
                "Delete account", "The account \(account.email ?? account.localID), its identities, second factors and sessions are deleted. This cannot be undone.",
                request, "Delete for good", visit)
        }))
        router.add(.post, "\(user)/delete", chain.handler(gate.change { request, _, visit in
            let account = try ConsoleRoutes.account(request, platform.store)
            _ = try platform.admin.delete(
                AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(account.localID)])), by: visit.caller)
            return .html(ConsoleLayout.page(title: "Account deleted", viewer: visit.viewer, section: .users, body: """
                <p class="status" role="status">The account \(ConsoleHTML.escape(account.localID)) was deleted.</p><p><a href="\(ConsolePaths.users)">Back to the users</a></p>
                """))
        }))
        router.add(.post, "\(user)/claims", chain.handler(gate.change(claims)))
        router.add(.get, "\(user)/factors/{factor}/remove", chain.handler(gate.page { request, visit in
            let (account, factor) = try Self.factor(request, platform)
            return Self.confirm(
                "Remove second factor",
                "The factor “\(factor.displayName ?? factor.kind.rawValue)” of \(account.email ?? account.localID) is removed; it no longer completes a sign-in.",
                request, "Remove factor", visit)
        }))
        router.add(.post, "\(user)/factors/{factor}/remove", chain.handler(gate.change { request, _, visit in
            let (account, factor) = try Self.factor(request, platform)
            var update = AdminUpdateAccountRequest(localId: account.localID)
            update.mfaEnrollments = account.mfaEnrollments.filter { $0.enrollmentID != factor.enrollmentID }.map {
                AdminMFAEnrollment(mfaEnrollmentId: $0.enrollmentID, displayName: $0.displayName, phoneInfo: $0.phoneNumber)
            }
            _ = try platform.admin.update(update, by: visit.caller)
            return Self.done(ConsoleHTML.userPath(account.localID), "factor")
        }))
        router.add(.get, ConsolePaths.rotateKey, chain.handler(gate.page { request, visit in
            .html(ConfirmPage(
                title: "Rotate the signing key",
                explanation: "A new key signs ID tokens and session cookies from now on; the current one stays published until the tokens it signed have expired, so nobody is signed out.",
                action: request.path, button: "Rotate", back: ConsolePaths.keys, isDangerous: false
            ).html(visit.viewer, section: .keys))
        }))
        router.add(.post, ConsolePaths.rotateKey, chain.handler(gate.change { [platform] _, _, visit in
            try platform.sessionKeys.rotate(by: visit.caller)
            return Self.done(ConsolePaths.keys, "rotated")
        }))
        router.add(.post, ConsolePaths.config, chain.handler(gate.change(config)))
        router.add(.post, "\(ConsolePaths.tenants)/{tenant}/config", chain.handler(gate.change(tenantConfig)))
        router.add(.post, ConsolePaths.signOut, chain.handler(gate.change { [cookies] _, _, _ in
            var response = HTTPResponse.html(MessagePage.message(title: "Signed out", text: "You are signed out of the console."))
            response.headers.add(name: "Set-Cookie", value: cookies.deleting(ConsoleCookies.session))
            return response
        }))
    }

    /// Saves the posted claims through the admin update, whose rules (JSON object, reserved names, 1,000
    /// characters) apply; a refusal shows the page again with the text as posted and the reason.
    private var claims: @Sendable (HTTPRequest, [String: String], ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, form, visit in
            let account = try ConsoleRoutes.account(request, platform.store)
            let text = (form["claims"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            var update = AdminUpdateAccountRequest(localId: account.localID)
            update.customAttributes = text.isEmpty ? "{}" : text
            do {
                _ = try platform.admin.update(update, by: visit.caller)
            } catch let error as WireError where error.httpStatus == 400 {
                let page = UserPage(account: account, claimsText: text, claimsError: error.message)
                return .html(page.html(visit.viewer), status: 400)
            }
            return Self.done(ConsoleHTML.userPath(account.localID), "claims")
        }
    }

    /// Saves the posted configuration through the config API with an `updateMask` of the settings the config file
    /// does not lock (``ConfigPage/change(from:locks:forTenant:)``); a refusal (`INVALID_CONFIG`,
    /// `OPERATION_NOT_ALLOWED`) changes nothing and shows the page again with the reason and the values as posted.
    private var config: @Sendable (HTTPRequest, [String: String], ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] _, form, visit in
            let service = platform.projectConfig
            var change: ConfigPage.Change?
            do {
                let asked = try ConfigPage.change(
                    from: form, locks: ConfigPage.locks { service.lock(of: $0)?.key }, current: try service.get())
                change = asked
                _ = try service.update(asked.request, updateMask: asked.updateMask, by: visit.caller)
            } catch let error as WireError where error.httpStatus == 400 {
                return try Self.refused(platform, tenant: nil, change, error, visit)
            }
            return Self.done(ConsolePaths.config, "config")
        }
    }

    /// Saves a tenant's posted settings through the tenant API (the form's change in its fields,
    /// ``TenantConfigShape/tenantUpdate(_:paths:)``), enforced at once on this instance; refused as ``config``.
    private var tenantConfig: @Sendable (HTTPRequest, [String: String], ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform, tenantPlatforms] request, form, visit in
            let (_, found) = try ConsoleRoutes.scope(request, platform)
            guard let tenant = found else { throw WireError(.tenantNotFound, httpStatus: 404) }
            var change: ConfigPage.Change?
            do {
                let current = TenantConfigShape.config(
                    of: tenant, settings: try platform.projectConfig.settings(in: tenant.scope))
                let asked = try ConfigPage.change(from: form, locks: [:], forTenant: true, current: current)
                change = asked
                let update = try TenantConfigShape.tenantUpdate(asked.request, paths: asked.paths)
                defer { tenantPlatforms.forget(tenant.id) }
                _ = try platform.tenants.update(
                    id: tenant.id, TenantFields(fields: RequestFields(update.fields)), updateMask: update.updateMask,
                    by: visit.caller)
            } catch let error as WireError where error.httpStatus == 400 {
                return try Self.refused(platform, tenant: tenant, change, error, visit)
            }
            return Self.done(ConsoleHTML.configPath(tenantID: tenant.id), "config")
        }
    }

    /// The configuration page of a refused save: the reason, and the posted values when the form could be read.
    private static func refused(
        _ platform: IdentityPlatform, tenant: Tenant?, _ change: ConfigPage.Change?, _ error: WireError,
        _ visit: ConsoleGate.Visit
    ) throws -> HTTPResponse {
        let page = try ConsoleRoutes.configPage(platform, tenant: tenant, notice: nil, error: error.message)
        return .html((change.map(page.showing) ?? page).html(visit.viewer), status: 400)
    }

    private static func factor(_ request: HTTPRequest, _ platform: IdentityPlatform) throws -> (Account, MFAEnrollment) {
        let account = try ConsoleRoutes.account(request, platform.store)
        guard let factor = account.mfaEnrollments.first(where: { $0.enrollmentID == request.pathParameters["factor"] }) else {
            throw WireError(.mfaEnrollmentNotFound, "This account has no such second factor.", httpStatus: 404)
        }
        return (account, factor)
    }

    private static func confirm(
        _ title: String, _ explanation: String, _ request: HTTPRequest, _ button: String, _ visit: ConsoleGate.Visit
    ) -> HTTPResponse {
        let back = ConsoleHTML.userPath(request.pathParameters["uid"] ?? "")
        return .html(ConfirmPage(title: title, explanation: explanation, action: request.path, button: button, back: back)
            .html(visit.viewer, section: .users))
    }

    /// 303 to `path?done=<what>` (post, redirect, get: reloading the page does not repeat the change).
    private static func done(_ path: String, _ what: String) -> HTTPResponse {
        .redirect(to: "\(path)?done=\(what)", status: 303)
    }
}
