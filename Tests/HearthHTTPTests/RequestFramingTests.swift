import Synchronization
import Testing
@testable import HearthHTTP

@Suite("Request framing (smuggling)")
struct RequestFramingTests {
    /// A second request hidden after the first one's body; it asks the server to close afterwards.
    private static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    /// Sends `head` + `body` on one connection and returns every response the server sent before
    /// closing it, with how often the handler ran.
    private func responses(_ head: String, body: String) throws -> (responses: [RawResponse], handlerCalls: Int, closed: Bool) {
        let calls = Atomic<Int>(0)
        return try withServer(handler: { request in
            calls.add(1, ordering: .relaxed)
            return .text("handled \(request.path)")
        }) { server in
            let connection = try RawConnection(port: server.port)
            connection.send(head + body)
            var responses: [RawResponse] = []
            while let response = connection.readResponse() {
                responses.append(response)
            }
            let closed = connection.readUntilEnd() == .closed
            return (responses, calls.load(ordering: .relaxed), closed)
        }
    }

    @Test("Content-Length with Transfer-Encoding: one 400, connection closed, the smuggled request never runs",
          arguments: [
              "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n",
              "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
              "POST /a HTTP/1.1\r\nHost: x\r\ncontent-length: 0\r\ntransfer-encoding: CHUNKED\r\n\r\n",
          ])
    func contentLengthAndTransferEncoding(head: String) throws {
        let result = try responses(head, body: "0\r\n\r\n" + Self.smuggled)
        #expect(result.responses.count == 1)
        #expect(result.responses.first?.status == 400)
        #expect(result.responses.first?.headers["Connection"]?.lowercased() == "close")
        #expect(result.responses.first?.text == #"{"error":{"code":400,"message":"Request body length is ambiguous"}}"#)
        #expect(result.handlerCalls == 0)
        #expect(result.closed)
    }

    @Test("repeated Content-Length or Transfer-Encoding, or a coding other than chunked, is refused the same way",
          arguments: [
              "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 41\r\n\r\n",
              "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
              "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
              "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
              "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n\r\n",
          ])
    func otherAmbiguousFraming(head: String) throws {
        let result = try responses(head, body: "0\r\n\r\n" + Self.smuggled)
        #expect(result.responses.map(\.status) == [400])
        #expect(result.handlerCalls == 0)
        #expect(result.closed)
    }

    @Test("plain chunked and plain Content-Length requests are unaffected, keep-alive included")
    func wellFramed() throws {
        let chunked = try responses(
            "POST /a HTTP/1.1\r\nHost: x\r\ntransfer-encoding: Chunked\r\n\r\n", body: "3\r\nabc\r\n0\r\n\r\n" + Self.smuggled)
        #expect(chunked.responses.map(\.text) == ["handled /a", "handled /smuggled"])
        let sized = try responses("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n", body: "abc" + Self.smuggled)
        #expect(sized.responses.map(\.text) == ["handled /a", "handled /smuggled"])
    }
}
