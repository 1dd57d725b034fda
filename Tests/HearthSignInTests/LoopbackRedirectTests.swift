import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import HearthSignIn

@Suite("Loopback redirect")
struct LoopbackRedirectTests {
    @Test("the browser's GET to 127.0.0.1 completes the flow and gets the success page")
    func redirectCompletesFlow() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        let result = try await signIn.signIn()
        let visit = try #require(browser.visits.current.first)
        #expect(visit.url.host == "127.0.0.1")
        #expect(visit.status == 200)
        #expect(visit.body.contains("Signed in — you can close this window"))
        #expect(result.user.userID == "110169484474386276334")
        #expect(provider.requests(to: "/token").first?.form["code"] == "4/test-code")
        #expect(signIn.currentUser === result.user)
    }

    @Test("the listener stops after the valid redirect")
    func listenerStops() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider)
        _ = try await makeSignIn(provider: provider, clock: clock, browser: browser).signIn()
        let redirect = try #require(provider.state.current.authorization["redirect_uri"])
        await #expect(throws: (any Error).self) {
            try await browser.visit(redirect, ["code": "again", "state": "whatever"])
        }
    }

    @Test("other paths get 404, a wrong or missing state gets 400, and the flow keeps waiting for the right one")
    func strayRequestsDoNotEndTheFlow() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let statuses = Locked<[Int]>([])
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            let redirect = parameters["redirect_uri"]!
            for (query, path) in [
                (["code": "x", "state": parameters["state"]!], "/favicon.ico"),
                (["code": "forged", "state": "not-the-state"], nil),
                (["code": "forged"], nil),
                (["error": "access_denied", "state": "stale-state"], nil),
            ] as [([String: String], String?)] {
                let visit = try await browser.visit(redirect, query, path: path)
                statuses.withLock { $0.append(visit.status) }
            }
            try await browser.visit(redirect, ["code": "4/right-code", "state": parameters["state"]!])
        }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        let result = try await signIn.signIn()
        #expect(statuses.current == [404, 400, 400, 400])
        #expect(browser.visits.current[1].body.contains("state mismatch"))
        #expect(provider.requests(to: "/token").map { $0.form["code"] } == ["4/right-code"])
        #expect(result.user.profile?.email == "jane@example.com")
    }

    @Test("only wrong-state responses until the timeout: state mismatch, code unknown")
    func stateMismatchError() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            try await browser.visit(parameters["redirect_uri"]!, ["code": "forged", "state": "attacker-state"])
        }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn(timeout: .milliseconds(50)) }
        #expect(error?.code == .unknown)
        #expect(error?.message.contains("State mismatch") == true)
        #expect(provider.requests(to: "/token").isEmpty)
        #expect(signIn.currentUser == nil)
    }

    @Test("no response before the timeout: canceled")
    func timeout() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let signIn = makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser())
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn(timeout: .milliseconds(20)) }
        #expect(error?.code == .canceled)
        #expect(error?.message.contains("No sign-in response") == true)
    }

    @Test("cancelling the task cancels the flow")
    func taskCancellation() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ParkedBrowser()
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        let task = Task { try await signIn.signIn() }
        _ = await browser.nextURL()
        task.cancel()
        let error = await #expect(throws: SignInError.self) { try await task.value }
        #expect(error?.code == .canceled)
    }

    @Test("error=access_denied is canceled with GIDSignIn's message")
    func accessDenied() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            try await browser.visit(
                parameters["redirect_uri"]!,
                ["error": "access_denied", "error_description": "The user canceled the sign-in.", "state": parameters["state"]!])
        }
        let signIn = makeSignIn(provider: provider, clock: clock, browser: browser)
        let error = await #expect(throws: SignInError.self) { try await signIn.signIn() }
        #expect(error?.code == .canceled)
        #expect(error?.message == "The user canceled the sign-in flow.")
        #expect(error?.oauthError == "access_denied")
        #expect(browser.visits.current.first?.body.contains("canceled") == true)
        #expect(provider.requests(to: "/token").isEmpty)
    }

    @Test("another error= value is unknown and carries the error and description")
    func otherRedirectError() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            try await browser.visit(
                parameters["redirect_uri"]!,
                ["error": "login_required", "error_description": "prompt=none needs a login_hint.", "state": parameters["state"]!])
        }
        let error = await #expect(throws: SignInError.self) {
            try await makeSignIn(provider: provider, clock: clock, browser: browser).signIn()
        }
        #expect(error?.code == .unknown)
        #expect(error?.oauthError == "login_required")
        #expect(error?.oauthErrorDescription == "prompt=none needs a login_hint.")
        #expect(error?.message.contains("login_required") == true)
    }

    @Test("an idle connection (a browser's speculative connect) does not hold up the redirect")
    func idleClientDoesNotBlock() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            let redirect = URL(string: parameters["redirect_uri"]!)!
            let idle = try connectIdle(port: UInt16(redirect.port!))
            defer { close(idle) }
            try await browser.visit(parameters["redirect_uri"]!, ["code": "4/test-code", "state": parameters["state"]!])
        }
        let result = try await makeSignIn(provider: provider, clock: clock, browser: browser).signIn()
        #expect(result.user.userID != nil)
    }

    @Test("oversized request heads are refused with 431")
    func oversizedRequest() async throws {
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let browser = ScriptedBrowser(provider: provider) { browser, parameters in
            let visit = try await browser.visit(
                parameters["redirect_uri"]!, ["padding": String(repeating: "a", count: 9000), "state": parameters["state"]!])
            #expect(visit.status == 431)
            try await browser.visit(parameters["redirect_uri"]!, ["code": "4/test-code", "state": parameters["state"]!])
        }
        _ = try await makeSignIn(provider: provider, clock: clock, browser: browser).signIn()
    }

    @Test("request lines are parsed strictly")
    func requestLine() {
        #expect(LoopbackRedirectListener.requestLine(Array("GET /oauth2callback?a=b HTTP/1.1\r\nHost: x".utf8))
            == LoopbackRequest(method: "GET", target: "/oauth2callback?a=b"))
        #expect(LoopbackRedirectListener.requestLine(Array("GET http://evil/ HTTP/1.1".utf8)) == nil)
        #expect(LoopbackRedirectListener.requestLine(Array("hello".utf8)) == nil)
    }
}

/// Opens a TCP connection to 127.0.0.1:`port` and sends nothing.
func connectIdle(port: UInt16) throws -> Int32 {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else { throw SignInError(.unknown, "connect failed") }
    return descriptor
}
