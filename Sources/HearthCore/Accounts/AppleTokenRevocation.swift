import Foundation
public import HearthProtocol
import JOSE

/// Apple's tokens of a signed-in user: the authorization code a sign-in may carry, exchanged for the refresh
/// token Hearth keeps, and `revokeToken`, which an app calls before deleting an account (App Review 5.1.1(v)).
extension AccountService {
    /// The Apple refresh token for a verified `apple.com` profile whose request carried Apple's `code`: exchanged at
    /// Apple's token endpoint for the client ID the ID token was issued to, with `redirect_uri` = the request URI
    /// without query or fragment (the page Apple's `form_post` reached). Nil for other providers, for sign-ins
    /// without a code, and when no Apple key is configured.
    ///
    /// - Throws: `INVALID_IDP_RESPONSE` when Apple refuses the code (used, expired, another client's) or cannot be
    ///   reached: a code that was sent must work, or revoking the user's Apple tokens later would be impossible.
    func appleRefreshToken(for profile: FederatedProfile, redirectURI: String?) throws -> ProviderRefreshToken? {
        guard profile.providerID == IdentityProvider.appleID, let code = profile.authorizationCode,
            let clientID = profile.clientID, let apple = providerTokens.apple
        else { return nil }
        do {
            let answer = try apple.exchange(code: code, clientID: clientID, redirectURI: redirectURI)
            return answer.refreshToken.map { ProviderRefreshToken(token: $0, clientID: clientID) }
        } catch {
            throw WireError(.invalidIdpResponse, "Apple did not accept the authorization code (\(error.code)).")
        }
    }

    /// `POST /v2/accounts:revokeToken`: revokes the signed-in user's Apple tokens. An authorization code (type 3, what
    /// iOS sends) is first exchanged at Apple for the client IDs the user's Apple identity or the project names; the
    /// token it yields, a refresh or access token given directly (types 1 and 2), and the refresh token Hearth kept
    /// for the identity are queued for revocation in one write and tried at once; failures are retried by the
    /// maintenance task, never dropped.
    ///
    /// - Throws: `INVALID_ID_TOKEN`/`USER_NOT_FOUND` for the user, `INVALID_PROVIDER_ID` for a provider other than
    ///   Apple, `INVALID_ARGUMENT` for a missing token or an unknown type, `OPERATION_NOT_ALLOWED` without an Apple key,
    ///   `INVALID_IDP_RESPONSE` when Apple refuses the code.
    public func revokeToken(_ request: RevokeTokenRequest) throws -> RevokeTokenResponse {
        let user = try tokens.authenticate(idToken: request.idToken)
        guard request.providerId == IdentityProvider.appleID else {
            throw WireError(.invalidProviderID, "Only apple.com tokens can be revoked.")
        }
        guard let token = request.token, !token.isEmpty else { throw WireError(.invalidArgument, "The token is missing.") }
        guard let type = request.knownTokenType else {
            throw WireError(.invalidArgument, "tokenType must be 1 (refresh token), 2 (access token) or 3 (code).")
        }
        guard let apple = providerTokens.apple else {
            throw WireError(.operationNotAllowed, "This server has no Apple key to revoke Apple tokens with.")
        }
        let identity = user.account.identity(for: IdentityProvider.appleID)
        var clientIDs = identity?.providerRefreshToken.map { [$0.clientID] } ?? []
        clientIDs += providers.provider(IdentityProvider.appleID)?.clientIDs.sorted() ?? []

        let given: (token: String, hint: AppleTokenTypeHint, clientID: String)
        switch type {
        case .authorizationCode:
            // A code names its Apple ID only in the ID token Apple returns for it: one for another Apple ID than the
            // user's (or a user without one) must not revoke that person's authorization of the app.
            guard let appleID = identity?.rawID else {
                throw WireError(.invalidIdpResponse, "No Apple ID is linked to this account.")
            }
            given = try exchange(
                code: token, for: appleID, clientIDs: clientIDs, redirectURI: request.redirectUri, apple: apple)
        case .refreshToken, .accessToken:
            guard let clientID = clientIDs.first else {
                throw WireError(.operationNotAllowed, "No Apple client ID is configured.")
            }
            given = (token, type == .refreshToken ? .refreshToken : .accessToken, clientID)
        }
        let now = time.nowMillis
        try store.write { writer in
            try writer.enqueueProviderTokenRevocation(
                ProviderTokenRevocation(
                    providerID: IdentityProvider.appleID, clientID: given.clientID, token: given.token,
                    tokenTypeHint: given.hint.rawValue, localID: user.account.localID, atMillis: now))
            // The kept refresh token goes too: the user asked for their Apple tokens to be revoked.
            guard var account = try writer.account(localID: user.account.localID),
                let index = account.providers.firstIndex(where: { $0.providerID == IdentityProvider.appleID }),
                account.providers[index].providerRefreshToken != nil
            else { return }
            account.providers[index].providerRefreshToken = nil
            try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: now)
        }
        providerTokens.revocationsQueued()
        return RevokeTokenResponse()
    }

    /// Exchanges an authorization code for the first of `clientIDs` Apple accepts it for; the refresh token it yields
    /// (else its access token) is what to revoke. The ID token of Apple's answer (received from Apple over TLS, in
    /// answer to Hearth's authenticated request, so its claims are taken as they are) must name `appleID`.
    private func exchange(
        code: String, for appleID: String, clientIDs: [String], redirectURI: String?, apple: any AppleCodeExchanging
    ) throws -> (token: String, hint: AppleTokenTypeHint, clientID: String) {
        var lastError: AppleClientError?
        for clientID in clientIDs {
            let answer: AppleTokenResponse
            do {
                answer = try apple.exchange(code: code, clientID: clientID, redirectURI: redirectURI)
            } catch {
                lastError = error
                guard error.code == .invalidGrant || error.code == .invalidClient else { break }
                continue
            }
            guard let claims = try? InsecureJWT.decodeWithoutVerifying(answer.idToken),
                case .object(let payload)? = try? JSONValue(parsing: claims.payload),
                payload["sub"]?.stringValue == appleID
            else { throw WireError(.invalidIdpResponse, "The authorization code belongs to another Apple ID.") }
            if let refreshToken = answer.refreshToken { return (refreshToken, .refreshToken, clientID) }
            return (answer.accessToken, .accessToken, clientID)
        }
        let reason = lastError.map { " (\($0.code))" } ?? ""
        throw WireError(.invalidIdpResponse, "Apple did not accept the authorization code\(reason).")
    }
}
