public import Foundation
public import HearthOutbound
public import HearthProtocol
import HearthVerify
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Firebase Admin's `Auth` for a Hearth server: manage users, verify ID tokens and session cookies, set custom
/// claims, revoke sessions and mint custom tokens, from a Swift backend.
///
/// Calls go to Hearth's admin endpoints (`<serverURL>/identitytoolkit.googleapis.com/v1/projects/<projectID>/…`)
/// with the credential's authorization; tokens are verified locally against `<serverURL>/.well-known/jwks.json`.
/// Every method is safe to call from many tasks at once.
///
/// Verification returns HearthVerify's `VerifiedToken`, and claims are HearthProtocol's `JSONValue`: import those
/// modules too to read them. (`UserRecord` is also the name of HearthProtocol's wire type; write
/// `HearthAdmin.UserRecord` where both modules are imported.)
///
/// ```swift
/// import HearthAdmin
/// import HearthProtocol
/// import HearthVerify
///
/// let key = try Data(contentsOf: URL(filePath: "/etc/portfolio/hearth-admin.json"))
/// let auth = AdminAuth(
///     serverURL: URL(string: "https://auth.example.com")!, credential: try .serviceAccount(json: key),
///     idTokenIssuer: "https://auth.example.com/my-project")
///
/// let caller = try await auth.verifyIDToken(bearerToken, checkRevoked: true)
/// try await auth.setCustomUserClaims(uid: caller.uid, ["admin": true])
/// for try await page in auth.listUsers() {
///     for user in page.users { print(user.uid, user.email ?? "-") }
/// }
/// ```
///
/// In development, against `hearth serve --dev`:
/// ```swift
/// let auth = AdminAuth(serverURL: URL(string: "http://127.0.0.1:9099")!, projectID: "demo-hearth", credential: .owner)
/// ```
public struct AdminAuth: Sendable {
    /// The project every call and every token is for.
    public let projectID: String
    /// The `iss` ID tokens must carry.
    public let idTokenIssuer: String
    /// The `iss` session cookies must carry.
    public let sessionCookieIssuer: String

    /// The Identity Platform tenant this client acts in (``TenantManager/auth(forTenant:)``); `nil` for the project.
    public private(set) var tenantID: String?

    private(set) var backend: AdminBackend
    private(set) var idTokens: IDTokenVerifier
    private(set) var sessionCookies: IDTokenVerifier

    /// Creates an admin client.
    ///
    /// - Parameters:
    ///   - serverURL: Hearth's URL, such as `http://127.0.0.1:9099`.
    ///   - projectID: the project ID; nil takes the service account's `project_id`. Required with ``AdminCredential/owner``.
    ///   - credential: how calls are authorized.
    ///   - idTokenIssuer: the `iss` of ID tokens; nil means Firebase's `https://securetoken.google.com/<projectID>`,
    ///     which `hearth serve --dev` and `--firebase-issuer` use. For Hearth's production default pass
    ///     `"<public-url>/<projectID>"`.
    ///   - sessionCookieIssuer: the `iss` of session cookies; nil means `https://session.firebase.google.com/<projectID>`.
    ///   - clockSkew: seconds of clock difference tolerated when checking token times (0…300).
    ///   - transport: how HTTP requests are sent.
    ///   - jwksHTTP: how the verification keys are fetched (a 10-second timeout by default).
    ///   - clock: the current time.
    public init(
        serverURL: URL, projectID: String? = nil, credential: AdminCredential, idTokenIssuer: String? = nil,
        sessionCookieIssuer: String? = nil, clockSkew: TimeInterval = 60,
        transport: any AdminTransport = URLSessionAdminTransport(),
        jwksHTTP: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10), clock: @escaping @Sendable () -> Date = Date.init
    ) {
        guard let projectID = projectID ?? credential.projectID, !projectID.isEmpty else {
            preconditionFailure("AdminAuth needs a project ID: pass projectID, or a service account with project_id")
        }
        var server = serverURL.absoluteString
        while server.hasSuffix("/") { server.removeLast() }
        guard let jwksURL = URL(string: server + "/.well-known/jwks.json") else {
            preconditionFailure("a URL with a path appended is still a URL")
        }
        self.projectID = projectID
        self.idTokenIssuer = idTokenIssuer ?? "https://securetoken.google.com/\(projectID)"
        self.sessionCookieIssuer = sessionCookieIssuer ?? "https://session.firebase.google.com/\(projectID)"
        backend = AdminBackend(serverURL: serverURL, projectID: projectID, credential: credential, transport: transport, clock: clock)
        idTokens = IDTokenVerifier(
            projectID: projectID, issuer: self.idTokenIssuer, jwksURL: jwksURL, clockSkew: clockSkew, http: jwksHTTP,
            clock: clock)
        sessionCookies = IDTokenVerifier(
            projectID: projectID, issuer: self.sessionCookieIssuer, jwksURL: jwksURL, clockSkew: clockSkew,
            http: jwksHTTP, clock: clock)
    }

    /// This client acting in the tenant `tenantID`: its users, and only its tokens and session cookies.
    func scoped(toTenant tenantID: String) -> AdminAuth {
        var scoped = self
        scoped.tenantID = tenantID
        scoped.backend = backend.scoped(toTenant: tenantID)
        scoped.idTokens = idTokens.requiring(.tenant(tenantID))
        scoped.sessionCookies = sessionCookies.requiring(.tenant(tenantID))
        return scoped
    }

    /// Throws `.invalidUID` unless `uid` is 1–128 characters, as firebase-admin checks before sending.
    static func checkUID(_ uid: String) throws(HearthAdminError) {
        guard !uid.isEmpty, uid.count <= 128 else {
            throw HearthAdminError(.invalidUID, message: "a uid must be a non-empty string of at most 128 characters")
        }
    }
}
