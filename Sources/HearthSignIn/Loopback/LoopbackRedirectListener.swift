import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Musl)
private let streamSocketType = SOCK_STREAM
private let sendFlags = MSG_NOSIGNAL
#else
private let streamSocketType = SOCK_STREAM
private let sendFlags: Int32 = 0  // SO_NOSIGPIPE is set on each socket instead
#endif

/// One HTTP request the listener received.
struct LoopbackRequest: Sendable, Equatable {
    var method: String
    /// The request target as sent, e.g. `/oauth2callback?code=…&state=…`.
    var target: String
    /// The `Content-Type` header, if any (a `form_post` response is `application/x-www-form-urlencoded`).
    var contentType: String? = nil
    /// The body (`Content-Length` bytes; empty for GET).
    var body: [UInt8] = []

    /// The target's path, without the query.
    var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }
}

/// What the listener answers, and whether it stops listening afterwards.
struct LoopbackReply: Sendable, Equatable {
    var status: Int
    var title: String
    var message: String
    /// Stop listening once this reply is sent (the flow has its response).
    var finishesFlow = false
}

/// The RFC 8252 §7.3 loopback redirect receiver: a minimal HTTP/1.1 responder on `127.0.0.1`, ephemeral port,
/// over POSIX sockets on its own thread.
///
/// It binds in `init`, so the port (and so the redirect URI) is known before the authorization request is built.
/// Each connection may send at most 8 KiB of request head and, with a `Content-Length`, 16 KiB of body (a
/// `form_post` authorization response: a code, an ID token, the state and Apple's `user` JSON) within 10 seconds;
/// a larger request is answered 413 or 431 without being read, and a chunked one 411. A slow or idle client
/// (browsers open speculative connections) never holds up the others, because one `poll` loop serves all of them.
/// For every complete request the `respond` closure decides the answer; after a reply that finishes the flow the
/// listener closes everything and its thread ends.
final class LoopbackRedirectListener: Sendable {
    /// The port the kernel chose.
    let port: UInt16

    static let maximumRequestBytes = 8 * 1024
    static let maximumBodyBytes = 16 * 1024
    static let clientTimeoutNanoseconds: UInt64 = 10 * 1_000_000_000
    static let maximumClients = 16

    private enum Lifecycle {
        case idle, running, stopped
    }

    private let listenDescriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let lifecycle = Locked(Lifecycle.idle)
    private let exited = DispatchSemaphore(value: 0)

    /// Binds `127.0.0.1:0` and listens.
    init() throws(SignInError) {
        let descriptor = socket(AF_INET, streamSocketType, 0)
        guard descriptor >= 0 else { throw Self.failure("socket") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let error = Self.failure("bind 127.0.0.1")
            close(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard named == 0, pipe(&pipeEnds) == 0 else {
            let error = Self.failure("getsockname/pipe")
            close(descriptor)
            throw error
        }
        for end in [descriptor] + pipeEnds { Self.configure(end) }
        listenDescriptor = descriptor
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        // Only an unstarted listener still owns descriptors here: a running one is kept alive by its thread.
        lifecycle.withLock { state in
            if state == .idle { closeDescriptors() }
            state = .stopped
        }
    }

    /// Starts serving on a new thread.
    func start(_ respond: @escaping @Sendable (LoopbackRequest) -> LoopbackReply) {
        let started = lifecycle.withLock { state -> Bool in
            guard state == .idle else { return false }
            state = .running
            return true
        }
        guard started else { return }
        let thread = Thread { [self] in
            serve(respond)
            lifecycle.withLock { state in
                closeDescriptors()
                state = .stopped
            }
            exited.signal()
        }
        thread.name = "HearthSignIn loopback listener"
        thread.start()
    }

    /// Stops listening and closes every connection; returns once the port is closed. Idempotent.
    func stop() {
        let wasRunning = lifecycle.withLock { state -> Bool in
            switch state {
            case .idle:
                closeDescriptors()
                state = .stopped
                return false
            case .running:
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
                return true
            case .stopped:
                return false
            }
        }
        if wasRunning {
            exited.wait()
            exited.signal()  // let a concurrent or later stop() through too
        }
    }

    private func closeDescriptors() {
        close(listenDescriptor)
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: - The poll loop (listener thread only)

    private struct Client {
        var buffer: [UInt8] = []
        var deadline: UInt64
    }

    private func serve(_ respond: @Sendable (LoopbackRequest) -> LoopbackReply) {
        var clients: [Int32: Client] = [:]
        defer {
            for descriptor in clients.keys { close(descriptor) }
        }
        while true {
            var descriptors = [
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listenDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let order = Array(clients.keys)
            descriptors += order.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let now = DispatchTime.now().uptimeNanoseconds
            let nearest = clients.values.map(\.deadline).min()
            let timeout = nearest.map { Int32(clamping: ($0 > now ? $0 - now : 0) / 1_000_000 + 1) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[0].revents != 0 { return }  // stop()
            if descriptors[1].revents & Int16(POLLIN) != 0 { acceptClients(into: &clients) }
            for (index, descriptor) in order.enumerated() where descriptors[index + 2].revents != 0 {
                guard var client = clients[descriptor] else { continue }
                switch readRequest(descriptor, into: &client) {
                case .needMore:
                    clients[descriptor] = client
                case .closed:
                    clients[descriptor] = nil
                    close(descriptor)
                case .refused(let reply):
                    clients[descriptor] = nil
                    finish(descriptor, reply)
                case .complete(let request):
                    clients[descriptor] = nil
                    let reply = respond(request)
                    finish(descriptor, reply)
                    if reply.finishesFlow { return }
                }
            }
            let later = DispatchTime.now().uptimeNanoseconds
            for (descriptor, client) in clients where client.deadline <= later {
                clients[descriptor] = nil
                close(descriptor)
            }
        }
    }

    private func acceptClients(into clients: inout [Int32: Client]) {
        while true {
            let descriptor = accept(listenDescriptor, nil, nil)
            guard descriptor >= 0 else { return }  // EAGAIN: none left (or a transient error)
            Self.configure(descriptor)
            if clients.count >= Self.maximumClients,
                let oldest = clients.min(by: { $0.value.deadline < $1.value.deadline })?.key
            {
                clients[oldest] = nil
                close(oldest)
            }
            clients[descriptor] = Client(deadline: DispatchTime.now().uptimeNanoseconds + Self.clientTimeoutNanoseconds)
        }
    }

    enum ReadResult: Equatable {
        case needMore, closed
        case refused(LoopbackReply)
        case complete(LoopbackRequest)
    }

    /// Reads what is available; complete once the head ends with an empty line and the `Content-Length` bytes of
    /// body that follow it have arrived.
    private func readRequest(_ descriptor: Int32, into client: inout Client) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return .closed }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .needMore : .closed
            }
            client.buffer += chunk[0..<count]
            let result = Self.parse(client.buffer)
            if result != .needMore { return result }
        }
    }

    /// What the bytes received so far amount to: a complete request, a refusal, or not enough yet.
    static func parse(_ bytes: [UInt8]) -> ReadResult {
        guard let end = headEnd(bytes) else {
            return bytes.count > maximumRequestBytes + 4 ? .refused(tooLarge(431)) : .needMore
        }
        guard end <= maximumRequestBytes else { return .refused(tooLarge(431)) }
        let head = Array(bytes[..<end])
        guard var request = requestLine(head) else {
            return .refused(LoopbackReply(status: 400, title: "Bad request", message: "This is not an HTTP request."))
        }
        let headers = headerFields(head)
        if headers["transfer-encoding"] != nil {
            return .refused(LoopbackReply(status: 411, title: "Length required", message: "Send a Content-Length."))
        }
        var length = 0
        if let text = headers["content-length"] {
            guard let value = Int(text), value >= 0 else {
                return .refused(LoopbackReply(status: 400, title: "Bad request", message: "The Content-Length is invalid."))
            }
            length = value
        }
        guard length <= maximumBodyBytes else { return .refused(tooLarge(413)) }
        let bodyStart = end + 4
        guard bytes.count >= bodyStart + length else { return .needMore }
        request.contentType = headers["content-type"]
        request.body = Array(bytes[bodyStart..<(bodyStart + length)])
        return .complete(request)
    }

    private static func tooLarge(_ status: Int) -> LoopbackReply {
        LoopbackReply(status: status, title: "Request too large", message: "The request is too large.")
    }

    /// The header fields after the request line, names lowercased; a repeated field keeps its first value.
    static func headerFields(_ head: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for line in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// `METHOD target HTTP/1.x` from the first line, or nil.
    static func requestLine(_ head: [UInt8]) -> LoopbackRequest? {
        let line = head.split(separator: 13, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let parts = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), !parts[0].isEmpty, parts[1].hasPrefix("/") else { return nil }
        return LoopbackRequest(method: String(parts[0]), target: String(parts[1]))
    }

    /// Sends the reply, then closes the connection.
    private func finish(_ descriptor: Int32, _ reply: LoopbackReply) {
        let bytes = Array(Self.render(reply).utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, sendFlags) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }  // the reply fits the socket buffer; give up on anything else
            sent += count
        }
        shutdown(descriptor, Int32(SHUT_WR))
        close(descriptor)
    }

    static func render(_ reply: LoopbackReply) -> String {
        let body = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTMLText.escape(reply.title))</title>
            <style>body{font-family:system-ui,sans-serif;max-width:32em;margin:4em auto;padding:0 1em;color:#202124}</style>
            </head><body><h1>\(HTMLText.escape(reply.title))</h1><p>\(HTMLText.escape(reply.message))</p></body></html>

            """
        let reasons = [
            200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 411: "Length Required",
            413: "Content Too Large", 415: "Unsupported Media Type", 431: "Request Header Fields Too Large",
        ]
        return "HTTP/1.1 \(reply.status) \(reasons[reply.status] ?? "Error")\r\n"
            + "Content-Type: text/html; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\n"
            + "Referrer-Policy: no-referrer\r\n"
            + "X-Content-Type-Options: nosniff\r\n"
            + "Connection: close\r\n\r\n" + body
    }

    // MARK: - Descriptor helpers

    /// Non-blocking, close-on-exec (the browser launcher must not inherit it), and no SIGPIPE on Apple platforms.
    private static func configure(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func failure(_ call: String) -> SignInError {
        SignInError(.unknown, "Cannot start the loopback listener (\(call)): \(String(cString: strerror(errno)))")
    }
}

enum HTMLText {
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
