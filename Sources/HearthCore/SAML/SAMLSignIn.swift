import Foundation
public import HearthProtocol
import JOSE
import SAML

/// SAML 2.0 sign-in with the `inboundSamlConfigs` of a scope (the project or one tenant), as Identity Platform serves
/// it: ``start(providerID:)`` answers `createAuthUri` with the identity provider's SSO URL carrying an AuthnRequest
/// (HTTP-Redirect binding) and a `sessionId`; ``verify(_:providerID:settings:sessionID:redirectURI:)`` checks the
/// `SAMLResponse` that `signInWithIdp` brings back and makes the ``FederatedProfile`` the one sign-in completion takes.
///
/// The `sessionId` is a JWT signed with the session keys (issuer ``sessionIssuer``, this project's audience) that names
/// the AuthnRequest's id, the provider and the scope, and expires after ``sessionLifetimeSeconds``: nothing is stored
/// for a started sign-in, and a response answers only the request its session names, in that session's scope.
/// Assertion ids are recorded (``StoreWriter/insertSAMLAssertion(providerID:assertionID:expiresAtMillis:)``) until the
/// assertion expires, so each assertion signs in once.
public final class SAMLSignIn: Sendable {
    /// How long a started sign-in can be finished, in seconds (10 minutes).
    public static let sessionLifetimeSeconds: Int64 = 600
    /// The clock difference allowed for an assertion's times, either way, in seconds.
    public static let clockSkewSeconds: Int64 = 60
    /// The `iss` of SAML sessions: no other token Hearth signs has it.
    public static let sessionIssuer = "hearth:saml-session"

    private let store: any HearthStore
    private let keys: SigningKeyRing
    private let time: any TimeSource
    private let project: ProjectConfiguration

    init(context: ServiceContext, keys: SigningKeyRing) {
        store = context.store
        self.keys = keys
        time = context.time
        project = context.project
    }

    /// The `aud` of this project's SAML sessions.
    static func sessionAudience(_ projectID: String) -> String { "hearth:saml:\(projectID)" }

    // MARK: - createAuthUri

    /// `createAuthUri` for `providerID` (`saml.*`): `authUri`, the identity provider's `ssoUrl` with a new
    /// `SAMLRequest`, and the `sessionId` that `signInWithIdp` must send back.
    /// - Throws: `OPERATION_NOT_ALLOWED` for a provider the scope has not enabled.
    public func start(providerID: String) throws -> CreateAuthUriResponse {
        let (config, settings) = try enabledConfig(providerID)
        let requestID = "_" + Identifiers.alphanumeric(length: 32)
        let request = SAMLAuthnRequest(
            id: requestID, serviceProvider: settings.serviceProvider, singleSignOnURL: settings.ssoURL ?? "",
            issueInstant: Date(timeIntervalSince1970: Double(time.nowMillis) / 1000))
        let now = time.nowSeconds
        var claims: [String: JSONValue] = [
            "iss": .string(Self.sessionIssuer), "aud": .string(Self.sessionAudience(project.projectID)),
            "iat": .integer(now), "exp": .integer(now + Self.sessionLifetimeSeconds), "rid": .string(requestID),
            "provider": .string(config.id),
        ]
        if let tenant = store.scope.tenant { claims["tenant"] = .string(tenant) }
        let sessionID = try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
        var response = CreateAuthUriResponse(sessionId: sessionID)
        response.authUri = request.redirectURL(relayState: nil)
        response.providerId = config.id
        return response
    }

    // MARK: - signInWithIdp

    /// Checks the `SAMLResponse` form field of a `signInWithIdp` (base64 of the document) for `providerID`: the
    /// `sessionId` must be one ``start(providerID:)`` signed for this provider and scope, unexpired; the request URI
    /// must be the configuration's `callbackUri`; the document must verify with one of the configuration's
    /// certificates and pass `SAMLResponse.check` (issuer, destination and recipient, audience `spEntityId`, times,
    /// `InResponseTo` the session's request). Records the assertion id, refusing one already recorded (a replay).
    ///
    /// - Throws: `OPERATION_NOT_ALLOWED` for a provider not enabled in the scope; `INVALID_IDP_RESPONSE` for anything
    ///   else, its message naming the reason (`SAMLError`'s code), never the document.
    public func verify(
        _ samlResponse: String?, providerID: String, settings: SAMLProviderSettings, sessionID: String?,
        redirectURI: String
    ) throws -> FederatedProfile {
        guard let samlResponse, !samlResponse.isEmpty else {
            throw Self.refused("the postBody has no SAMLResponse")
        }
        guard let requestID = sessionRequestID(sessionID, providerID: providerID) else {
            throw Self.refused("the sessionId is missing, expired or not one createAuthUri gave for \(providerID) here")
        }
        guard redirectURI == settings.callbackURI else {
            throw Self.refused("the requestUri is not the provider's callbackUri")
        }
        // A form value may come with its `+` decoded as a space, and base64 may be wrapped in lines.
        let base64 = String(samlResponse.replacingOccurrences(of: " ", with: "+").filter { !$0.isNewline })
        guard let document = Data(base64Encoded: base64) else {
            throw Self.refused("the SAMLResponse is not base64")
        }
        let idp = SAMLIdentityProvider(
            entityID: settings.idpEntityID ?? "", certificates: settings.idpCertificates.map(ProviderConfigRules.pemCertificate))
        let response: SAMLResponse
        do {
            response = try SAMLResponse.read(Array(document), from: idp)
            try response.check(
                for: settings.serviceProvider, idp: idp, now: Date(timeIntervalSince1970: Double(time.nowMillis) / 1000),
                clockSkew: TimeInterval(Self.clockSkewSeconds)
            ) { $0 == requestID }
        } catch {
            throw Self.refused("the SAML response was refused (\(error.code)): \(error.reason)")
        }
        let assertion = response.assertion
        // `check` required a confirmation end, so the assertion has an end.
        let expires = Int64(((assertion.expiresAt ?? Date()).timeIntervalSince1970 * 1000).rounded(.up))
        let first = try store.write {
            try $0.insertSAMLAssertion(
                providerID: providerID, assertionID: assertion.id,
                expiresAtMillis: expires + Self.clockSkewSeconds * 1000)
        }
        guard first else { throw Self.refused("the SAML assertion was used already (a replay)") }
        return Self.profile(of: assertion, providerID: providerID)
    }

    /// The profile an assertion describes: the `NameID` as the provider's user id, the email (never verified) and names
    /// from the usual attributes (their names, `urn:oid:` forms and the claims URIs of AD FS and Entra ID), every
    /// attribute in `rawUserInfo`.
    static func profile(of assertion: SAMLAssertion, providerID: String) -> FederatedProfile {
        func first(_ names: [String]) -> String? {
            for name in names {
                if let value = assertion.attributes[name]?.first(where: { !$0.isEmpty }) { return value }
            }
            return nil
        }
        let claims = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/"
        var email = first(["email", "mail", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3", claims + "emailaddress"])
        if email == nil, assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" {
            email = assertion.nameID
        }
        let given = first(["givenName", "firstName", "urn:oid:2.5.4.42", claims + "givenname"])
        let family = first(["sn", "surname", "lastName", "urn:oid:2.5.4.4", claims + "surname"])
        let display =
            first(["displayName", "name", "urn:oid:2.16.840.1.113730.3.1.241", claims + "name"])
            ?? [given, family].compactMap { $0 }.joined(separator: " ").nilIfEmpty
        let raw = assertion.attributes.mapValues { values -> JSONValue in
            values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
        }
        return FederatedProfile(
            providerID: providerID, rawID: assertion.nameID, email: email, emailVerified: false, displayName: display,
            givenName: given, familyName: family, rawUserInfo: raw)
    }

    // MARK: - helpers

    static func refused(_ reason: String) -> WireError {
        WireError(.invalidIdpResponse, "Invalid IdP response: \(reason).")
    }

    /// The settings of the scope's enabled SAML provider `providerID`.
    /// - Throws: `OPERATION_NOT_ALLOWED` when the scope has no such provider enabled.
    public func enabledSettings(_ providerID: String) throws -> SAMLProviderSettings {
        try enabledConfig(providerID).1
    }

    private func enabledConfig(_ providerID: String) throws -> (ProviderConfigRecord, SAMLProviderSettings) {
        guard providerID.hasPrefix("saml."),
            let config = try store.read({ try $0.providerConfig(kind: .saml, id: providerID) }), config.enabled,
            let settings = config.saml
        else {
            throw WireError(.operationNotAllowed, "The identity provider \(providerID) is not enabled for this project.")
        }
        return (config, settings)
    }

    /// The AuthnRequest id of a session ``start(providerID:)`` signed for `providerID` in this scope, if it is still
    /// valid; nil for anything else.
    private func sessionRequestID(_ sessionID: String?, providerID: String) -> String? {
        guard let claims = sessionClaims(sessionID), claims["provider"]?.stringValue == providerID,
            let requestID = claims["rid"]?.stringValue, !requestID.isEmpty
        else { return nil }
        return requestID
    }

    /// The provider a `sessionId` that ``start(providerID:)`` signed for this scope, unexpired, names: where the
    /// SAML sign-in continues when the `signInWithIdp` names no `providerId` (the Firebase JS SDK's handler posts
    /// only what the identity provider posted to it).
    public func sessionProvider(_ sessionID: String?) -> String? {
        sessionClaims(sessionID)?["provider"]?.stringValue
    }

    /// The claims of a `sessionId` this platform signed for its scope, while it has not expired.
    private func sessionClaims(_ sessionID: String?) -> [String: JSONValue]? {
        guard let sessionID, !sessionID.isEmpty, let verified = try? keys.verify(sessionID),
            case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            claims["iss"]?.stringValue == Self.sessionIssuer,
            claims["aud"]?.stringValue == Self.sessionAudience(project.projectID),
            case .integer(let expires)? = claims["exp"], time.nowSeconds < expires,
            claims["tenant"]?.stringValue == store.scope.tenant
        else { return nil }
        return claims
    }
}

extension SAMLProviderSettings {
    /// Hearth as this identity provider's service provider.
    var serviceProvider: SAMLServiceProvider {
        SAMLServiceProvider(entityID: spEntityID ?? "", assertionConsumerServiceURL: callbackURI ?? "")
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
