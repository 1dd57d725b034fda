import HearthCommandLine
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthServer

/// A step of `hearth serve`: the main listener (and the management one of `--metrics-port`) answering the platform,
/// each pushed on `resources` to be shut down.
struct ServeListeners {
    let readiness: Readiness

    init(
        _ serve: ServeSettings, socket: HTTPServer.BoundSocket, site: ServeSite, senders: ServeSenders,
        platform: IdentityPlatform, devProviders: DevProviders?, operations: ServeOperations, time: any TimeSource, resources: ResourceStack
    ) throws {
        let settings = serve.settings
        let readiness = Readiness(store: platform.store, signingKeys: platform.sessionKeys, time: time)
        let management = try operations.managementServer(readiness: readiness)
        if let management { resources.push { management.shutdown(gracePeriod: .seconds(1)) } }
        // Who may call the admin endpoints (`/v1/projects/{p}/accounts…`): service accounts through the access tokens
        // of `POST /oauth2/token`, and in development `Bearer owner`, as the Admin SDKs send to an emulator.
        let adminVerifiers: [any AdminTokenVerifier] =
            (settings.development ? [DevelopmentOwnerVerifier()] : []) + [platform.serviceAccountTokenVerifier]
        let console = try settings.consoleOptions(timeout: serve.outboundLimits.timeout)
        let server = IdentityServer(
            platform: platform,
            options: ServerOptions(
                publicURL: site.publicURL, development: settings.development,
                sentVerificationCodes: senders.developmentCodes, trustedProxies: serve.trustedProxies,
                adminVerifiers: adminVerifiers, devIdentityProvider: devProviders?.google,
                devApple: devProviders?.apple,
                devSAML: devProviders == nil
                    ? nil : try DevSAMLKey.issuer(dataDirectory: settings.dataDirectory, publicURL: site.publicURL, now: time.now),
                operations: operations.mainEndpoints(readiness: readiness), console: console),
            log: serve.log)
        let http = HTTPServer(
            configuration: settings.httpLimits.applied(
                to: HTTPServer.Configuration(
                    host: settings.host, port: socket.port, threadCount: serve.threads,
                    cors: site.crossOrigin.policy(for: server))),
            socket: socket,
            handler: server.handle,
            errorRenderer: operations.errorRenderer,
            log: { entry in serve.log(entry.logLine) })
        try ServeCommand.listening(on: settings) { try http.start() }
        resources.push { http.shutdown(gracePeriod: .seconds(10)) }
        try management?.start()
        self.readiness = readiness
    }
}
