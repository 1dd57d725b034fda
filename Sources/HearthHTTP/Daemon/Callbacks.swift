internal import CMicroHTTPD
import Glibc
import Synchronization

// The C-convention trampolines libmicrohttpd calls. Each receives the `ServerContext` through its
// `cls` pointer (see `Daemon.start`) and per-request state through `con_cls` (see `RequestState`).
// They run on the daemon's worker threads.
//
// Related libmicrohttpd documentation: https://www.gnu.org/software/libmicrohttpd/manual/libmicrohttpd.html

/// `MHD_OPTION_URI_LOG_CALLBACK`: called once per request with the undecoded request target,
/// before libmicrohttpd splits off the query. Its return value becomes the request's `con_cls`.
func hearthURILog(
    _ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>, _ connection: OpaquePointer
) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let context = ServerContext.from(cls)
    let state = RequestState(target: uri, remoteAddress: remoteAddress(of: connection), connection: trackedConnection(of: connection))
    state.connection?.requestStarted(now: state.startNanoseconds, requestTimeout: context.tracker.requestTimeout)
    return retain(state, context)
}

/// Counts a new request state, retains it for `con_cls`, and leaves it with its connection until the
/// completion callback takes it back: libmicrohttpd 0.9.75 never completes a request whose query
/// does not fit in its memory pool, so the connection releases such a state when the next request
/// starts or when it closes.
private func retain(_ state: RequestState, _ context: ServerContext) -> UnsafeMutableRawPointer {
    context.liveRequestStates.add(1, ordering: .relaxed)
    let raw = Unmanaged.passRetained(state).toOpaque()
    if let stale = state.connection?.replacePendingRequest(with: raw) {
        release(stale, context)
    }
    return raw
}

/// Releases a request state taken out of `con_cls` (or left behind on its connection): its count,
/// body budget and in-flight mark. Returns it for a last look.
@discardableResult
func release(_ raw: UnsafeMutableRawPointer, _ context: ServerContext) -> RequestState {
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    context.liveRequestStates.subtract(1, ordering: .relaxed)
    state.body.release(to: context.bodyBudget)
    if state.countedInFlight {
        context.inFlight.subtract(1, ordering: .releasing)
    }
    return state
}

/// `MHD_OPTION_UNESCAPE_CALLBACK`: leave the text as it is. Decoding happens in Swift, with the
/// right rules for paths and for queries (`PercentDecoding`).
func hearthNoUnescape(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer, _ text: UnsafeMutablePointer<CChar>) -> Int {
    strlen(text)
}

/// `MHD_OPTION_EXTERNAL_LOGGER`: libmicrohttpd's own diagnostics, routed to the caller instead of stderr.
func hearthDiagnostic(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let cls, let format, let arguments else { return }
    let context = ServerContext.from(cls)
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last == "\n" {
        message.removeLast()
    }
    context.lastDiagnostic.withLock { $0 = message }
    context.diagnostics?(message)
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (response sent, or the connection failed,
/// timed out or was closed by shutdown). Releases the per-request state and its body budget, and
/// writes the log entry.
func hearthRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let context = ServerContext.from(cls)
    if let connection, let tracked = trackedConnection(of: connection) {
        tracked.clearPendingRequest(raw)
    }
    let state = release(raw, context)
    state.connection?.requestEnded(now: monotonicNanoseconds())
    guard let log = context.log else { return }
    var status = state.status
    if status == 0, let connection, let info = hearth_mhd_connection_info(connection, .CONNECTION_INFO_HTTP_STATUS) {
        // A response libmicrohttpd queued itself (for example for a header block that is too large).
        status = Int(info.pointee.http_status)
    }
    let elapsed = (monotonicNanoseconds() &- state.startNanoseconds) / 1_000
    log(RequestLogEntry(
        method: state.method ?? HTTPMethod(rawValue: "-"),
        path: PercentDecoding.decodePath(state.rawPath),
        status: status,
        durationMicroseconds: Int(elapsed),
        requestBytes: state.bodyBytesReceived,
        responseBytes: state.responseBytes,
        remoteAddress: state.remoteAddress,
        aborted: termination != .REQUEST_TERMINATED_COMPLETED_OK))
}

/// The `MHD_AccessHandlerCallback`. libmicrohttpd calls it once when the headers are complete,
/// once per chunk of body, and once more when the request is complete; we answer on the first
/// call only to reject early (400 for a malformed request head or ambiguous framing, 431, 413 from
/// `Content-Length`, 503 when the body budget has no room for it), otherwise on the last.
func hearthAccess(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
    let context = ServerContext.from(cls)
    let state: RequestState
    if let raw = conCls.pointee {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {
        // Not expected (the URI-log callback always runs first), but stay correct without it.
        state = RequestState(target: url, remoteAddress: remoteAddress(of: connection), connection: trackedConnection(of: connection))
        conCls.pointee = retain(state, context)
    }
    let configuration = context.configuration
    guard state.status == 0 else {
        // A response is already queued (an early 413/431); nothing more to do for this request.
        uploadDataSize.pointee = 0
        return .YES
    }

    if !state.sawHeaders {
        state.sawHeaders = true
        state.method = method.map { HTTPMethod(rawValue: String(cString: $0)) } ?? .get
        guard let method, let url, let version,
              RequestHeadSyntax.isStrict(
                  connection: connection, method: method, url: url, version: version, target: state.target,
                  targetLength: state.targetLength)
        else {
            return queue(context.errorRenderer(.malformedRequestHead), on: connection, state: state, context: context,
                         origin: nil, closeConnection: true)
        }

        let headerCount = Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil))
        if headerCount > configuration.maxHeaderCount {
            return queue(context.errorRenderer(.tooManyHeaders), on: connection, state: state, context: context,
                         origin: corsOrigin(connection, state, context))
        }
        if RequestFraming(connection: connection).isAmbiguous {
            return queue(context.errorRenderer(.ambiguousFraming), on: connection, state: state, context: context,
                         origin: corsOrigin(connection, state, context), closeConnection: true)
        }
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
            let length = parseContentLength(declared)
            if length > configuration.maxBodyBytes {
                return queue(context.errorRenderer(.payloadTooLarge), on: connection, state: state, context: context,
                             origin: corsOrigin(connection, state, context))
            }
            // The declared length is reserved now, so a body that cannot fit is refused before any of it is read.
            if length > 0 && !state.body.expect(length, budget: context.bodyBudget) {
                return queue(context.errorRenderer(.bodyBudgetExhausted), on: connection, state: state, context: context,
                             origin: corsOrigin(connection, state, context), closeConnection: true)
            }
        }
        return .YES
    }

    let pending = uploadDataSize.pointee
    if pending > 0 {
        uploadDataSize.pointee = 0
        state.bodyBytesReceived += pending
        if state.bodyRejection == nil, let uploadData {
            // A chunked upload that goes over the limit, or finds no room in the budget: stop keeping
            // bytes and answer at the end.
            if state.body.bytes.count + pending > configuration.maxBodyBytes {
                reject(state, .payloadTooLarge, context)
            } else if !state.body.append(UnsafeRawBufferPointer(start: uploadData, count: pending),
                                         maxBytes: configuration.maxBodyBytes, budget: context.bodyBudget) {
                reject(state, .bodyBudgetExhausted, context)
            }
        } else if state.bodyBytesReceived - configuration.maxBodyBytes > Daemon.overflowDrainAllowance(configuration) {
            // Still sending far past the limit: drop the connection instead of reading on.
            return .NO
        }
        return .YES
    }

    if let rejection = state.bodyRejection {
        return queue(context.errorRenderer(rejection), on: connection, state: state, context: context,
                     origin: corsOrigin(connection, state, context), closeConnection: rejection == .bodyBudgetExhausted)
    }

    // From here until the completion callback the request counts as in flight: shutdown waits for
    // the handler and for its response to go out. (Bodies still uploading are not waited for.)
    markInFlight(state, context)
    let request = HTTPRequest(
        method: state.method ?? .get,
        path: PercentDecoding.decodePath(state.rawPath),
        rawQuery: String(state.rawQuery),
        headers: receivedHeaders(connection),
        body: state.body.take(),
        remoteAddress: state.remoteAddress)

    guard let origin = request.headers["Origin"], let decide = configuration.cors.access else {
        return queue(context.handler(request), on: connection, state: state, context: context, origin: nil)
    }
    let access = decide(request.path, origin)
    let isPreflight = request.method == .options && request.headers.contains(name: "Access-Control-Request-Method")
    switch access {
    case .allow(let privateNetwork) where isPreflight:
        return queue(CORS.preflightResponse(origin: origin, request: request, privateNetwork: privateNetwork),
                     on: connection, state: state, context: context, origin: nil)
    case .refuse:
        return queue(context.errorRenderer(CORS.refused), on: connection, state: state, context: context, origin: nil)
    case .omit where isPreflight:
        return queue(context.errorRenderer(CORS.refused), on: connection, state: state, context: context, origin: nil)
    case .allow:
        return queue(context.handler(request), on: connection, state: state, context: context, origin: origin)
    case .omit:
        return queue(context.handler(request), on: connection, state: state, context: context, origin: nil)
    }
}

/// Stops keeping the body (its memory and budget go back now); `error` is answered when it ends.
private func reject(_ state: RequestState, _ error: HTTPStatusError, _ context: ServerContext) {
    state.bodyRejection = error
    state.body.release(to: context.bodyBudget)
}

/// The request has been received (or is answered early): it is now in flight, and its deadline no
/// longer applies.
private func markInFlight(_ state: RequestState, _ context: ServerContext) {
    guard !state.countedInFlight else { return }
    state.countedInFlight = true
    context.inFlight.add(1, ordering: .acquiringAndReleasing)
    state.connection?.requestReceived()
}

/// The `Origin` header to reflect on an error the server answers itself, when the policy allows it.
private func corsOrigin(_ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext) -> String? {
    guard let decide = context.configuration.cors.access,
          let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin") else { return nil }
    let origin = String(cString: value)
    guard case .allow = decide(PercentDecoding.decodePath(state.rawPath), origin) else { return nil }
    return origin
}

/// Hands a response to libmicrohttpd. `origin` (when CORS is on) adds the reflection headers;
/// `closeConnection` ends the connection after the response.
private func queue(
    _ original: HTTPResponse, on connection: OpaquePointer, state: RequestState, context: ServerContext, origin: String?,
    closeConnection: Bool = false
) -> MHD_Result {
    markInFlight(state, context)
    var response = original
    if let origin {
        CORS.decorate(&response, origin: origin)
    }
    if closeConnection || context.draining.load(ordering: .relaxed) {
        response.headers["Connection"] = "close"
    }
    let status = (100...999).contains(response.status) ? response.status : 500
    // MUST_COPY: libmicrohttpd keeps its own copy, so the Swift array can go right away.
    let created: OpaquePointer? = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, bytes.isEmpty ? nil : UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                        .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse = created else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers where isSendable(name: name, value: value) {
        _ = name.withCString { cName in
            value.withCString { cValue in MHD_add_response_header(mhdResponse, cName, cValue) }
        }
    }
    state.status = status
    state.responseBytes = response.body.count
    return MHD_queue_response(connection, UInt32(status), mhdResponse)
}

/// Header fields we pass on: a token-ish name, no CR/LF/NUL anywhere (no response splitting), and
/// not `Content-Length`, which libmicrohttpd computes itself.
private func isSendable(name: String, value: String) -> Bool {
    guard !name.isEmpty, !name.equalsIgnoringASCIICase("Content-Length") else { return false }
    for byte in name.utf8 where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: ":") {
        return false
    }
    for byte in value.utf8 where byte == 0x0D || byte == 0x0A || byte == 0 {
        return false
    }
    return true
}

/// Copies the request header fields out of libmicrohttpd, in order.
private func receivedHeaders(_ connection: OpaquePointer) -> HTTPHeaders {
    var headers = HTTPHeaders()
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, hearthCollectHeader, pointer)
    }
    return headers
}

private func hearthCollectHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    headers.pointee.appendReceived(name: name, value: text)
    return .YES
}

/// Parses a `Content-Length` value; anything unparsable or absurd counts as "too large", which is
/// only used to reject early (libmicrohttpd itself rejects malformed lengths with 400).
private func parseContentLength(_ text: UnsafePointer<CChar>) -> Int {
    var value = 0
    var pointer = text
    while pointer.pointee == 0x20 || pointer.pointee == 0x09 { pointer += 1 }
    var digits = 0
    while pointer.pointee >= 0x30 && pointer.pointee <= 0x39 {
        let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times.addingReportingOverflow(Int(pointer.pointee - 0x30))
        if overflow1 || overflow2 { return Int.max }
        value = sum
        digits += 1
        pointer += 1
    }
    return digits == 0 ? 0 : value
}

/// The client's IP address, without the port.
private func remoteAddress(of connection: OpaquePointer) -> String? {
    guard let info = hearth_mhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
          let address = info.pointee.client_addr else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
        let ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
            withUnsafePointer(to: inet.pointee.sin_addr) { inet_ntop(AF_INET, $0, &buffer, socklen_t(buffer.count)) != nil }
        }
        return ok ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
    case AF_INET6:
        let ok = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
            withUnsafePointer(to: inet6.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, &buffer, socklen_t(buffer.count)) != nil }
        }
        return ok ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
    default:
        return nil
    }
}
