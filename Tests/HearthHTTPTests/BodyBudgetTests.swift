import Testing
@testable import HearthHTTP

private let bodyCounter: HTTPHandler = { request in .text("\(request.body.count)") }

@Suite("Body budget")
struct BodyBudgetTests {
    /// 64 KiB bodies allowed, 48 KiB of them across all requests, the first 1 KiB of each free.
    private static let configuration = HTTPServer.Configuration(
        maxBodyBytes: 64 * 1024, requestTimeout: 60, bodyBudgetBytes: 48 * 1024, smallBodyBytes: 1024)

    private func post(_ port: UInt16, length: Int, sending: Int? = nil) throws -> RawResponse? {
        try exchange(port: port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n",
                     body: [UInt8](repeating: 0x61, count: sending ?? length))
    }

    @Test("a declared body with no room left gets 503 before it is sent; small requests are still served")
    func declaredBodyOverBudget() throws {
        try withServer(Self.configuration, handler: bodyCounter) { server in
            // A stalled upload holds 40 KiB (less the free 1 KiB) of the 48 KiB budget.
            let stalled = try RawConnection(port: server.port)
            stalled.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 40960\r\n\r\n")
            stalled.send([UInt8](repeating: 0x62, count: 10_000))
            #expect(eventually { server.reservedBodyBytes == 40960 - 1024 })

            // Only the head is sent: the answer comes from the declared length alone.
            let refused = try post(server.port, length: 20_000, sending: 0)
            #expect(refused?.status == 503)
            #expect(refused?.headers["Connection"]?.lowercased() == "close")
            #expect(refused?.headers["Retry-After"] == "1")
            #expect(refused?.text == #"{"error":{"code":503,"message":"Server is busy receiving other requests; try again"}}"#)

            #expect(try post(server.port, length: 1000)?.text == "1000")

            stalled.send([UInt8](repeating: 0x62, count: 40960 - 10_000))
            #expect(stalled.readResponse()?.text == "40960")
            #expect(eventually { server.reservedBodyBytes == 0 })
            #expect(try post(server.port, length: 20_000)?.text == "20000")
        }
    }

    @Test("a chunked body that outgrows the budget gets 503 when it ends, and is not kept")
    func chunkedBodyOverBudget() throws {
        var configuration = Self.configuration
        configuration.bodyBudgetBytes = 8 * 1024
        try withServer(configuration, handler: bodyCounter) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "400\r\n" + String(repeating: "c", count: 1024) + "\r\n"
            for _ in 0..<20 {
                connection.send(chunk)
            }
            #expect(server.reservedBodyBytes <= 8 * 1024)
            connection.send("0\r\n\r\n")
            let response = connection.readResponse()
            #expect(response?.status == 503)
            #expect(response?.headers["Connection"]?.lowercased() == "close")
            #expect(connection.readUntilEnd() == .closed)
            #expect(eventually { server.reservedBodyBytes == 0 })
            // Within the budget, chunked bodies are fine.
            let small = try exchange(port: server.port, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                                     body: Array((chunk + chunk + "0\r\n\r\n").utf8))
            #expect(small?.text == "2048")
        }
    }

    @Test("a declared length is reserved and allocated once, exactly")
    func declaredLengthReservedExactly() {
        let budget = BodyBudget(limit: 1 << 20, smallBodyBytes: 1024)
        var buffer = BodyBuffer()
        let planned = buffer.expect(100_000, budget: budget)
        #expect(planned)
        #expect(budget.reservedBytes == 100_000 - 1024)
        let chunk = [UInt8](repeating: 1, count: 1000)
        var capacities = Set<Int>()
        for _ in 0..<100 {
            let appended = chunk.withUnsafeBytes { buffer.append($0, maxBytes: 1 << 20, budget: budget) }
            #expect(appended)
            capacities.insert(buffer.bytes.capacity)
        }
        #expect(capacities.count == 1)
        #expect(capacities.first.map { $0 >= 100_000 && $0 < 100_000 + 4096 } == true)
        #expect(budget.reservedBytes == 100_000 - 1024)
        buffer.release(to: budget)
        #expect(budget.reservedBytes == 0)
    }

    @Test("a chunked body grows by doubling, never past the body limit, reserving before it allocates")
    func chunkedGrowthCapped() {
        let limit = 600_000
        let budget = BodyBudget(limit: 1 << 20, smallBodyBytes: 0)
        var buffer = BodyBuffer()
        let chunk = [UInt8](repeating: 1, count: 1000)
        for _ in 0..<limit / 1000 {
            let appended = chunk.withUnsafeBytes { buffer.append($0, maxBytes: limit, budget: budget) }
            #expect(appended)
            #expect(budget.reservedBytes >= buffer.bytes.count)
        }
        #expect(buffer.bytes.count == limit)
        #expect(budget.reservedBytes == limit)
        #expect(buffer.bytes.capacity < limit + 4096)
    }

    @Test("the budget refuses what does not fit and reports the end of a burst once")
    func budgetAccounting() {
        let budget = BodyBudget(limit: 100, smallBodyBytes: 0)
        #expect(!budget.takeBurstEnded())
        #expect(budget.reserve(60))
        #expect(!budget.reserve(41))
        #expect(budget.reserve(40))
        #expect(!budget.takeBurstEnded())
        budget.release(100)
        #expect(budget.takeBurstEnded())
        #expect(!budget.takeBurstEnded())
    }
}
