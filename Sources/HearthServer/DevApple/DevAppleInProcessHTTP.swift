import Foundation
public import HearthCore
public import HearthDevProviders
import HearthHTTP
public import HearthProtocol
import Synchronization

/// Hearth's own calls to its dev Apple in `--dev` (code exchanges at sign-in and `revokeToken`, and the maintenance
/// task's revocations), answered in process exactly as `/dev/apple/auth/token` and `/dev/apple/auth/revoke` answer
/// over HTTP. Over HTTP, a call made while a worker thread handles a request could wait for that very thread
/// (libmicrohttpd serves each connection on the worker that accepted it) until the call timed out.
///
/// The dev Apple is made with the platform, after the token client that uses this client: `attach` it then. Until
/// then, and for any other path, a call fails as an unreachable Apple does.
public final class DevAppleInProcessHTTP: OutboundHTTP {
    private let provider = Mutex<DevAppleProvider?>(nil)
    private let log: @Sendable (String) -> Void

    /// - Parameter log: receives a line when the dev Apple fails internally (never a token).
    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// The dev Apple that answers from now on.
    public func attach(_ devApple: DevAppleProvider?) {
        provider.withLock { $0 = devApple }
    }

    /// Answers a form POST to `…/auth/token` or `…/auth/revoke` as the dev Apple's routes would.
    public func send(_ request: OutboundRequest) throws -> OutboundResponse {
        guard let devApple = provider.withLock({ $0 }) else { throw URLError(.cannotConnectToHost) }
        var form: [String: String] = [:]
        for field in FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)) {
            form[field.name] = field.value
        }
        let response: HTTPResponse
        if request.url.path.hasSuffix("/auth/token") {
            response = DevAppleRoutes.token(devApple, form: form, log: log)
        } else if request.url.path.hasSuffix("/auth/revoke") {
            response = DevAppleRoutes.revoke(devApple, form: form, log: log)
        } else {
            throw URLError(.unsupportedURL)
        }
        var answerHeaders: [String: String] = [:]
        for field in response.headers { answerHeaders[field.name] = field.value }
        return OutboundResponse(status: response.status, headers: answerHeaders, body: Data(response.body))
    }
}
