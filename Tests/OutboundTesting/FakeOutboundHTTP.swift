public import Foundation
public import HearthProtocol
import Synchronization

/// The tests' ``OutboundHTTP``: answers from a script, records every request, and can run a hook inside each call.
public final class FakeOutboundHTTP: OutboundHTTP {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// An HTTP answer.
        case answer(status: Int = 200, headers: [String: String] = [:], body: Data = Data())
        /// No answer: the call throws `URLError(.timedOut)`, as for a server that cannot be reached.
        case unreachable

        /// An answer with a UTF-8 body.
        public static func text(status: Int = 200, headers: [String: String] = [:], _ body: String) -> Reply {
            .answer(status: status, headers: headers, body: Data(body.utf8))
        }
    }

    private struct State {
        var script: @Sendable (OutboundRequest) -> Reply
        var requests: [OutboundRequest] = []
        var hook: (@Sendable (Int) -> Void)?
    }

    private let state: Mutex<State>

    /// Answers every request with `reply` (by default an empty 200).
    public convenience init(_ reply: Reply = .answer()) {
        self.init { _ in reply }
    }

    /// Answers each request with what `script` returns for it.
    public init(answering script: @escaping @Sendable (OutboundRequest) -> Reply) {
        state = Mutex(State(script: script))
    }

    /// Answers every request from now on with `reply`.
    public func set(_ reply: Reply) {
        state.withLock { $0.script = { _ in reply } }
    }

    /// Calls `hook` inside every later call (outside the fake's lock) with the call's number, starting at 1.
    public func onSend(_ hook: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.hook = hook }
    }

    /// Every request so far, oldest first.
    public var requests: [OutboundRequest] { state.withLock { $0.requests } }

    /// How many requests were sent.
    public var count: Int { state.withLock { $0.requests.count } }

    /// How many requests went to `url` (its absolute string).
    public func count(_ url: String) -> Int { state.withLock { $0.requests.count(where: { $0.url.absoluteString == url }) } }

    public func send(_ request: OutboundRequest) throws -> OutboundResponse {
        let (number, script, hook) = state.withLock { state in
            state.requests.append(request)
            return (state.requests.count, state.script, state.hook)
        }
        hook?(number)
        switch script(request) {
        case .answer(let status, let headers, let body): return OutboundResponse(status: status, headers: headers, body: body)
        case .unreachable: throw URLError(.timedOut)
        }
    }
}

extension OutboundRequest {
    /// The fields of a form POST, in order.
    public var formFields: [(name: String, value: String)] {
        FormEncoding.decode(String(decoding: body ?? Data(), as: UTF8.self))
    }

    /// The form fields' values by name (the first of a repeated name).
    public var formValues: [String: String] {
        Dictionary(formFields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
