public import Foundation
public import HearthCore
import HearthHTTP
import Synchronization

/// Hearth's own calls to its dev Apple in `--dev` (code exchanges at sign-in and `revokeToken`, and the maintenance
/// task's revocations), answered in process exactly as `/dev/apple/auth/token` and `/dev/apple/auth/revoke` answer
/// over HTTP. Over HTTP, a call made while a worker thread handles a request could wait for that very thread
/// (libmicrohttpd serves each connection on the worker that accepted it) until the call timed out.
///
/// The dev Apple is made with the platform, after the token client that uses this poster: `attach` it then. Until
/// then, and for any other path, a call fails as an unreachable Apple does.
public final class DevAppleInProcessPoster: HTTPFormPosting {
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

    public func postForm(_ url: URL, fields: [(name: String, value: String)], headers: [String: String]) throws -> FetchedResponse {
        guard let devApple = provider.withLock({ $0 }) else { throw URLError(.cannotConnectToHost) }
        var form: [String: String] = [:]
        for field in fields { form[field.name] = field.value }
        let response: HTTPResponse
        if url.path.hasSuffix("/auth/token") {
            response = DevAppleRoutes.token(devApple, form: form, log: log)
        } else if url.path.hasSuffix("/auth/revoke") {
            response = DevAppleRoutes.revoke(devApple, form: form, log: log)
        } else {
            throw URLError(.unsupportedURL)
        }
        var answerHeaders: [String: String] = [:]
        for field in response.headers { answerHeaders[field.name] = field.value }
        return FetchedResponse(status: response.status, headers: answerHeaders, body: Data(response.body))
    }
}
