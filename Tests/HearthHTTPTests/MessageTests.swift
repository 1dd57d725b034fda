import Foundation
import Testing
@_spi(Fuzzing) @testable import HearthHTTP

@Suite("Requests, responses and headers (in-process)")
struct MessageTests {
    @Test("path decoding follows RFC 3986: %XX decoded, '+' kept")
    func pathDecoding() {
        #expect(PercentDecoding.decodePath("/v1/accounts%3Alookup") == "/v1/accounts:lookup")
        #expect(PercentDecoding.decodePath("/a+b") == "/a+b")
        #expect(PercentDecoding.decodePath("/caf%C3%A9") == "/café")
        #expect(PercentDecoding.decodePath("/bad%zz%4") == "/bad%zz%4")
        #expect(PercentDecoding.decodePath("/plain") == "/plain")
    }

    @Test("query decoding follows form rules: '+' is a space, repeated keys kept in order")
    func queryDecoding() {
        let request = HTTPRequest(method: .get, path: "/", rawQuery: "q=a+b%2Bc&scope=x&scope=y&flag&empty=&=v&&k%20ey=v%26w")
        #expect(request.query["q"] == "a b+c")
        #expect(request.query["scope"] == "x")
        #expect(request.queryValues("scope") == ["x", "y"])
        #expect(request.query["flag"] == "")
        #expect(request.query["empty"] == "")
        #expect(request.query["k ey"] == "v&w")
        #expect(request.rawQuery == "q=a+b%2Bc&scope=x&scope=y&flag&empty=&=v&&k%20ey=v%26w")

        var changed = request
        changed.rawQuery = "only=1"
        #expect(changed.query == ["only": "1"])
        #expect(changed.queryValues("scope") == [])
    }

    @Test("query pairs split on '&' and '=' bytes, also when a combining mark follows them (found by fuzz-form)")
    func queryDelimitersBeforeCombiningMarks() {
        let request = HTTPRequest(method: .get, path: "/", rawQuery: "a=\u{301}1&\u{301}b=2")
        #expect(request.queryItems.map { "\($0.name)|\($0.value)" } == ["a|\u{301}1", "\u{301}b|2"])
    }

    @Test("header names are case-insensitive; order and repeats are kept")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers.count == 3)

        headers["Set-Cookie"] = "c=3"
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        #expect(headers.count == 2)

        headers["X-New"] = "1"
        headers.remove(name: "CONTENT-TYPE")
        #expect(headers["Content-Type"] == nil)
        #expect(Array(headers).map(\.name) == ["Set-Cookie", "X-New"])

        headers["x-new"] = nil
        #expect(!headers.contains(name: "X-New"))
        #expect(!"Content-Type".equalsIgnoringASCIICase("Content-Typf"))
        #expect(!"a".equalsIgnoringASCIICase("A!"))
        #expect(!"[".equalsIgnoringASCIICase("{"))
    }

    @Test("header descriptions redact credentials")
    func headerDescriptionRedacts() {
        let headers: HTTPHeaders = ["Authorization": "Bearer secret-token", "Accept": "*/*"]
        #expect(!headers.description.contains("secret-token"))
        #expect(headers.description.contains("*/*"))
    }

    @Test("response factories set content types")
    func responseFactories() {
        let json = HTTPResponse.json(Data(#"{"a":1}"#.utf8), status: 201)
        #expect(json.status == 201)
        #expect(json.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(json.body == Array(#"{"a":1}"#.utf8))
        #expect(HTTPResponse.text("hi").headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(HTTPResponse.html("<p>").headers["Content-Type"] == "text/html; charset=utf-8")
        let redirect = HTTPResponse.redirect(to: "https://example.com/cb?code=1")
        #expect(redirect.status == 302)
        #expect(redirect.headers["Location"] == "https://example.com/cb?code=1")
    }

    @Test("default error body is the JSON error envelope")
    func defaultErrorBody() throws {
        let response = HTTPStatusError(status: 413, reason: "Too \"big\"\n").defaultResponse
        #expect(response.status == 413)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":{"code":413,"message":"Too \"big\"\n"}}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: [String: Any]]
        #expect(parsed?["error"]?["code"] as? Int == 413)
    }

    @Test("log lines are one line, in a fixed order, with unsafe path bytes escaped")
    func logLine() {
        let entry = RequestLogEntry(method: .post, path: "/v1/a b\n\"x\"", status: 200, durationMicroseconds: 12,
                                    requestBytes: 3, responseBytes: 4, remoteAddress: "127.0.0.1")
        #expect(entry.logLine == #"method=POST path=/v1/a%20b%0A%22x%22 status=200 duration_us=12 request_bytes=3 response_bytes=4 remote=127.0.0.1"#)
        var aborted = entry
        aborted.aborted = true
        aborted.remoteAddress = nil
        #expect(aborted.logLine.hasSuffix("remote=- aborted=true"))
    }
}
