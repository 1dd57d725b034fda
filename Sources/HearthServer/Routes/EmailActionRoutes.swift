import HearthCore
import HearthHTTP
import HearthProtocol

/// Email actions over HTTP: the client endpoints (v1 and the iOS SDK's legacy names), the admin `sendOobCode`, the
/// action page links open (`/__/auth/action`, and in development the emulator's `/emulator/action`), and in
/// development the emulator's listing of codes (`GET /emulator/v1/projects/{p}/oobCodes`).
struct EmailActionRoutes {
    let platform: IdentityPlatform
    let options: ServerOptions
    let edge: Edge

    func register(in router: inout Router) {
        let actions = platform.emailActions
        let signIn = edge.clientCall(.signInPerClient)
        let scopes = edge.scopes
        let endpoints: [(v1: String, legacy: String, chain: MiddlewareChain, responder: HTTPResponder)] = [
            ("accounts:sendOobCode", "getOobConfirmationCode", edge.clientCall(),
             IdentityToolkitRoutes.json(scopes, use: Self.sendOobCodeUse, reading: { platform, fields, caller, request in
                 var send = try SendOobCodeRequest(fields: fields)
                 send.locale = SendOobCodeRequest.locale(header: request.headers["X-Firebase-Locale"])
                 return try platform.emailActions.sendOobCode(send, by: caller)
             })),
            ("accounts:resetPassword", "resetPassword", signIn,
             IdentityToolkitRoutes.json(scopes, use: { _ in .passwordSignIn }) { platform, fields, caller in
                 try platform.emailActions.resetPassword(ResetPasswordRequest(fields: fields), by: caller)
             }),
            ("accounts:signInWithEmailLink", "emailLinkSignin", signIn,
             IdentityToolkitRoutes.json(scopes, use: { _ in .emailLinkSignIn }) { platform, fields, caller in
                 try platform.emailActions.signInWithEmailLink(SignInWithEmailLinkRequest(fields: fields), by: caller)
             }),
            ("accounts:createAuthUri", "createAuthUri", edge.clientCall(), IdentityToolkitRoutes.json(scopes) {
                platform, fields, _ in try platform.emailActions.createAuthUri(CreateAuthUriRequest(fields: fields))
            }),
        ]
        IdentityToolkitRoutes.register(endpoints, in: &router)
        let adminSend = edge.admin.handler(IdentityToolkitRoutes.adminJSON(scopes) { platform, fields, caller in
            try platform.emailActions.sendOobCode(SendOobCodeRequest(fields: fields), by: caller)
        })
        router.add(.post, "\(AdminRoutes.base)/accounts:sendOobCode", adminSend)
        router.add(.post, "\(AdminRoutes.base)/tenants/{tenant}/accounts:sendOobCode", adminSend)

        let page = ActionPageRoutes(actions: actions, limiter: platform.rateLimiter)
        // The emulator's page, like its other helpers, answers trusted origins only.
        var paths = [(ActionPageRoutes.productionPath, edge.plain)]
        if options.development {
            paths.append((ActionPageRoutes.emulatorPath, edge.restrictedPlain))
            router.add(.get, "/emulator/v1/projects/{project}/oobCodes", edge.restrictedFirebase.handler(oobCodes))
            router.add(
                .get, "/emulator/v1/projects/{project}/tenants/{tenant}/oobCodes", edge.restrictedFirebase.handler(oobCodes))
        }
        for (path, pageChain) in paths {
            router.add(.get, path, pageChain.handler(page.show))
            router.add(.post, path, pageChain.handler(page.complete))
        }
    }

    /// What a client `sendOobCode` does, for a tenant's switches: an `EMAIL_SIGNIN` link is an email-link sign-in.
    @Sendable static func sendOobCodeUse(_ fields: RequestFields) throws -> SignInUse {
        try fields.string("requestType") == "EMAIL_SIGNIN" ? .emailLinkSignIn : .other
    }

    /// `GET /emulator/v1/projects/{p}/oobCodes` (and the emulator's `…/tenants/{t}/oobCodes`): codes still usable in
    /// the project (the tenant), as `{"oobCodes":[{email, newEmail?, requestType, oobCode, oobLink}]}`.
    private var oobCodes: HTTPResponder {
        { [platform, scopes = edge.scopes] request in
            guard request.pathParameters["project"] == platform.project.projectID else {
                throw WireError(.notFound, "Unknown project \(request.pathParameters["project"] ?? "").")
            }
            let scoped = try request.pathParameters["tenant"].map { try scopes.tenants.tenant($0).platform } ?? platform
            struct Listing: Encodable { var oobCodes: [IssuedOOBCode] }
            return Responses.json(Listing(oobCodes: try scoped.emailActions.openIssuedCodes()))
        }
    }
}
