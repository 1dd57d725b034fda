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
        let endpoints: [(v1: String, legacy: String, chain: MiddlewareChain, responder: HTTPResponder)] = [
            ("accounts:sendOobCode", "getOobConfirmationCode", edge.clientCall(), IdentityToolkitRoutes.json { fields, caller in
                try actions.sendOobCode(SendOobCodeRequest(fields: fields), by: caller)
            }),
            ("accounts:resetPassword", "resetPassword", signIn, IdentityToolkitRoutes.json { fields, caller in
                try actions.resetPassword(ResetPasswordRequest(fields: fields), by: caller)
            }),
            ("accounts:signInWithEmailLink", "emailLinkSignin", signIn, IdentityToolkitRoutes.json { fields, caller in
                try actions.signInWithEmailLink(SignInWithEmailLinkRequest(fields: fields), by: caller)
            }),
            ("accounts:createAuthUri", "createAuthUri", edge.clientCall(), IdentityToolkitRoutes.json { fields, _ in
                try actions.createAuthUri(CreateAuthUriRequest(fields: fields))
            }),
        ]
        IdentityToolkitRoutes.register(endpoints, in: &router)
        router.add(.post, "\(AdminRoutes.base)/accounts:sendOobCode", edge.admin.handler(IdentityToolkitRoutes.json(caller: { try $0.administrator() }) { fields, caller in
            try actions.sendOobCode(SendOobCodeRequest(fields: fields), by: caller)
        }))
        router.add(.post, "\(AdminRoutes.base)/tenants/{tenant}/accounts:sendOobCode", edge.admin.handler { _ in
            throw WireError(.tenantNotFound, "This Hearth server has no tenants; call the project's own paths.")
        })

        let page = ActionPageRoutes(actions: actions, limiter: platform.rateLimiter)
        // The emulator's page, like its other helpers, answers trusted origins only.
        var paths = [(ActionPageRoutes.productionPath, edge.plain)]
        if options.development {
            paths.append((ActionPageRoutes.emulatorPath, edge.restrictedPlain))
            router.add(.get, "/emulator/v1/projects/{project}/oobCodes", edge.restrictedFirebase.handler(oobCodes))
        }
        for (path, pageChain) in paths {
            router.add(.get, path, pageChain.handler(page.show))
            router.add(.post, path, pageChain.handler(page.complete))
        }
    }

    /// `GET /emulator/v1/projects/{p}/oobCodes`: codes still usable, as `{"oobCodes":[{email, newEmail?,
    /// requestType, oobCode, oobLink}]}`.
    private var oobCodes: HTTPResponder {
        { [platform] request in
            guard request.pathParameters["project"] == platform.project.projectID else {
                throw WireError(.notFound, "Unknown project \(request.pathParameters["project"] ?? "").")
            }
            struct Listing: Encodable { var oobCodes: [IssuedOOBCode] }
            return Responses.json(Listing(oobCodes: try platform.emailActions.openIssuedCodes()))
        }
    }
}
