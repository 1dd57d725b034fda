import FuzzSupport
import Glibc
@_spi(Fuzzing) import HearthHTTP

/// HTTP request handling through the real daemon: HearthHTTP's `HTTPServer` (libmicrohttpd and Hearth's callbacks),
/// started once per process on `127.0.0.1:0` with a handler that reads every part of the request.
///
/// Each input goes to the server as raw bytes on a new connection, which then half-closes, reads the answer and
/// resets. The handler closes the connection after its response unless the request asks for `Connection:
/// keep-alive`, so most inputs end as soon as they are answered and pipelined requests can still be fuzzed (see
/// `Connection.readAnswer`). Besides crashes and memory errors, the server must never keep request state past a
/// connection: once the connection is gone, no request state is alive and no request is in flight.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let connection = Connection(port: server.port)
    connection.send(UnsafeRawBufferPointer(start: data, count: size))
    let answer = connection.readAnswer()
    connection.reset()
    require(answer.bytes.isEmpty || answer.bytes.starts(with: Array("HTTP/1.".utf8)), "the server answered something not HTTP")

    var polls = 0
    while server.liveRequestStates != 0 || server.inFlightRequests != 0 {
        polls += 1
        require(polls < 50_000, "request state leaked: \(server.liveRequestStates) alive, \(server.inFlightRequests) in flight")
        usleep(100)
    }
    return 0
}

/// Limits small enough for inputs of a few KB to reach every refusal (413, 431, libmicrohttpd's own 431).
private let server: HTTPServer = {
    signal(SIGPIPE, SIG_IGN)
    let configuration = HTTPServer.Configuration(
        host: "127.0.0.1", port: 0, threadCount: 2, maxBodyBytes: 512, maxHeaderCount: 16, headerMemoryLimit: 2048,
        connectionTimeout: 2, maxConnections: 64, cors: .reflectAnyOrigin)
    let server = HTTPServer(configuration: configuration, handler: { request in
        var summary = "\(request.method) \(request.path) \(request.rawQuery.utf8.count)"
        for (name, value) in request.queryItems { summary += " \(name)=\(value)" }
        for (name, value) in request.headers { summary += " \(name): \(value)" }
        summary += " \(request.body.count) \(request.remoteAddress ?? "-")"
        var response = HTTPResponse.text(summary)
        if request.headers["Connection"]?.lowercased() != "keep-alive" {
            response.headers["Connection"] = "close"
        }
        return response
    }, log: { entry in _ = entry.logLine })
    do {
        try server.start()
    } catch {
        fatalError("the fuzzing server does not start: \(error)")
    }
    return server
}()
