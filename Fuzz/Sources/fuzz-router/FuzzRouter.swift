import FuzzSupport
import HearthHTTP
import HearthProtocol
import HearthServer

/// Hearth's route table and every handler behind it (`IdentityServer.handle`, over HearthHTTP's `Router`), called
/// in-process with the request the input's HTTP text describes (see `RawRequest`).
///
/// Bad input must get a clear answer: never a 500, and a JSON body (the error envelope) must be valid JSON. No
/// header a handler sets may carry CR, LF or NUL (the daemon would drop it; a handler should not make one).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let request = RawRequest.parse(UnsafeBufferPointer(start: data, count: size))
    let response = state.next().handle(request)

    require(response.status != 500, "500 for \(request.method) \(request.path)")
    require((100...599).contains(response.status), "status \(response.status)")
    for (name, value) in response.headers {
        require(!value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "header \(name) carries CR, LF or NUL")
    }
    if response.headers["Content-Type"]?.hasPrefix("application/json") == true {
        require((try? JSONValue(parsing: response.body)) != nil, "invalid JSON from \(request.method) \(request.path)")
    }
    return 0
}

/// The server, rebuilt every `inputsPerFixture` inputs so that what sign-ins store cannot grow without bound over a
/// long run, and after an input rotated or revoked the known session. (A finding that needs earlier inputs' state may then not reproduce alone; none has so far.)
private struct State {
    static let inputsPerFixture = 20_000
    private var fixture = Fixture()
    private var inputs = 0

    mutating func next() -> IdentityServer {
        inputs += 1
        if inputs > Self.inputsPerFixture || !fixture.restoreUser() {
            fixture = Fixture()
            inputs = 1
            _ = fixture.restoreUser()
        }
        return fixture.server
    }
}

/// libFuzzer calls the entry point from one thread only.
nonisolated(unsafe) private var state = State()
