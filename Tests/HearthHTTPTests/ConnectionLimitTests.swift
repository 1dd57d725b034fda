import Foundation
import Glibc
import Testing
@testable import HearthHTTP

private let ok: HTTPHandler = { _ in .text("ok") }
private let plainGet = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

/// Header lines for a trickling client: each one is activity that restarts libmicrohttpd's idle timer.
private func headerLines(_ count: Int) -> [String] {
    (0..<count).map { "X-Slow-\($0): 1\r\n" }
}

@Suite("Connection limits")
struct ConnectionLimitTests {
    @Test("connections over the per-address limit are closed at once; other addresses are still served")
    func perAddressLimit() throws {
        try withServer(.init(maxConnectionsPerAddress: 3, requestTimeout: 60), handler: ok) { server in
            let held = try (0..<3).map { _ in try RawConnection(port: server.port, sourceHost: "127.0.0.2") }
            #expect(eventually { server.openConnections == 3 })
            let extra = try RawConnection(port: server.port, sourceHost: "127.0.0.2")
            #expect(extra.readUntilEnd() == .closed)

            #expect(try get(port: server.port, "/")?.status == 200)
            for connection in held {
                connection.send(plainGet)
                #expect(connection.readResponse()?.status == 200)
            }
            // A closed connection frees its address's slot.
            held[0].close()
            let servedAgain = eventually {
                guard let connection = try? RawConnection(port: server.port, sourceHost: "127.0.0.2") else { return false }
                connection.send(plainGet)
                return connection.readResponse()?.status == 200
            }
            #expect(servedAgain)
        }
    }

    @Test("a request trickled one header line at a time is cut off at requestTimeout, though each line is activity")
    func trickledHeaders() throws {
        try withServer(.init(connectionTimeout: 30, requestTimeout: 1), handler: ok) { server in
            let trickler = try RawConnection(port: server.port, receiveTimeoutSeconds: 30)
            trickler.send("GET / HTTP/1.1\r\nHost: x\r\n")
            // 100 lines, 200 ms apart, would take 20 s; the server must end it long before.
            #expect(trickler.trickle(headerLines(100), intervalMilliseconds: 200))
            #expect(try get(port: server.port, "/")?.status == 200)
        }
    }

    @Test("a body trickled one byte at a time is cut off at requestTimeout")
    func trickledBody() throws {
        try withServer(.init(connectionTimeout: 30, requestTimeout: 1), handler: ok) { server in
            let trickler = try RawConnection(port: server.port, receiveTimeoutSeconds: 30)
            trickler.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            #expect(trickler.trickle(Array(repeating: "b", count: 100), intervalMilliseconds: 200))
            #expect(server.reservedBodyBytes == 0)
        }
    }

    @Test("a connection that sends nothing is closed requestTimeout after it was accepted")
    func silentFirstRequest() throws {
        try withServer(.init(connectionTimeout: 60, requestTimeout: 1), handler: ok) { server in
            let silent = try RawConnection(port: server.port, receiveTimeoutSeconds: 30)
            // The idle timeout (60 s) is past the 30 s guard: only the request deadline can close it.
            #expect(silent.readUntilEnd() == .closed)
        }
    }

    @Test("on a keep-alive connection the deadline runs from the next request's first byte, not from the last response")
    func keepAliveDeadline() throws {
        try withServer(.init(connectionTimeout: 60, requestTimeout: 1), handler: ok) { server in
            let connection = try RawConnection(port: server.port, receiveTimeoutSeconds: 30)
            connection.send(plainGet)
            #expect(connection.readResponse()?.status == 200)
            // Idle for longer than the request deadline: a keep-alive client may do that.
            usleep(2_000_000)
            connection.send(plainGet)
            #expect(connection.readResponse()?.status == 200)
            // Now trickle the request line itself: libmicrohttpd has not even seen a request yet.
            connection.send("GET /")
            #expect(connection.trickle(Array(repeating: "a", count: 100), intervalMilliseconds: 200))
        }
    }

    /// Eight connections, busy from six on, when idle ones may stay one second.
    private static let busyAtSix = HTTPServer.Configuration(
        threadCount: 2, connectionTimeout: 60, maxConnections: 8, requestTimeout: 60, busyConnections: 6, busyIdleTimeout: 1)

    @Test("while busy, idle connections are closed to make room for new ones")
    func busyIdleEviction() throws {
        try withServer(Self.busyAtSix, handler: ok) { server in
            let idle = try (0..<8).map { _ in
                try RawConnection(port: server.port, sourceHost: "127.0.0.2", receiveTimeoutSeconds: 30)
            }
            // Every slot is taken by an idle connection; without eviction this waits 60 s in the listen queue.
            #expect(try get(port: server.port, "/")?.status == 200)
            #expect(idle.contains { $0.readUntilEnd() == .closed })
        }
    }

    @Test("when not busy, idle connections stay open past busyIdleTimeout")
    func idleKeptWhenNotBusy() throws {
        try withServer(Self.busyAtSix, handler: ok) { server in
            let idle = try (0..<3).map { _ in try RawConnection(port: server.port) }
            for connection in idle {
                connection.send(plainGet)
                #expect(connection.readResponse()?.status == 200)
            }
            usleep(1_500_000)
            for connection in idle {
                connection.send(plainGet)
                #expect(connection.readResponse()?.status == 200)
            }
        }
    }
}
