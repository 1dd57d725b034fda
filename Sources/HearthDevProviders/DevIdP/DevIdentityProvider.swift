import Foundation
public import HearthCore
public import HearthProtocol
public import JOSE
import HearthCrypto

/// Hearth's local look-alike of Google's OpenID provider (`--dev` only): authorization code flow with
/// PKCE S256, `state`, `nonce`, exact redirect matching, a token endpoint for codes and refresh
/// tokens, userinfo, tokeninfo and revocation, and real RS256 ID tokens with Google's claim set.
/// Codes and tokens are stored by hash; accounts persist in the store.
public final class DevIdentityProvider: GoogleAccessTokenIssuer {
    public let configuration: DevIdPConfiguration
    private let store: any HearthStore
    /// The dev IdP's own RS256 keys (never the session keys).
    public let keys: SigningKeyRing
    private let time: any TimeSource

    public init(configuration: DevIdPConfiguration, store: any HearthStore, keys: SigningKeyRing, time: any TimeSource) {
        self.configuration = configuration
        self.store = store
        self.keys = keys
        self.time = time
    }

    public var issuerNames: Set<String> { [configuration.issuer] }

    // MARK: - Authorization endpoint

    /// A checked authorization request.
    public struct AuthorizationRequest: Sendable, Equatable {
        public var clientID: String
        public var redirectURI: String
        public var scope: String
        public var state: String?
        public var nonce: String?
        public var codeChallenge: String
        public var loginHint: String?
        public var prompt: String?
        public var audience: String?
        public var hostedDomain: String?

        /// The request's parameters, to carry through the account chooser form.
        public var parameters: [(String, String)] {
            var pairs: [(String, String)] = [
                ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scope),
                ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
            ]
            if let state { pairs.append(("state", state)) }
            if let nonce { pairs.append(("nonce", nonce)) }
            if let loginHint { pairs.append(("login_hint", loginHint)) }
            if let audience { pairs.append(("audience", audience)) }
            if let hostedDomain { pairs.append(("hd", hostedDomain)) }
            return pairs
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.parameters.map { "\($0.0)=\($0.1)" } == rhs.parameters.map { "\($0.0)=\($0.1)" } && lhs.prompt == rhs.prompt
        }
    }

    /// What to do with an authorization request.
    public enum AuthorizationCheck: Sendable, Equatable {
        /// Show an error page: the client or redirect URI cannot be trusted, so no redirect.
        case rejected(String)
        /// Send the browser back to the app with an OAuth error.
        case redirect(String)
        case valid(AuthorizationRequest)
    }

    /// Checks `/o/oauth2/v2/auth` parameters (query or form).
    public func checkAuthorization(_ parameters: [String: String]) -> AuthorizationCheck {
        guard let clientID = parameters["client_id"], !clientID.isEmpty else {
            return .rejected("Missing required parameter: client_id")
        }
        guard let client = configuration.client(clientID) else {
            return .rejected("The OAuth client was not found: \(clientID)")
        }
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else {
            return .rejected("Missing required parameter: redirect_uri")
        }
        guard client.accepts(redirectURI: redirectURI) else {
            return .rejected(
                "redirect_uri_mismatch: \(redirectURI) is not registered for this client. Accepted: \(client.acceptedRedirectsDescription).")
        }
        let state = parameters["state"]
        func fail(_ error: String, _ description: String) -> AuthorizationCheck {
            .redirect(Self.redirectLocation(redirectURI, ["error": error, "error_description": description, "state": state]))
        }
        guard parameters["response_type"] == "code" else {
            return fail("unsupported_response_type", "Only response_type=code is supported.")
        }
        guard let challenge = parameters["code_challenge"], !challenge.isEmpty else {
            return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.")
        }
        guard parameters["code_challenge_method"] == "S256" else {
            return fail("invalid_request", "Only code_challenge_method=S256 is supported.")
        }
        guard challenge.count == 43, Base64URL.decode(challenge)?.count == 32 else {
            return fail("invalid_request", "code_challenge must be the base64url SHA-256 of the code_verifier.")
        }
        let scopes = Self.normalizedScopes(parameters["scope"] ?? "")
        guard scopes.contains("openid") || scopes.contains(Self.emailScope) || scopes.contains(Self.profileScope) else {
            return fail("invalid_scope", "Request at least one of openid, email or profile.")
        }
        let audience = parameters["audience"].flatMap { $0.isEmpty ? nil : $0 }
        return .valid(
            AuthorizationRequest(
                clientID: clientID, redirectURI: redirectURI, scope: scopes.joined(separator: " "), state: state,
                nonce: parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 }, codeChallenge: challenge,
                loginHint: parameters["login_hint"].flatMap { $0.isEmpty ? nil : $0 }, prompt: parameters["prompt"],
                audience: audience, hostedDomain: parameters["hd"].flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// Signs `account` in: issues a single-use code and returns the redirect back to the app.
    public func approve(_ request: AuthorizationRequest, subject: String) throws -> String {
        let code = Identifiers.secret(prefix: "4/")
        let now = time.nowSeconds
        try store.write { writer in
            guard try writer.devAccount(subject: subject) != nil else { throw WireError(.userNotFound) }
            try writer.deleteExpiredDevGrants(before: now)
            try writer.insertDevGrant(
                DevIdPGrant(
                    tokenHash: Identifiers.hash(code), kind: .authorizationCode, subject: subject,
                    clientID: request.clientID, scope: request.scope, redirectURI: request.redirectURI,
                    codeChallenge: request.codeChallenge, nonce: request.nonce, audience: request.audience,
                    expiresAt: now + configuration.codeLifetime, createdAt: now))
        }
        return Self.redirectLocation(request.redirectURI, ["code": code, "scope": request.scope, "state": request.state])
    }

    /// The redirect for "Cancel": `error=access_denied` (GIDSignIn reports it as `canceled`).
    public func cancel(_ request: AuthorizationRequest) -> String {
        Self.redirectLocation(
            request.redirectURI,
            ["error": "access_denied", "error_description": "The user canceled the sign-in.", "state": request.state])
    }

    /// The redirect for `prompt=none` without an account to sign in.
    public func loginRequired(_ request: AuthorizationRequest) -> String {
        Self.redirectLocation(
            request.redirectURI,
            ["error": "login_required", "error_description": "prompt=none needs a login_hint.", "state": request.state])
    }

    static func redirectLocation(_ redirectURI: String, _ parameters: [String: String?]) -> String {
        let order = ["code", "scope", "error", "error_description", "state"]
        let pairs = order.compactMap { name in parameters[name].flatMap { $0 }.map { (name, $0) } }
        let separator = redirectURI.contains("?") ? "&" : "?"
        return redirectURI + separator + FormEncoding.encode(pairs)
    }

    // MARK: - Accounts

    public func accounts() throws -> [DevIdPAccount] {
        try store.read { try $0.devAccounts() }
    }

    public func account(subject: String) throws -> DevIdPAccount? {
        try store.read { try $0.devAccount(subject: subject) }
    }

    /// The account with `email`, created (with a name made from the address) if there is none.
    public func account(forEmail email: String) throws -> DevIdPAccount {
        if let existing = try store.read({ try $0.devAccount(email: email) }) { return existing }
        return try createAccount(email: email, name: nil, pictureURL: nil, emailVerified: true)
    }

    /// Adds a dev account. The email must contain `@`; other fields are optional.
    public func createAccount(email: String, name: String?, pictureURL: String?, emailVerified: Bool) throws -> DevIdPAccount {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard let at = email.firstIndex(of: "@"), at != email.startIndex, email.index(after: at) != email.endIndex,
            !email.contains(where: \.isWhitespace), email.count <= 254
        else { throw WireError(.invalidEmail, "Enter an email address such as jane@example.com.") }
        let name = name.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? Self.nameFromEmail(email)
        let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
        let pictureURL = pictureURL.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        if let pictureURL, !AccountService.isAbsoluteURL(pictureURL) {
            throw WireError(.invalidPhotoURL, "The photo URL must be an absolute URL.")
        }
        let account = DevIdPAccount(
            subject: Identifiers.googleSubject(), email: email, emailVerified: emailVerified, name: name,
            givenName: parts.first, familyName: parts.count > 1 ? parts[1] : nil, pictureURL: pictureURL,
            locale: "en", createdAtMillis: time.nowMillis)
        do {
            try store.write { try $0.insertDevAccount(account) }
        } catch let error as StoreError where error.code == .duplicateEmail {
            throw WireError(.emailExists, "A dev account with this email already exists.")
        }
        return account
    }

    /// `jane.doe@example.com` → `Jane Doe`.
    static func nameFromEmail(_ email: String) -> String {
        let local = email.split(separator: "@").first.map(String.init) ?? email
        let words = local.split(whereSeparator: { ".-_+".contains($0) }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return words.isEmpty ? local : words.joined(separator: " ")
    }

    // MARK: - Token endpoint

    /// `POST /token` with `grant_type` `authorization_code` (PKCE verified) or `refresh_token`.
    /// `basicClientID` is the client id from an HTTP Basic `Authorization` header, if any.
    public func token(_ form: [String: String], basicClientID: String? = nil) throws -> [String: JSONValue] {
        guard let clientID = form["client_id"].flatMap({ $0.isEmpty ? nil : $0 }) ?? basicClientID,
            configuration.client(clientID) != nil
        else { throw OAuthError("invalid_client", "The OAuth client was not found.", status: 401) }
        switch form["grant_type"] {
        case "authorization_code": return try exchangeCode(form, clientID: clientID)
        case "refresh_token": return try refresh(form, clientID: clientID)
        case nil, "": throw OAuthError("invalid_request", "Missing required parameter: grant_type")
        default: throw OAuthError("unsupported_grant_type", "Invalid grant_type.")
        }
    }

    private func exchangeCode(_ form: [String: String], clientID: String) throws -> [String: JSONValue] {
        guard let code = form["code"], !code.isEmpty else { throw OAuthError("invalid_request", "Missing required parameter: code") }
        guard let verifier = form["code_verifier"], !verifier.isEmpty else {
            throw OAuthError("invalid_request", "Missing required parameter: code_verifier")
        }
        let now = time.nowSeconds
        let hash = Identifiers.hash(code)
        // Consume the code first: a code is good for exactly one exchange, even a failed one.
        let grant = try store.write { writer -> DevIdPGrant? in
            guard let grant = try writer.devGrant(hash: hash), grant.kind == .authorizationCode else { return nil }
            try writer.deleteDevGrant(hash: hash)
            return grant
        }
        guard let grant, grant.expiresAt > now else { throw OAuthError("invalid_grant", "The code is invalid or expired.") }
        guard grant.clientID == clientID else { throw OAuthError("invalid_grant", "The code was issued to another client.") }
        guard form["redirect_uri"] == grant.redirectURI else { throw OAuthError("invalid_grant", "redirect_uri does not match.") }
        let challenge = Base64URL.encode(SHA256.hash(verifier))
        guard let expected = grant.codeChallenge,
            ConstantTime.equals(Array(challenge.utf8), Array(expected.utf8))
        else { throw OAuthError("invalid_grant", "code_verifier does not match the code_challenge.") }
        return try issueTokens(for: grant, includeRefreshToken: true, nonce: grant.nonce)
    }

    private func refresh(_ form: [String: String], clientID: String) throws -> [String: JSONValue] {
        guard let token = form["refresh_token"], !token.isEmpty else {
            throw OAuthError("invalid_request", "Missing required parameter: refresh_token")
        }
        guard let grant = try store.read({ try $0.devGrant(hash: Identifiers.hash(token)) }), grant.kind == .refreshToken,
            grant.expiresAt > time.nowSeconds
        else { throw OAuthError("invalid_grant", "Token has been expired or revoked.") }
        guard grant.clientID == clientID else { throw OAuthError("invalid_grant", "The token was issued to another client.") }
        return try issueTokens(for: grant, includeRefreshToken: false, nonce: nil)
    }

    private func issueTokens(for grant: DevIdPGrant, includeRefreshToken: Bool, nonce: String?) throws -> [String: JSONValue] {
        let now = time.nowSeconds
        let accessToken = Identifiers.secret(prefix: "devat.")
        let refreshToken = includeRefreshToken ? Identifiers.secret(prefix: "1//") : nil
        let account = try store.write { writer -> DevIdPAccount? in
            guard let account = try writer.devAccount(subject: grant.subject) else { return nil }
            try writer.insertDevGrant(
                DevIdPGrant(
                    tokenHash: Identifiers.hash(accessToken), kind: .accessToken, subject: grant.subject,
                    clientID: grant.clientID, scope: grant.scope, audience: grant.audience,
                    expiresAt: now + configuration.accessTokenLifetime, createdAt: now))
            if let refreshToken {
                try writer.insertDevGrant(
                    DevIdPGrant(
                        tokenHash: Identifiers.hash(refreshToken), kind: .refreshToken, subject: grant.subject,
                        clientID: grant.clientID, scope: grant.scope, nonce: grant.nonce, audience: grant.audience,
                        expiresAt: now + configuration.refreshTokenLifetime, createdAt: now))
            }
            return account
        }
        guard let account else { throw OAuthError("invalid_grant", "The account no longer exists.") }
        var response: [String: JSONValue] = [
            "access_token": .string(accessToken), "expires_in": .integer(configuration.accessTokenLifetime),
            "scope": .string(grant.scope), "token_type": "Bearer",
            "id_token": .string(try idToken(for: account, grant: grant, accessToken: accessToken, nonce: nonce)),
        ]
        if let refreshToken { response["refresh_token"] = .string(refreshToken) }
        return response
    }

    /// An ID token with Google's claim set.
    func idToken(for account: DevIdPAccount, grant: DevIdPGrant, accessToken: String, nonce: String?) throws -> String {
        let now = time.nowSeconds
        let digest = SHA256.hash(accessToken)
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuer), "azp": .string(grant.clientID),
            "aud": .string(grant.audience ?? grant.clientID), "sub": .string(account.subject),
            "at_hash": .string(Base64URL.encode(digest.prefix(digest.count / 2))),
            "iat": .integer(now), "exp": .integer(now + configuration.idTokenLifetime),
        ]
        let scopes = Set(grant.scope.split(separator: " ").map(String.init))
        if scopes.contains(Self.emailScope) {
            claims["email"] = .string(account.email)
            claims["email_verified"] = .bool(account.emailVerified)
        }
        if scopes.contains(Self.profileScope) {
            claims.merge(Self.profileClaims(account), uniquingKeysWith: { _, new in new })
        }
        if let hostedDomain = account.hostedDomain { claims["hd"] = .string(hostedDomain) }
        if let nonce { claims["nonce"] = .string(nonce) }
        return try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
    }

    private static func profileClaims(_ account: DevIdPAccount) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [:]
        if let name = account.name { claims["name"] = .string(name) }
        if let given = account.givenName { claims["given_name"] = .string(given) }
        if let family = account.familyName { claims["family_name"] = .string(family) }
        if let picture = account.pictureURL { claims["picture"] = .string(picture) }
        if let locale = account.locale { claims["locale"] = .string(locale) }
        return claims
    }

    // MARK: - userinfo, tokeninfo, revoke

    /// The access token's live grant, or nil.
    private func accessGrant(_ accessToken: String) throws -> DevIdPGrant? {
        guard let grant = try store.read({ try $0.devGrant(hash: Identifiers.hash(accessToken)) }),
            grant.kind == .accessToken, grant.expiresAt > time.nowSeconds
        else { return nil }
        return grant
    }

    /// `GET /oauth2/v3/userinfo`.
    public func userInfo(accessToken: String) throws -> [String: JSONValue] {
        guard let grant = try accessGrant(accessToken), let account = try account(subject: grant.subject) else {
            throw OAuthError("invalid_token", "Invalid Credentials", status: 401)
        }
        var info: [String: JSONValue] = ["sub": .string(account.subject)]
        let scopes = Set(grant.scope.split(separator: " ").map(String.init))
        if scopes.contains(Self.emailScope) {
            info["email"] = .string(account.email)
            info["email_verified"] = .bool(account.emailVerified)
        }
        if scopes.contains(Self.profileScope) { info.merge(Self.profileClaims(account), uniquingKeysWith: { _, new in new }) }
        if let hostedDomain = account.hostedDomain { info["hd"] = .string(hostedDomain) }
        return info
    }

    public func accessTokenInfo(_ accessToken: String) throws -> AccessTokenInfo? {
        guard let grant = try accessGrant(accessToken) else { return nil }
        return AccessTokenInfo(
            audience: grant.audience ?? grant.clientID, authorizedParty: grant.clientID, subject: grant.subject,
            expiresIn: grant.expiresAt - time.nowSeconds, scope: grant.scope)
    }

    /// `GET /tokeninfo?access_token=…` or `?id_token=…`, answered as Google does.
    public func tokenInfo(accessToken: String?, idToken: String?) throws -> [String: JSONValue] {
        if let idToken, !idToken.isEmpty {
            guard let verified = try? keys.current().verification.verify(idToken),
                case .object(var claims)? = try? JSONValue(parsing: verified.payload),
                let expiresAt = NumericDate(claims["exp"]), expiresAt.isAfter(time.nowSeconds)
            else { throw OAuthError("invalid_token", "Invalid Value") }
            claims["alg"] = "RS256"
            claims["kid"] = verified.header.kid.map(JSONValue.string) ?? .null
            return claims.mapValues { value in
                if case .integer(let number) = value { return .string(String(number)) }
                if case .bool(let flag) = value { return .string(flag ? "true" : "false") }
                return value
            }
        }
        guard let accessToken, !accessToken.isEmpty, let grant = try accessGrant(accessToken),
            let account = try account(subject: grant.subject)
        else { throw OAuthError("invalid_token", "Invalid Value") }
        var info: [String: JSONValue] = [
            "azp": .string(grant.clientID), "aud": .string(grant.audience ?? grant.clientID),
            "sub": .string(grant.subject), "scope": .string(grant.scope), "exp": .string(String(grant.expiresAt)),
            "expires_in": .string(String(grant.expiresAt - time.nowSeconds)), "access_type": "offline",
        ]
        if grant.scope.split(separator: " ").contains(Substring(Self.emailScope)) {
            info["email"] = .string(account.email)
            info["email_verified"] = .string(account.emailVerified ? "true" : "false")
        }
        return info
    }

    /// `POST /revoke` (or GET `?token=`): revokes the whole grant (every token of that account for that client).
    public func revoke(token: String?) throws {
        guard let token, !token.isEmpty else { throw OAuthError("invalid_request", "Missing required parameter: token") }
        try store.write { writer in
            guard let grant = try writer.devGrant(hash: Identifiers.hash(token)), grant.kind != .authorizationCode else {
                throw OAuthError("invalid_token", "Token expired or revoked")
            }
            try writer.deleteDevGrants(subject: grant.subject, clientID: grant.clientID)
        }
    }

    // MARK: - Keys and discovery

    public func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet {
        try (forceRefresh ? keys.reload() : keys.current()).verification
    }

    /// `/.well-known/openid-configuration`, with Google's supported-value lists.
    public func discoveryDocument() -> [String: JSONValue] {
        let base = configuration.issuer
        return [
            "issuer": .string(base),
            "authorization_endpoint": .string(base + "/o/oauth2/v2/auth"),
            "token_endpoint": .string(base + "/token"),
            "userinfo_endpoint": .string(base + "/oauth2/v3/userinfo"),
            "revocation_endpoint": .string(base + "/revoke"),
            "jwks_uri": .string(base + "/oauth2/v3/certs"),
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic", "none"],
            "claims_supported": [
                "aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "locale", "name",
                "picture", "sub", "at_hash", "azp", "nonce", "hd",
            ],
            "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
        ]
    }

    // MARK: - Scopes

    static let emailScope = "https://www.googleapis.com/auth/userinfo.email"
    static let profileScope = "https://www.googleapis.com/auth/userinfo.profile"

    /// Google's normalization: `email` and `profile` become their long forms; order kept, duplicates dropped.
    static func normalizedScopes(_ scope: String) -> [String] {
        var result: [String] = []
        for item in scope.split(whereSeparator: { $0 == " " || $0 == "+" }) {
            let long: String = switch item {
            case "email": emailScope
            case "profile": profileScope
            default: String(item)
            }
            if !result.contains(long) { result.append(long) }
        }
        return result
    }
}
