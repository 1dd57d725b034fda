import Synchronization
import Testing
@testable import HearthHTTP

/// RFC 9112 §2.2 and §5: a request head with a bare CR, a line not ended by CR LF, a folded field, extra spaces or a
/// control character is refused with 400 and the connection closed, before any route runs.
@Suite("Request head syntax")
struct RequestHeadSyntaxTests {
    /// A request after the first one on the same connection; it must never run after a refused head.
    private static let next = "GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    /// Sends `bytes` on one connection; returns every response the server sent before closing it, and the paths the
    /// handler saw.
    private func responses(_ bytes: [UInt8]) throws -> (responses: [RawResponse], handled: [String], closed: Bool) {
        let handled = Mutex<[String]>([])
        return try withServer(handler: { request in
            handled.withLock { $0.append(request.path) }
            return .text("handled \(request.path) \(request.headers["X-A"] ?? "-")")
        }) { server in
            let connection = try RawConnection(port: server.port)
            connection.send(bytes)
            var responses: [RawResponse] = []
            while let response = connection.readResponse() {
                responses.append(response)
            }
            let closed = connection.readUntilEnd() == .closed
            return (responses, handled.withLock { $0 }, closed)
        }
    }

    @Test("refused with one 400, the connection closed, nothing run",
          arguments: [
              // Bare CR inside a field value, or ending a line.
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\rtwo\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\r\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\r X-B: two\r\n\r\n",
              // LF-only line endings: everywhere, the request line, one field, the blank line.
              "GET /a HTTP/1.1\nHost: x\nX-A: one\n\n",
              "GET /a HTTP/1.1\nHost: x\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\nX-A: one\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\n\n",
              // A bare LF hiding a framing field behind another one.
              "POST /a HTTP/1.1\r\nHost: x\r\nX-A: one\nContent-Length: 4\r\n\r\nbody",
              // CR, a space, a tab or DEL in the request line; extra spaces between its parts.
              "GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET /a?b=\tc HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET /a?b=\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET  /a HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET /a  HTTP/1.1\r\nHost: x\r\n\r\n",
              "G@T /a HTTP/1.1\r\nHost: x\r\n\r\n",
              // Folded fields (obs-fold), also with a bare LF inside.
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\r\n two\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\r\n\ttwo\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\n two\r\n\r\n",
              // A NUL or another control character in a field; a name that is not a token.
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\u{0}two\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A: one\u{1}two\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX-A : one\r\n\r\n",
              "GET /a HTTP/1.1\r\nHost: x\r\nX\tA: one\r\n\r\n",
          ])
    func refused(head: String) throws {
        let result = try responses(Array(head.utf8) + Array(Self.next.utf8))
        #expect(result.handled.isEmpty)
        #expect(result.responses.map(\.status) == [400])
        #expect(result.responses.first?.text == #"{"error":{"code":400,"message":"Request line or header fields are malformed"}}"#)
        #expect(result.responses.first?.headers["Connection"]?.lowercased() == "close")
        #expect(result.closed)
    }

    @Test("well-formed heads are served, keep-alive and pipelining included")
    func wellFormed() throws {
        let heads = [
            "GET /a?x=1&y=%20 HTTP/1.1\r\nHost: x\r\nX-A: one two \r\nX-Empty:\r\nX-Tab:\tv\r\nCookie: a=b; c=d\r\n\r\n",
            "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            "\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nX-A: \u{E9}t\u{E9}\r\n\r\nabc",
            "GET /a/\u{E9} HTTP/1.1\r\nHost: x\r\nX-A: " + String(repeating: "v", count: 20_000) + "\r\n\r\n",
        ]
        for head in heads {
            let result = try responses(Array(head.utf8) + Array(Self.next.utf8))
            #expect(result.responses.map(\.status) == [200, 200], "\(head.prefix(80))")
            #expect(result.handled.count == 2 && result.handled.last == "/next", "\(head.prefix(80))")
        }
        let bare = try responses(Array("GET /a HTTP/1.0\r\n\r\n".utf8))
        #expect(bare.responses.map(\.text) == ["handled /a -"])
    }
}
