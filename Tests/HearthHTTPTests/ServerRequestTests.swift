import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
@testable import HearthHTTP

/// Echoes what the server parsed, as JSON, so tests can look at every field.
let echoHandler: HTTPHandler = { request in
    var object: [String: Any] = [
        "method": request.method.rawValue,
        "path": request.path,
        "rawQuery": request.rawQuery,
        "query": request.query,
        "bodyCount": request.body.count,
        "remote": request.remoteAddress ?? "",
    ]
    object["headers"] = request.headers.map { [$0.name, $0.value] }
    object["queryItems"] = request.queryItems.map { [$0.name, $0.value] }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return .json(data)
}

func decodeEcho(_ response: RawResponse?) -> [String: Any]? {
    guard let response else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
}

@Suite("Request parsing over real sockets")
struct ServerRequestTests {
    @Test("path is percent-decoded with '+' kept; query is separate")
    func pathDecoding() throws {
        try withServer(handler: echoHandler) { server in
            let echo = decodeEcho(try get(port: server.port, "/v1/projects/p%3A1/accounts%3Alookup/a+b%20c?x=1"))
            #expect(echo?["path"] as? String == "/v1/projects/p:1/accounts:lookup/a+b c")
            #expect(echo?["rawQuery"] as? String == "x=1")
            #expect(echo?["remote"] as? String == "127.0.0.1")
            #expect(echo?["method"] as? String == "GET")
        }
    }

    @Test("query: '+' is a space, %XX decoded, repeated keys kept, raw query preserved")
    func queryDecoding() throws {
        try withServer(handler: echoHandler) { server in
            let raw = "key=AIza+x%2By&scope=openid&scope=email&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcb&flag"
            let echo = decodeEcho(try get(port: server.port, "/auth?" + raw))
            #expect(echo?["rawQuery"] as? String == raw)
            let query = echo?["query"] as? [String: String]
            #expect(query?["key"] == "AIza x+y")
            #expect(query?["scope"] == "openid")
            #expect(query?["redirect_uri"] == "http://localhost:8080/cb")
            #expect(query?["flag"] == "")
            let items = echo?["queryItems"] as? [[String]]
            #expect(items?.filter { $0.first == "scope" }.map { $0[1] } == ["openid", "email"])
        }
    }

    @Test("header names are case-insensitive and repeated headers are kept")
    func headers() throws {
        let seen = Mutex<HTTPHeaders?>(nil)
        try withServer(handler: { request in
            seen.withLock { $0 = request.headers }
            return .text("ok")
        }) { server in
            let response = try get(port: server.port, "/", headers: ["x-CuStOm-Header: Value One", "X-Multi: 1", "x-multi: 2"])
            #expect(response?.status == 200)
            let headers = try #require(seen.withLock { $0 })
            #expect(headers["X-Custom-Header"] == "Value One")
            #expect(headers["x-custom-header"] == "Value One")
            #expect(headers.values(for: "X-MULTI") == ["1", "2"])
            #expect(headers["host"] == "127.0.0.1")
        }
    }

    @Test("JSON body round trip through URLSession")
    func jsonRoundTrip() async throws {
        signal(SIGPIPE, SIG_IGN)
        let server = HTTPServer(configuration: .init(), handler: { request in
            guard request.method == .post, request.headers["Content-Type"]?.hasPrefix("application/json") == true else {
                return .text("bad", status: 400)
            }
            return .json(Data(request.body), status: 201)
        })
        try server.start()
        defer { server.shutdown(gracePeriod: .seconds(5)) }

        let payload: [String: Any] = ["idToken": "eyJ.hbGc.iOi", "returnSecureToken": true, "name": "Zoë ✓"]
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/accounts:lookup?key=k")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: payload)
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
        #expect(data == request.httpBody)
    }

    @Test("chunked request bodies are reassembled")
    func chunkedBody() throws {
        try withServer(handler: { request in .init(status: 200, body: request.body) }) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            connection.send("5\r\nhello\r\n")
            connection.send("7\r\n, world\r\n")
            connection.send("0\r\n\r\n")
            let response = connection.readResponse()
            #expect(response?.status == 200)
            #expect(response?.text == "hello, world")
        }
    }

    @Test("keep-alive: several requests on one connection")
    func keepAlive() throws {
        try withServer(handler: { request in .text(request.path) }) { server in
            let connection = try RawConnection(port: server.port)
            for index in 0..<5 {
                connection.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(connection.readResponse()?.text == "/n/\(index)")
            }
        }
    }

    @Test("HEAD gets the headers of the response but no body")
    func head() throws {
        try withServer(handler: { request in .text("twelve bytes") }) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = connection.readResponse(isHead: true)
            #expect(response?.status == 200)
            #expect(response?.headers["Content-Length"] == "12")
            // The next response on the same connection must start right away: no stray body bytes.
            connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.readResponse()?.text == "twelve bytes")
        }
    }

    @Test("response headers with CR/LF are dropped, not sent (no response splitting)")
    func headerInjection() throws {
        try withServer(handler: { _ in
            HTTPResponse(status: 200, headers: ["X-Good": "yes", "X-Evil": "a\r\nSet-Cookie: pwned=1", "Content-Length": "999"],
                         body: Array("ok".utf8))
        }) { server in
            let response = try get(port: server.port, "/")
            #expect(response?.status == 200)
            #expect(response?.headers["X-Good"] == "yes")
            #expect(response?.headers["X-Evil"] == nil)
            #expect(response?.headers["Set-Cookie"] == nil)
            #expect(response?.headers["Content-Length"] == "2")
            #expect(response?.text == "ok")
        }
    }

    @Test("many threads at once all get their own answers")
    func concurrentRequests() throws {
        try withServer(.init(threadCount: 4), handler: { request in .text(request.query["id"] ?? "") }) { server in
            let failures = Atomic<Int>(0)
            let port = server.port
            DispatchQueue.concurrentPerform(iterations: 16) { worker in
                guard let connection = try? RawConnection(port: port) else {
                    failures.add(1, ordering: .relaxed)
                    return
                }
                for index in 0..<40 {
                    let id = "\(worker)-\(index)"
                    connection.send("GET /x?id=\(id) HTTP/1.1\r\nHost: x\r\n\r\n")
                    if connection.readResponse()?.text != id {
                        failures.add(1, ordering: .relaxed)
                    }
                }
            }
            let failed = failures.load(ordering: .relaxed)
            #expect(failed == 0)
        }
    }
}
