import HearthCore
import HearthHTTP
import HearthProtocol

/// The Firebase Auth client endpoints: Identity Toolkit v1, the iOS SDK's legacy v3 names mapped onto
/// them (PROTOCOL.md §1.2), and Secure Token's `/v1/token`. Each is only its logic: the edge (`Edge`)
/// checks the API key, limits the client and renders errors.
struct IdentityToolkitRoutes {
    let platform: IdentityPlatform
    let edge: Edge

    static let v1 = "/identitytoolkit.googleapis.com/v1"
    static let v2 = "/identitytoolkit.googleapis.com/v2"
    static let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    static let secureToken = "/securetoken.googleapis.com/v1/token"

    /// v1 endpoints the iOS SDK reaches through legacy v3 names that Hearth does not serve yet.
    static let unimplementedLegacyNames: [String: String] = [
        "sendVerificationCode": "accounts:sendVerificationCode", "setProjectConfig": "setProjectConfig",
        "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
        "signOutUser": "signOutUser",
    ]

    /// Client v1 paths Hearth does not serve yet (the v1 names of `unimplementedLegacyNames`).
    static let unimplementedV1Names = [
        "accounts:sendVerificationCode", "accounts:signInWithPhoneNumber",
    ]

    /// `501 NOT_IMPLEMENTED` in the wire envelope, naming the v1 endpoint.
    private static func notImplemented(_ v1Name: String, edge: Edge) -> RouteHandler {
        edge.firebase.handler { _ in
            throw WireError(.notImplemented, "\(v1Name) is not implemented by this Hearth server yet.")
        }
    }

    func register(in router: inout Router) {
        let scopes = edge.scopes
        let signIn = edge.clientCall(.signInPerClient)
        let secondFactor = edge.clientCall(.mfaPerClient)
        let endpoints: [(v1: String, legacy: String, chain: MiddlewareChain, responder: HTTPResponder)] = [
            ("accounts:signInWithIdp", "verifyAssertion", signIn, Self.json(scopes) { platform, fields, caller in
                try platform.accounts.signInWithIdp(SignInWithIdpRequest(fields: fields), by: caller)
            }),
            ("accounts:signInWithCustomToken", "verifyCustomToken", signIn, Self.json(scopes) { platform, fields, caller in
                try platform.customTokens.signIn(SignInWithCustomTokenRequest(fields: fields), by: caller)
            }),
            ("accounts:signUp", "signupNewUser", edge.clientCall(), Self.json(scopes, use: Self.signUpUse) {
                platform, fields, caller in try platform.accounts.signUp(SignUpRequest(fields: fields), by: caller)
            }),
            ("accounts:lookup", "getAccountInfo", edge.clientCall(), Self.json(scopes) { platform, fields, _ in
                try platform.accounts.lookup(LookupRequest(fields: fields))
            }),
            ("accounts:update", "setAccountInfo", edge.clientCall(), Self.json(scopes) { platform, fields, caller in
                try platform.accounts.update(UpdateAccountRequest(fields: fields), by: caller)
            }),
            ("accounts:delete", "deleteAccount", edge.clientCall(), Self.json(scopes) { platform, fields, caller in
                try platform.accounts.delete(DeleteAccountRequest(fields: fields), by: caller)
            }),
        ] + PasswordRoutes.endpoints(platform, edge: edge)
        Self.register(endpoints, in: &router)
        for (legacyName, v1Name) in Self.unimplementedLegacyNames {
            let handler = Self.notImplemented(v1Name, edge: edge)
            router.add(.post, "\(Self.legacy)/\(legacyName)", handler)
            router.add(.get, "\(Self.legacy)/\(legacyName)", handler)
        }
        for v1Name in Self.unimplementedV1Names {
            let handler = Self.notImplemented(v1Name, edge: edge)
            router.add(.post, "\(Self.v1)/\(v1Name)", handler)
            router.add(.get, "\(Self.v1)/\(v1Name)", handler)
        }
        registerProjectConfig(in: &router)
        let mfaEndpoints: [(String, SecondFactorStep?, HTTPResponder)] = [
            ("accounts/mfaEnrollment:start", .enrollmentStart, Self.json(scopes) { platform, fields, caller in
                try platform.mfa.startEnrollment(StartMFAEnrollmentRequest(fields: fields), by: caller)
            }),
            ("accounts/mfaEnrollment:finalize", .enrollmentFinalize, Self.json(scopes) { platform, fields, caller in
                try platform.mfa.finalizeEnrollment(FinalizeMFAEnrollmentRequest(fields: fields), by: caller)
            }),
            ("accounts/mfaEnrollment:withdraw", nil, Self.json(scopes) { platform, fields, caller in
                try platform.mfa.withdraw(WithdrawMFARequest(fields: fields), by: caller)
            }),
            ("accounts/mfaSignIn:start", .signInStart, Self.json(scopes) { platform, fields, caller in
                try platform.mfa.startSignIn(StartMFASignInRequest(fields: fields), by: caller)
            }),
            ("accounts/mfaSignIn:finalize", .signInFinalize, Self.json(scopes) { platform, fields, caller in
                try platform.mfa.finalizeSignIn(FinalizeMFASignInRequest(fields: fields), by: caller)
            }),
        ]
        let metrics = edge.metrics
        for (name, step, responder) in mfaEndpoints {
            let chain = step.map { step in
                edge.clientCall(.mfaPerClient) { metrics.secondFactor(step, outcome: $0) }
            } ?? secondFactor
            router.add(.post, "\(Self.v2)/\(name)", chain.handler(responder))
        }
        // It calls Apple, so it shares the sign-in limit.
        router.add(.post, "\(Self.v2)/accounts:revokeToken", signIn.handler(Self.json(scopes) { platform, fields, _ in
            try platform.accounts.revokeToken(RevokeTokenRequest(fields: fields))
        }))
        let refreshes = edge.clientCall { metrics.refresh(outcome: $0) }.appending(
            ThrottleFailures(limiter: platform.rateLimiter, bucket: .refreshFailuresPerClient))
        router.add(.post, Self.secureToken, refreshes.handler(refresh))
        router.add(.get, "/", edge.firebase.handler(status))
    }

    /// `GET /v1/projects` and `/v1/projects/{project}` (legacy `getProjectConfig`): the project and its authorized
    /// domains; `GET /v1/recaptchaParams` (legacy `getRecaptchaParam`) as the emulator answers it: Hearth runs no
    /// reCAPTCHA, so the values are placeholders clients must not send to Google.
    private func registerProjectConfig(in router: inout Router) {
        let project = platform.project.projectID
        let config = edge.clientCall().handler { _ in
            let domains = try platform.emailActions.currentSettings().authorizedDomainList
            return Responses.json(
                ["projectId": .string(project), "authorizedDomains": .array(domains.map(JSONValue.string))]
                    as [String: JSONValue])
        }
        for path in ["\(Self.v1)/projects", "\(Self.v1)/projects/{project}", "\(Self.legacy)/getProjectConfig"] {
            router.add(.get, path, config)
        }
        router.add(.post, "\(Self.legacy)/getProjectConfig", config)
        let recaptcha = edge.clientCall().handler { _ in
            Responses.json([
                "kind": "identitytoolkit#GetRecaptchaParamResponse",
                "recaptchaStoken": "This-is-a-placeholder__Hearth-does-not-support-Recaptcha",
                "recaptchaSiteKey": "Placeholder__Hearth-has-no-Recaptcha-key",
            ] as [String: JSONValue])
        }
        router.add(.get, "\(Self.v1)/recaptchaParams", recaptcha)
        router.add(.get, "\(Self.legacy)/getRecaptchaParam", recaptcha)
        router.add(.post, "\(Self.legacy)/getRecaptchaParam", recaptcha)
    }

    /// Registers each client endpoint under its v1 name and its legacy v3 name (POST).
    static func register(
        _ endpoints: [(v1: String, legacy: String, chain: MiddlewareChain, responder: HTTPResponder)], in router: inout Router
    ) {
        for endpoint in endpoints {
            let handler = endpoint.chain.handler(endpoint.responder)
            router.add(.post, "\(v1)/\(endpoint.v1)", handler)
            router.add(.post, "\(legacy)/\(endpoint.legacy)", handler)
        }
    }

    /// A client call taking the services of the scope the request names (``Scopes/client(_:_:)``: the project's
    /// without `tenantId`, else the tenant's once its switches allow what `use` says the call does), the request's
    /// JSON fields and its caller (``HTTPRequest/endUser``).
    static func json(
        _ scopes: Scopes, use: @escaping @Sendable (RequestFields) throws -> SignInUse = { _ in .other },
        _ operation: @escaping @Sendable (IdentityPlatform, RequestFields, Caller) throws -> any Encodable
    ) -> HTTPResponder {
        json(scopes, use: use) { platform, fields, caller, _ in try operation(platform, fields, caller) }
    }

    /// ``json(_:use:_:)`` for a call that also reads the request itself (a header such as `X-Firebase-Locale`).
    static func json(
        _ scopes: Scopes, use: @escaping @Sendable (RequestFields) throws -> SignInUse = { _ in .other },
        reading operation: @escaping @Sendable (IdentityPlatform, RequestFields, Caller, HTTPRequest) throws -> any Encodable
    ) -> HTTPResponder {
        { request in
            let fields = try RequestFields(json: request.body)
            let platform = try scopes.client(fields, try use(fields))
            return Responses.json(try operation(platform, fields, request.endUser, request))
        }
    }

    /// An admin call taking the services of the scope its path or body names (``Scopes/admin(_:_:)``), the
    /// request's JSON fields and its caller as ``RequireAdmin`` accepted it (``HTTPRequest/administrator()``).
    static func adminJSON(
        _ scopes: Scopes, _ operation: @escaping @Sendable (IdentityPlatform, RequestFields, Caller) throws -> any Encodable
    ) -> HTTPResponder {
        { request in
            let fields = try RequestFields(json: request.body)
            let platform = try scopes.admin(request, fields)
            return Responses.json(try operation(platform, fields, try request.administrator()))
        }
    }

    /// What a client `signUp` does, for a tenant's switches: with an email, a password or an ID token it makes or
    /// links a password account, else an anonymous one (as the emulator tells them apart).
    @Sendable static func signUpUse(_ fields: RequestFields) throws -> SignInUse {
        let withPassword = try ["email", "password", "idToken"].contains { try fields.string($0) != nil }
        return .signUp(withPassword: withPassword)
    }

    /// `securetoken /v1/token`: form (JS, REST) or JSON (iOS) bodies, snake_case or camelCase keys.
    private var refresh: HTTPResponder {
        { [scopes = edge.scopes] request in
            let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
            let fields = contentType.hasPrefix("application/x-www-form-urlencoded")
                ? RequestFields(form: String(decoding: request.body, as: UTF8.self))
                : try RequestFields(json: request.body)
            let refresh = try RefreshTokenRequest(fields: fields)
            return Responses.json(try Self.refreshing(refresh, fields, scopes).tokens.refresh(refresh, by: request.endUser))
        }
    }

    /// The services a refresh is served by: the scope its refresh token names (the JS SDK sends no `tenantId` with
    /// a refresh), which a `tenantId` given too must agree with (`TENANT_ID_MISMATCH`). A token naming a tenant that
    /// is gone is `INVALID_REFRESH_TOKEN`; a disabled tenant refreshes nothing (`PROJECT_DISABLED`).
    private static func refreshing(_ refresh: RefreshTokenRequest, _ fields: RequestFields, _ scopes: Scopes) throws
        -> IdentityPlatform
    {
        let named = try Scopes.tenantID(fields)
        guard let tenant = refresh.refreshToken.flatMap(TokenService.tenantID(ofRefreshToken:)) else {
            return named == nil ? scopes.project : try scopes.client(fields, .other)
        }
        if let named, named != tenant {
            throw WireError(.tenantIDMismatch, "The refresh token belongs to another tenant than the request names.")
        }
        let found: (tenant: Tenant, platform: IdentityPlatform)
        do {
            found = try scopes.tenants.tenant(tenant)
        } catch let error as WireError where error.code == .tenantNotFound {
            throw WireError(.invalidRefreshToken)
        }
        try found.tenant.permit(.other)
        return found.platform
    }

    /// `GET /`: a health check, in the emulator's shape as well.
    private var status: HTTPResponder {
        { [platform] _ in
            Responses.json([
                "authEmulator": ["ready": true],
                "hearth": ["ready": true, "projectId": .string(platform.project.projectID)],
            ] as [String: JSONValue])
        }
    }
}
