import Foundation
import HearthHTTP

/// A local HTTP server standing in for a webhook endpoint (an SMS or email gateway): answers 200 and keeps every
/// body it was sent, in order.
final class WebhookReceiver: Sendable {
    private let received = Locked<[Data]>([])
    private let server: HTTPServer

    init() throws {
        let received = received
        server = HTTPServer(configuration: .init(port: 0, threadCount: 2)) { request in
            received.withLock { $0.append(Data(request.body)) }
            return HTTPResponse(status: 200)
        }
        try server.start()
    }

    /// The port it listens on (loopback).
    var port: UInt16 { server.port }
    /// The bodies received so far.
    var bodies: [Data] { received.value }

    func stop() { server.shutdown(gracePeriod: .seconds(1)) }
}
