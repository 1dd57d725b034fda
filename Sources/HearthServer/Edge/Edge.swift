import HearthCore
import HearthHTTP

/// The middleware chains Hearth's routes run through, built once per server (DESIGN.md decision 12's
/// "errors in one place"; issue "A request edge for every route").
struct Edge: Sendable {
    /// Firebase-shaped routes: errors in the wire envelope, the client resolved behind trusted proxies.
    let firebase: MiddlewareChain
    /// Routes whose bodies are not Firebase's (the dev IdP): only the client address is resolved.
    let plain: MiddlewareChain
    /// Admin routes (`/v1/projects/{project}/accounts…`, `…:createSessionCookie`, `…/auditEvents`): errors in the
    /// wire envelope, then the caller authorized by the configured admin verifiers (never by an API key); answering
    /// trusted origins only (``CrossOriginRules``).
    let admin: MiddlewareChain
    /// `plain` for routes only trusted origins may call from another origin: the console, the service-account token
    /// endpoint, the dev IdPs.
    let restrictedPlain: MiddlewareChain
    /// `firebase` for routes only trusted origins may call: the development helpers (`/emulator/…`), the dev IdPs' keys.
    let restrictedFirebase: MiddlewareChain
    private let apiKey: RequireAPIKey
    private let limiter: RateLimiter
    /// Where outcomes counted with `clientCall(_:counting:)` go.
    let metrics: any MetricsRecording
    /// The project's services and its tenants' (one cache of tenants per server).
    let scopes: Scopes

    init(platform: IdentityPlatform, options: ServerOptions, log: @escaping @Sendable (String) -> Void) {
        let client = ResolveClientAddress(trusted: options.trustedProxies)
        firebase = MiddlewareChain([RenderWireErrors(log: log), client])
        plain = MiddlewareChain([client])
        admin = firebase.appending(RequireAdmin(verifiers: options.adminVerifiers, projectID: platform.project.projectID))
            .crossOrigin(.trustedOrigins)
        restrictedPlain = plain.crossOrigin(.trustedOrigins)
        restrictedFirebase = firebase.crossOrigin(.trustedOrigins)
        apiKey = RequireAPIKey(policy: platform.project.apiKeys)
        limiter = platform.rateLimiter
        metrics = options.operations?.metrics ?? NoMetrics()
        scopes = Scopes(project: platform)
    }

    /// A Firebase client call: the API key checked, then (when given) each outcome reported to `counting`
    /// (``CountOutcome``), then (when given) a token taken from the client's `bucket`.
    func clientCall(
        _ bucket: RateLimiter.Bucket? = nil, counting: (@Sendable (_ outcome: String) -> Void)? = nil
    ) -> MiddlewareChain {
        var chain = firebase.appending(apiKey)
        if let counting { chain = chain.appending(CountOutcome(record: counting)) }
        guard let bucket else { return chain }
        return chain.appending(Throttle(limiter: limiter, bucket: bucket))
    }
}
