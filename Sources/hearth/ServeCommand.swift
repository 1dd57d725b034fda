import Foundation
import HearthCommandLine
import HearthCore
import HearthHTTP
import HearthServer

/// `hearth serve`: opens the store, listens, prints where to go, and stops cleanly on SIGINT/SIGTERM
/// (in-flight requests finish, then the store closes).
///
/// A bootstrap of named steps (settings, senders, store, listening address, site, platform, listeners, maintenance);
/// each pushes what it opens on a `ResourceStack`, so a step that fails closes what the earlier ones opened (last
/// opened first) before its error is reported, and a stop signal closes the same things in the same order.
enum ServeCommand {
    static func run(_ arguments: [String]) throws -> Never {
        var stopSignals = blockStopSignals()
        let serve = try ServeSettings.read(arguments)
        let resources = ResourceStack()
        let readiness = try resources.unwinding { try start(serve, resources: resources) }

        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        readiness.beginShutdown()
        let delay = serve.settings.operations.shutdownDelaySeconds
        serve.log("event=shutdown signal=\(received == SIGINT ? "SIGINT" : "SIGTERM") delay_s=\(delay)")
        if delay > 0 { keepServing(seconds: delay, unlessSignalled: &stopSignals, log: serve.log) }
        resources.closeAll()
        serve.log("event=stopped")
        exit(0)
    }

    /// Blocks SIGINT/SIGTERM before any thread exists, so every thread inherits the mask and the signals wait for
    /// `sigwait` instead of landing on a worker thread. Returns the set to wait for.
    private static func blockStopSignals() -> sigset_t {
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        return stopSignals
    }

    /// Every step after reading the settings, up to the `listening` line; what they open is on `resources`.
    private static func start(_ serve: ServeSettings, resources: ResourceStack) throws -> Readiness {
        let settings = serve.settings
        let operations = ServeOperations(settings: settings, workerThreads: serve.threads)
        let senders = try ServeSenders(serve)
        // One connection per HTTP thread, and a few for the maintenance task and key reloads.
        let recording = operations.recording
        let store = resources.push(
            try openStore(
                settings, creating: true, connections: serve.threads + 3,
                onWriteRetry: { recording.storeTransactionRetried() }, log: serve.log)
        ) { $0.close() }
        // Bind first, to know the port the public URL needs; the socket listens only once the
        // server can answer, so no client is ever told "not ready".
        let socket = try listening(on: settings) { try HTTPServer.bind(host: settings.host, port: settings.port) }
        let site = ServeSite(serve, port: socket.port)
        let time = SystemTimeSource()
        let built = try ServePlatform(
            serve, site: site, senders: senders, store: store, operations: operations, time: time, resources: resources)
        let listeners = try ServeListeners(
            serve, socket: socket, site: site, senders: senders, platform: built.platform,
            devProviders: built.devProviders, operations: operations, time: time, resources: resources)
        built.maintenance.start()
        printBanner(
            settings: settings, publicURL: site.publicURL, project: site.project, sealer: store.sealer,
            providers: built.platform.identityProviders.providerIDs)
        // Last, once the server answers: supervisors and tests wait for this line, and it names the real address
        // (the port chosen for --port 0) whatever --public-url says.
        serve.log("event=listening address=\(socket.boundAddress)")
        return listeners.readiness
    }

    /// Runs a step of taking the listening address (bind, then listen); if it fails, says which address could not
    /// be used.
    static func listening<T>(on settings: Settings, _ step: () throws -> T) throws -> T {
        do {
            return try step()
        } catch {
            throw StartupError("cannot listen on \(settings.host):\(settings.port): \(error)")
        }
    }

    /// Waits `seconds` while the listener keeps answering (and `/readyz` says 503), so that load balancers take this
    /// instance out before it closes; a second SIGINT or SIGTERM ends the wait at once.
    private static func keepServing(seconds: Int, unlessSignalled signals: inout sigset_t, log: (String) -> Void) {
        var timeout = timespec(tv_sec: seconds, tv_nsec: 0)
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while true {
            let signal = sigtimedwait(&signals, nil, &timeout)
            if signal > 0 {
                log("event=shutdown_delay_ended signal=\(signal == SIGINT ? "SIGINT" : "SIGTERM")")
                return
            }
            // Interrupted by another signal (EINTR): wait out what is left; EAGAIN: the delay is over.
            let left = deadline.timeIntervalSinceNow
            guard errno == EINTR, left > 0 else { return }
            timeout = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
        }
    }
}
