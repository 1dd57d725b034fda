import Testing
import HearthHTTP

@Suite("Bound address")
struct BoundAddressTests {
    @Test("a bound socket names the numeric address and the port it took, for port 0 and for a host name")
    func numericAddressAndRealPort() throws {
        let any = try HTTPServer.bind(host: "127.0.0.1", port: 0)
        #expect(any.port != 0)
        #expect(any.boundAddress == "127.0.0.1:\(any.port)")
        let named = try HTTPServer.bind(host: "localhost", port: 0)
        #expect(["127.0.0.1:\(named.port)", "[::1]:\(named.port)"].contains(named.boundAddress), "\(named.boundAddress)")
        let wildcard = try HTTPServer.bind(host: "0.0.0.0", port: 0)
        #expect(wildcard.boundAddress == "0.0.0.0:\(wildcard.port)")
    }
}
