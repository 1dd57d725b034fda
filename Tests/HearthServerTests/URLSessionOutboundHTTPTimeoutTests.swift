import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthHTTP
import HearthOutbound
import HearthProtocol
import Testing

@Suite("URLSessionOutboundHTTP: timeout")
struct URLSessionOutboundHTTPTimeoutTests {
    @Test("a server that never answers makes the GET fail with a timeout, not hang")
    func neverAnswers() throws {
        let release = DispatchSemaphore(value: 0)
        let server = HTTPServer(configuration: .init(port: 0)) { _ in
            _ = release.wait(timeout: .now() + 30)
            return HTTPResponse.text("too late")
        }
        try server.start()
        defer {
            release.signal()
            server.shutdown(gracePeriod: .seconds(1))
        }
        let http = URLSessionOutboundHTTP(timeout: 0.5)
        let error = #expect(throws: URLError.self) {
            _ = try http.send(.get(URL(string: "http://127.0.0.1:\(server.port)/tokeninfo")!))
        }
        #expect(error?.code == .timedOut)
    }
}
