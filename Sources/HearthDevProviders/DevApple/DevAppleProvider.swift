import Foundation
public import HearthCore
public import HearthProtocol
import HearthCrypto
public import JOSE

/// Hearth's local look-alike of Sign in with Apple (`--dev` only), at Apple's paths under its issuer:
/// `/auth/authorize` (`form_post`, `query`, `fragment`), `/auth/token` (codes and refresh tokens, clients
/// authenticated by an ES256 client secret), `/auth/revoke` and `/auth/keys`, with RS256 ID tokens carrying
/// Apple's claim set. People are the dev IdP's accounts (one person signs in with both Google and Apple).
/// Codes, tokens, authorizations and revocations live in memory: a restart forgets them.
public final class DevAppleProvider: OpenIDIssuer {
    public let configuration: DevAppleConfiguration
    /// The dev Apple's own RS256 keys (never the session keys or the dev Google's), kept in the store.
    public let keys: SigningKeyRing
    private let accounts: DevIdentityProvider
    private let time: any TimeSource
    private let clientSecrets: any AppleClientSecretChecking
    private let grants = DevAppleGrants()

    /// Loads (or on first start creates) the signing keys.
    /// - Parameters:
    ///   - accounts: the dev IdP, whose accounts are the people who sign in.
    ///   - clientSecrets: checks the ES256 signatures of client secrets.
    public init(
        configuration: DevAppleConfiguration, accounts: DevIdentityProvider, store: any HearthStore,
        time: any TimeSource, clientSecrets: any AppleClientSecretChecking
    ) throws {
        self.configuration = configuration
        self.accounts = accounts
        self.time = time
        self.clientSecrets = clientSecrets
        keys = SigningKeyRing(store: store, time: time, owner: .devApple, tokenLifetime: configuration.idTokenLifetime)
        try keys.loadOrCreate()
    }

    public var issuerNames: Set<String> { [configuration.issuer] }

    /// Its `/auth/keys`, read in-process by `signInWithIdp` (no HTTP call to itself).
    public func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        try (forceRefresh ? keys.reload() : keys.current()).verification
    }

    // MARK: - Authorization endpoint

    /// A checked authorization request.
    public struct AuthorizationRequest: Sendable {
        public enum ResponseMode: String, Sendable { case formPost = "form_post", query, fragment }
        public var clientID: String
        public var redirectURI: String
        public var responseMode: ResponseMode
        /// Whether `response_type` asked for an `id_token` beside the code.
        public var includesIDToken: Bool
        /// The requested scopes among `name` and `email`.
        public var scopes: [String]
        public var state: String?
        public var nonce: String?
        /// Headless sign-in as this email (dev only).
        public var loginHint: String?
        /// `hide_my_email=true` (dev only): a headless sign-in chooses "Hide My Email".
        public var hidesEmail: Bool

        /// The request's parameters, to carry through the account chooser's forms.
        public var parameters: [(String, String)] {
            var pairs: [(String, String)] = [
                ("response_type", includesIDToken ? "code id_token" : "code"), ("response_mode", responseMode.rawValue),
                ("client_id", clientID), ("redirect_uri", redirectURI),
            ]
            if !scopes.isEmpty { pairs.append(("scope", scopes.joined(separator: " "))) }
            if let state { pairs.append(("state", state)) }
            if let nonce { pairs.append(("nonce", nonce)) }
            return pairs
        }
    }

    /// How the answer reaches the app.
    public enum Answer: Sendable {
        /// An HTML form that POSTs `fields` to `action` (the redirect URI).
        case formPost(action: String, fields: [(name: String, value: String)])
        /// A redirect with the fields in the query or the fragment.
        case redirect(String)
    }

    /// What to do with an authorization request.
    public enum AuthorizationCheck: Sendable {
        /// Show an error page: the client, redirect URI or response mode cannot be trusted, so no answer to the app.
        case rejected(String)
        /// Answer the app with an OAuth error.
        case answer(Answer)
        case valid(AuthorizationRequest)
    }

    /// Checks `/auth/authorize` parameters (query or form), as Apple does: `response_type` `code` or `code id_token`,
    /// scopes (`name`, `email`) only with `form_post`, an `id_token` never in a query.
    public func checkAuthorization(_ parameters: [String: String]) -> AuthorizationCheck {
        guard let clientID = parameters["client_id"], !clientID.isEmpty else {
            return .rejected("invalid_request: missing client_id.")
        }
        guard configuration.clientIDs.contains(clientID) else { return .rejected("invalid_client: \(clientID) is not a client of this Apple.") }
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else {
            return .rejected("invalid_request: missing redirect_uri.")
        }
        guard configuration.accepts(redirectURI: redirectURI) else {
            return .rejected(
                "invalid_request: redirect_uri \(redirectURI) is not accepted: use a loopback http URI or an https URI on a trusted origin.")
        }
        let modeText = parameters["response_mode"].flatMap { $0.isEmpty ? nil : $0 } ?? "query"
        guard let mode = AuthorizationRequest.ResponseMode(rawValue: modeText) else {
            return .rejected("invalid_request: response_mode must be form_post, query or fragment.")
        }
        let state = parameters["state"]
        func fail(_ error: String) -> AuthorizationCheck {
            .answer(Self.answer(mode: mode, redirectURI: redirectURI, fields: [("error", error)] + (state.map { [("state", $0)] } ?? [])))
        }
        let responseTypes = Set(Self.words(parameters["response_type"] ?? ""))
        guard responseTypes == ["code"] || responseTypes == ["code", "id_token"] else {
            return fail("unsupported_response_type")
        }
        var scopes: [String] = []
        for scope in Self.words(parameters["scope"] ?? "") where scope != "openid" && !scopes.contains(scope) {
            guard scope == "name" || scope == "email" else { return fail("invalid_scope") }
            scopes.append(scope)
        }
        let includesIDToken = responseTypes.contains("id_token")
        guard scopes.isEmpty || mode == .formPost, !(includesIDToken && mode == .query) else { return fail("invalid_request") }
        return .valid(
            AuthorizationRequest(
                clientID: clientID, redirectURI: redirectURI, responseMode: mode, includesIDToken: includesIDToken,
                scopes: scopes, state: state, nonce: parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 },
                loginHint: parameters["login_hint"].flatMap { $0.isEmpty ? nil : $0 },
                hidesEmail: parameters["hide_my_email"] == "true"))
    }

    /// Signs the dev account in: issues a single-use code (and an ID token when asked for one), and on the
    /// person's first authorization of this client the `user` JSON with the name and email the scopes ask for.
    /// `hidesEmail` is the "Hide My Email" choice; like Apple, only the first authorization's choice counts.
    public func approve(_ request: AuthorizationRequest, accountSubject: String, hidesEmail: Bool) throws -> Answer {
        guard let account = try accounts.account(subject: accountSubject) else { throw WireError(.userNotFound) }
        let (authorization, isFirst) = grants.authorize(
            accountSubject: account.subject, clientID: request.clientID, hidesEmail: hidesEmail,
            sharesEmail: request.scopes.contains("email"))
        let now = time.nowSeconds
        let code = Identifiers.secret(prefix: "c.")
        grants.insert(
            DevAppleGrants.Grant(
                kind: .code, accountSubject: account.subject, appleSubject: DevAppleIdentity.subject(of: account),
                clientID: request.clientID, redirectURI: request.redirectURI, nonce: request.nonce, authTime: now,
                expiresAt: now + configuration.codeLifetime),
            hash: Identifiers.hash(code), now: now)
        var fields: [(name: String, value: String)] = [("code", code)]
        if request.includesIDToken {
            let idToken = try idToken(
                for: account, clientID: request.clientID, nonce: request.nonce, authTime: now, bound: ("c_hash", code))
            fields.append(("id_token", idToken))
        }
        if let state = request.state { fields.append(("state", state)) }
        if isFirst, !request.scopes.isEmpty {
            var user: [String: JSONValue] = [:]
            if request.scopes.contains("name") {
                var name: [String: JSONValue] = [:]
                if let given = account.givenName { name["firstName"] = .string(given) }
                if let family = account.familyName { name["lastName"] = .string(family) }
                user["name"] = .object(name)
            }
            if request.scopes.contains("email") { user["email"] = .string(email(of: account, request.clientID, authorization)) }
            fields.append(("user", String(decoding: JSONValue.object(user).jsonData(), as: UTF8.self)))
        }
        return Self.answer(mode: request.responseMode, redirectURI: request.redirectURI, fields: fields)
    }

    /// Headless sign-in as `request.loginHint`, creating the dev account if there is none.
    public func approveHeadless(_ request: AuthorizationRequest, email: String) throws -> Answer {
        let account = try accounts.account(forEmail: email)
        return try approve(request, accountSubject: account.subject, hidesEmail: request.hidesEmail)
    }

    /// The answer for "Cancel": `error=user_cancelled_authorize`, as Apple sends it.
    public func cancel(_ request: AuthorizationRequest) -> Answer {
        Self.answer(
            mode: request.responseMode, redirectURI: request.redirectURI,
            fields: [("error", "user_cancelled_authorize")] + (request.state.map { [("state", $0)] } ?? []))
    }

    /// The dev accounts, for the chooser.
    public func people() throws -> [DevIdPAccount] { try accounts.accounts() }

    /// Adds a dev account (the chooser's form), as the dev Google does.
    public func createAccount(email: String, name: String?, pictureURL: String?) throws -> DevIdPAccount {
        try accounts.createAccount(email: email, name: name, pictureURL: pictureURL, emailVerified: true)
    }

    private static func answer(mode: AuthorizationRequest.ResponseMode, redirectURI: String, fields: [(name: String, value: String)]) -> Answer {
        let encoded = FormEncoding.encode(fields.map { ($0.name, $0.value) })
        switch mode {
        case .formPost: return .formPost(action: redirectURI, fields: fields)
        case .query: return .redirect(redirectURI + (redirectURI.contains("?") ? "&" : "?") + encoded)
        case .fragment: return .redirect(redirectURI + "#" + encoded)
        }
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init)
    }

    private func email(of account: DevIdPAccount, _ clientID: String, _ authorization: DevAppleGrants.Authorization) -> String {
        authorization.hidesEmail ? DevAppleIdentity.relayEmail(of: account, clientID: clientID) : account.email
    }

    // MARK: - Token endpoint

    /// `POST /auth/token` with `grant_type` `authorization_code` or `refresh_token`; the client authenticated by its
    /// client secret. Errors are Apple's (`invalid_client`, `invalid_grant`, `invalid_request`,
    /// `unsupported_grant_type`), HTTP 400.
    public func token(_ form: [String: String]) throws -> [String: JSONValue] {
        let clientID = try authenticate(form)
        switch form["grant_type"] {
        case "authorization_code": return try exchangeCode(form, clientID: clientID)
        case "refresh_token": return try refresh(form, clientID: clientID)
        case nil, "": throw OAuthError.invalidRequest("Missing grant_type.")
        default: throw OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.")
        }
    }

    private func authenticate(_ form: [String: String]) throws -> String {
        guard let clientID = form["client_id"], !clientID.isEmpty else { throw OAuthError.invalidRequest("Missing client_id.") }
        guard configuration.clientIDs.contains(clientID) else { throw OAuthError("invalid_client", "Unknown client_id.") }
        try DevAppleClientAuthentication.check(
            form["client_secret"], clientID: clientID, teamIDs: configuration.teamIDs, now: time.nowSeconds,
            skew: configuration.clockSkew, signatures: clientSecrets)
        return clientID
    }

    private func exchangeCode(_ form: [String: String], clientID: String) throws -> [String: JSONValue] {
        guard let code = form["code"], !code.isEmpty else { throw OAuthError.invalidRequest("Missing code.") }
        guard let grant = grants.takeCode(hash: Identifiers.hash(code)), grant.expiresAt > time.nowSeconds else {
            throw OAuthError.invalidGrant("The code has expired or has been revoked.")
        }
        guard grant.clientID == clientID else { throw OAuthError.invalidGrant("The code was issued to another client.") }
        // Apple wants the authorization request's redirect URI "if applicable": apps exchanging a code they got
        // natively (and Firebase's revokeToken) send none; one that is sent must match.
        if let redirectURI = form["redirect_uri"], redirectURI != grant.redirectURI {
            throw OAuthError.invalidGrant("redirect_uri does not match.")
        }
        return try issueTokens(for: grant, withRefreshToken: true)
    }

    private func refresh(_ form: [String: String], clientID: String) throws -> [String: JSONValue] {
        guard let token = form["refresh_token"], !token.isEmpty else { throw OAuthError.invalidRequest("Missing refresh_token.") }
        guard let grant = grants.token(hash: Identifiers.hash(token), now: time.nowSeconds), grant.kind == .refreshToken,
            grant.clientID == clientID
        else { throw OAuthError.invalidGrant("The refresh token is invalid or has been revoked.") }
        return try issueTokens(for: grant, withRefreshToken: false)
    }

    private func issueTokens(for grant: DevAppleGrants.Grant, withRefreshToken: Bool) throws -> [String: JSONValue] {
        guard let account = try accounts.account(subject: grant.accountSubject) else {
            throw OAuthError.invalidGrant("The account no longer exists.")
        }
        let now = time.nowSeconds
        let accessToken = Identifiers.secret(prefix: "a.")
        var tokenGrant = grant
        tokenGrant.kind = .accessToken
        tokenGrant.redirectURI = nil
        tokenGrant.expiresAt = now + configuration.accessTokenLifetime
        grants.insert(tokenGrant, hash: Identifiers.hash(accessToken), now: now)
        var response: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": "Bearer",
            "expires_in": .integer(configuration.accessTokenLifetime),
            "id_token": .string(
                try idToken(
                    for: account, clientID: grant.clientID, nonce: withRefreshToken ? grant.nonce : nil,
                    authTime: grant.authTime, bound: ("at_hash", accessToken))),
        ]
        if withRefreshToken {
            let refreshToken = Identifiers.secret(prefix: "r.")
            tokenGrant.kind = .refreshToken
            tokenGrant.expiresAt = .max
            grants.insert(tokenGrant, hash: Identifiers.hash(refreshToken), now: now)
            response["refresh_token"] = .string(refreshToken)
        }
        return response
    }

    /// An ID token with Apple's claim set; `bound` is the `c_hash` of the code or the `at_hash` of the access
    /// token it comes with.
    private func idToken(
        for account: DevIdPAccount, clientID: String, nonce: String?, authTime: Int64, bound: (claim: String, token: String)
    ) throws -> String {
        let now = time.nowSeconds
        let digest = SHA256.hash(bound.token)
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuer), "aud": .string(clientID), "sub": .string(DevAppleIdentity.subject(of: account)),
            "iat": .integer(now), "exp": .integer(now + configuration.idTokenLifetime), "auth_time": .integer(authTime),
            "nonce_supported": true, "real_user_status": 2,
            bound.claim: .string(Base64URL.encode(digest.prefix(digest.count / 2))),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        if let authorization = grants.authorization(accountSubject: account.subject, clientID: clientID), authorization.sharesEmail {
            claims["email"] = .string(email(of: account, clientID, authorization))
            claims["email_verified"] = "true"
            claims["is_private_email"] = .string(authorization.hidesEmail ? "true" : "false")
        }
        return try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
    }

    // MARK: - Revocation

    /// `POST /auth/revoke`: revokes the refresh or access token and with it the person's authorization of the
    /// client. Unknown tokens (and tokens of other clients) are accepted silently, as Apple does.
    public func revoke(_ form: [String: String]) throws {
        let clientID = try authenticate(form)
        guard let token = form["token"], !token.isEmpty else { throw OAuthError.invalidRequest("Missing token.") }
        grants.revoke(hash: Identifiers.hash(token), clientID: clientID, now: time.nowSeconds)
    }

    /// What was revoked since the server started, oldest first.
    public var revocations: [DevAppleRevocation] { grants.revocations }

    // MARK: - Keys and discovery

    /// `/.well-known/openid-configuration`, with Apple's supported-value lists.
    public func discoveryDocument() -> [String: JSONValue] {
        let base = configuration.issuer
        return [
            "issuer": .string(base),
            "authorization_endpoint": .string(base + "/auth/authorize"),
            "token_endpoint": .string(base + "/auth/token"),
            "revocation_endpoint": .string(base + "/auth/revoke"),
            "jwks_uri": .string(base + "/auth/keys"),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "name"],
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
            "claims_supported": [
                "aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce", "nonce_supported",
                "real_user_status", "sub", "transfer_sub",
            ],
        ]
    }
}
