import Foundation
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthOutbound
import HearthProtocol
import HearthServer
import Synchronization
import Testing

// MARK: - Fixtures

private let message = SMSMessage(
    phoneNumber: "+15555550100", code: "123456", text: "123456 is your verification code for demo-hearth.",
    purpose: .signIn, sessionInfo: "session-1")

private let secret = "whsec_test_secret"

/// The secret-free parts of an error: no code, message text, secret, token or full number.
private func expectNoSecrets(_ error: SMSDeliveryError, also extra: [String] = []) {
    let text = error.description + String(describing: error)
    for forbidden in [message.code, message.text, message.phoneNumber, secret] + extra {
        #expect(!text.contains(forbidden), "error text leaks \(forbidden)")
    }
    #expect(text.contains("+*******0100"))
}

// MARK: - Development

@Suite("SMSSender: development", .serialized)
struct DevelopmentSMSSenderTests {
    @Test func logsOneLinePerCodeInTheEmulatorsFormat() throws {
        let lines = Recorder<String>()
        let sender = DevelopmentSMSSender(log: { lines.append($0) })
        try sender.send(message)
        try sender.send(SMSMessage(
            phoneNumber: "+447700900123", code: "654321", text: "x", purpose: .enrollment, sessionInfo: "s2"))
        #expect(lines.values == [
            "To verify +15555550100, use the code 123456.",
            "To verify +447700900123, use the code 654321.",
        ])
    }

    @Test func keepsCodesOldestFirstUpToCapacity() throws {
        let sender = DevelopmentSMSSender(log: { _ in }, capacity: 3)
        for index in 1...5 {
            try sender.send(SMSMessage(
                phoneNumber: "+1555555010\(index)", code: "00000\(index)", text: "t", purpose: .signIn,
                sessionInfo: "session-\(index)"))
        }
        #expect(sender.deliveredCodes == (3...5).map {
            DeliveredCode(phoneNumber: "+1555555010\($0)", code: "00000\($0)", sessionInfo: "session-\($0)")
        })
    }

    @Test func defaultCapacityKeepsAThousand() throws {
        let sender = DevelopmentSMSSender(log: { _ in })
        for index in 0..<1001 {
            try sender.send(SMSMessage(
                phoneNumber: "+15555550100", code: String(format: "%06d", index), text: "t", purpose: .signIn,
                sessionInfo: "s\(index)"))
        }
        #expect(sender.deliveredCodes.count == 1000)
        #expect(sender.deliveredCodes.first?.code == "000001")
        #expect(sender.deliveredCodes.last?.code == "001000")
    }

    @Test func removedCodesAreNoLongerListed() throws {
        let sender = DevelopmentSMSSender(log: { _ in })
        try sender.send(message)
        try sender.send(SMSMessage(phoneNumber: "+15555550101", code: "222222", text: "t", purpose: .signIn, sessionInfo: "s2"))
        sender.removeCodes(forSessionInfo: "session-1")
        #expect(sender.deliveredCodes.map(\.code) == ["222222"])
    }

    @Test func deliveredCodesEncodeAsTheEmulatorListsThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(DeliveredCode(phoneNumber: "+1", code: "2", sessionInfo: "3")), as: UTF8.self)
        #expect(json == #"{"code":"2","phoneNumber":"+1","sessionInfo":"3"}"#)
    }
}

// MARK: - Webhook

@Suite("SMSSender: webhook", .serialized)
struct WebhookSMSSenderTests {
    static let expectedBody =
        #"{"to":"+15555550100","code":"123456","text":"123456 is your verification code for demo-hearth.","purpose":"sign-in"}"#

    @Test func postsTheExactJSONBodyWithASignature() throws {
        let receiver = try Receiver(statuses: [204])
        let sleeps = Recorder<Duration>()
        let sender = WebhookSMSSender(url: receiver.url("/hooks/sms"), secret: secret, sleep: { sleeps.append($0) })
        try sender.send(message)

        let requests = receiver.requests.values
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.method == .post)
        #expect(request.path == "/hooks/sms")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(String(decoding: request.body, as: UTF8.self) == Self.expectedBody)
        // Computed independently with `openssl dgst -sha256 -hmac whsec_test_secret` over the expected body.
        #expect(request.headers["X-Hearth-Signature"]
            == "sha256=86a1de9a2a9b8cde0fbe59b61105e423fe4fe183c33cdf90e36007eca253bb14")
        // And the way a receiver verifies it: HMAC-SHA256 of the raw bytes it got.
        #expect(request.headers["X-Hearth-Signature"]
            == "sha256=" + hex(HMAC.sha256(key: Array(secret.utf8), message: request.body)))
        #expect(sleeps.values.isEmpty)
    }

    @Test func theHMACHelperMatchesRFC4231TestCase2() {
        #expect(hex(HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func withoutASecretThereIsNoSignature() throws {
        let receiver = try Receiver(statuses: [200])
        try WebhookSMSSender(url: receiver.url("/"), sleep: { _ in }).send(message)
        try WebhookSMSSender(url: receiver.url("/"), secret: "", sleep: { _ in }).send(message)
        #expect(receiver.requests.values.count == 2)
        #expect(receiver.requests.values.allSatisfy { !$0.headers.contains(name: "X-Hearth-Signature") })
    }

    @Test func escapesTextAndReportsEnrollment() throws {
        let receiver = try Receiver(statuses: [200])
        let tricky = SMSMessage(
            phoneNumber: "+15555550100", code: "000111", text: "Code \"000111\" / für \\ Hearth\n✓", purpose: .enrollment,
            sessionInfo: "s")
        try WebhookSMSSender(url: receiver.url("/"), sleep: { _ in }).send(tricky)
        let body = try #require(receiver.requests.values.first?.body)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])
        #expect(json == ["to": tricky.phoneNumber, "code": "000111", "text": tricky.text, "purpose": "enrollment"])
    }

    @Test func retriesA503ThenSucceedsWithTheSameSignedBody() throws {
        let receiver = try Receiver(statuses: [503, 200])
        let sleeps = Recorder<Duration>()
        try WebhookSMSSender(url: receiver.url("/"), secret: secret, sleep: { sleeps.append($0) }).send(message)
        let requests = receiver.requests.values
        #expect(requests.count == 2)
        #expect(sleeps.values == [.milliseconds(500)])
        #expect(Set(requests.map(\.body)).count == 1)
        #expect(Set(requests.map { $0.headers["X-Hearth-Signature"] ?? "" }).count == 1)
    }

    @Test func givesUpAfterMaxAttemptsWithExponentialBackoff() throws {
        let receiver = try Receiver(statuses: [500])
        let sleeps = Recorder<Duration>()
        let sender = WebhookSMSSender(
            url: receiver.url("/"), secret: secret, maxAttempts: 4, initialBackoff: .milliseconds(100),
            sleep: { sleeps.append($0) })
        let error = try #require(#expect(throws: SMSDeliveryError.self) { try sender.send(message) })
        #expect(receiver.requests.values.count == 4)
        #expect(sleeps.values == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(error.sender == .webhook)
        #expect(error.failure == .status(500))
        #expect(error.attempts == 4)
        #expect(error.description == "webhook SMS delivery to +*******0100 via 127.0.0.1 failed after 4 attempts: HTTP 500")
        expectNoSecrets(error)
    }

    @Test func defaultPolicyIsThreeAttemptsHalfSecondThenOneSecond() throws {
        let receiver = try Receiver(statuses: [502])
        let sleeps = Recorder<Duration>()
        let sender = WebhookSMSSender(url: receiver.url("/"), sleep: { sleeps.append($0) })
        #expect(throws: SMSDeliveryError.self) { try sender.send(message) }
        #expect(receiver.requests.values.count == 3)
        #expect(sleeps.values == [.milliseconds(500), .seconds(1)])
    }

    @Test func doesNotRetryA400() throws {
        let receiver = try Receiver(statuses: [400])
        let sleeps = Recorder<Duration>()
        let sender = WebhookSMSSender(url: receiver.url("/"), secret: secret, sleep: { sleeps.append($0) })
        let error = try #require(#expect(throws: SMSDeliveryError.self) { try sender.send(message) })
        #expect(receiver.requests.values.count == 1)
        #expect(sleeps.values.isEmpty)
        #expect(error.failure == .status(400))
        #expect(error.attempts == 1)
        expectNoSecrets(error)
    }

    @Test func doesNotFollowRedirects() throws {
        var redirect = HTTPResponse(status: 307)
        redirect.headers["Location"] = "/elsewhere"
        let receiver = try Receiver([redirect, HTTPResponse(status: 200)])
        let sender = WebhookSMSSender(url: receiver.url("/hook"), secret: secret, sleep: { _ in })
        let error = try #require(#expect(throws: SMSDeliveryError.self) { try sender.send(message) })
        #expect(error.failure == .status(307))
        #expect(receiver.requests.values.map(\.path) == ["/hook"])
    }

    @Test func retriesNetworkFailuresThenReportsThem() throws {
        // A port that was just bound and released: connections are refused.
        let closed = HTTPServer(configuration: .init(port: 0), handler: { _ in HTTPResponse(status: 200) })
        try closed.start()
        let port = closed.port
        closed.shutdown(gracePeriod: .zero)

        let sleeps = Recorder<Duration>()
        let sender = WebhookSMSSender(
            url: URL(string: "http://127.0.0.1:\(port)/hook?token=query-secret")!, secret: secret, maxAttempts: 2,
            initialBackoff: .milliseconds(10), sleep: { sleeps.append($0) })
        let error = try #require(#expect(throws: SMSDeliveryError.self) { try sender.send(message) })
        #expect(sleeps.values == [.milliseconds(10)])
        #expect(error.attempts == 2)
        guard case .network(let reason) = error.failure else {
            Issue.record("expected a network failure, got \(error.failure)")
            return
        }
        #expect(!reason.isEmpty)
        expectNoSecrets(error, also: ["query-secret", "/hook"])
    }
}

// MARK: - Twilio-compatible

@Suite("SMSSender: Twilio-compatible", .serialized)
struct TwilioSMSSenderTests {
    static let accountSID = "AC0123456789abcdef0123456789abcdef"
    static let authToken = "twilio-auth-token-9f8e7d"

    private func form(_ request: HTTPRequest) -> [String: String] {
        Dictionary(FormEncoding.decode(String(decoding: request.body, as: UTF8.self)).map { ($0.name, $0.value) },
                   uniquingKeysWith: { first, _ in first })
    }

    @Test func postsTheMessagesResourceWithBasicAuthAndAForm() throws {
        let receiver = try Receiver(statuses: [201])
        let sender = TwilioSMSSender(
            baseURL: receiver.url(""), accountSID: Self.accountSID, authToken: Self.authToken, from: "+15555550199",
            sleep: { _ in })
        try sender.send(message)

        let request = try #require(receiver.requests.values.first)
        #expect(receiver.requests.values.count == 1)
        #expect(request.method == .post)
        #expect(request.path == "/2010-04-01/Accounts/\(Self.accountSID)/Messages.json")
        let credentials = Data("\(Self.accountSID):\(Self.authToken)".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == "Basic \(credentials)")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(form(request) == ["To": "+15555550100", "From": "+15555550199", "Body": message.text])
        // `+` must be escaped, or form rules would decode it as a space.
        #expect(String(decoding: request.body, as: UTF8.self).hasPrefix("To=%2B15555550100&From=%2B15555550199&Body="))
    }

    @Test func aMessagingServiceSIDIsSentAsMessagingServiceSid() throws {
        let receiver = try Receiver(statuses: [201])
        let service = "MG0123456789abcdef0123456789abcdef"
        try TwilioSMSSender(
            baseURL: receiver.url(""), accountSID: Self.accountSID, authToken: Self.authToken, from: service,
            sleep: { _ in }
        ).send(message)
        let request = try #require(receiver.requests.values.first)
        #expect(form(request) == ["To": "+15555550100", "MessagingServiceSid": service, "Body": message.text])
    }

    @Test func keepsTheBaseURLsPathPrefix() throws {
        let receiver = try Receiver(statuses: [200])
        try TwilioSMSSender(
            baseURL: receiver.url("/gateway/twilio/"), accountSID: Self.accountSID, authToken: Self.authToken,
            from: "Hearth", sleep: { _ in }
        ).send(message)
        #expect(receiver.requests.values.map(\.path)
            == ["/gateway/twilio/2010-04-01/Accounts/\(Self.accountSID)/Messages.json"])
        #expect(TwilioSMSSender(accountSID: "AC1", authToken: "t", from: "+1").messagesURL.absoluteString
            == "https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json")
    }

    @Test func retriesA429() throws {
        let receiver = try Receiver(statuses: [429, 201])
        let sleeps = Recorder<Duration>()
        try TwilioSMSSender(
            baseURL: receiver.url(""), accountSID: Self.accountSID, authToken: Self.authToken, from: "+15555550199",
            initialBackoff: .milliseconds(250), sleep: { sleeps.append($0) }
        ).send(message)
        #expect(receiver.requests.values.count == 2)
        #expect(sleeps.values == [.milliseconds(250)])
    }

    @Test func failsOnA401WithoutRetryingOrLeakingTheToken() throws {
        var unauthorized = HTTPResponse.json(
            Data(#"{"code": 20003, "message": "Authenticate +15555550100", "more_info": "https://www.twilio.com/docs/errors/20003", "status": 401}"#.utf8),
            status: 401)
        unauthorized.headers["WWW-Authenticate"] = #"Basic realm="Twilio API""#
        let receiver = try Receiver([unauthorized])
        let sleeps = Recorder<Duration>()
        let sender = TwilioSMSSender(
            baseURL: receiver.url(""), accountSID: Self.accountSID, authToken: Self.authToken, from: "+15555550199",
            sleep: { sleeps.append($0) })
        let error = try #require(#expect(throws: SMSDeliveryError.self) { try sender.send(message) })
        #expect(receiver.requests.values.count == 1)
        #expect(sleeps.values.isEmpty)
        #expect(error.sender == .twilio)
        #expect(error.failure == .status(401))
        #expect(error.providerErrorCode == 20003)
        #expect(error.attempts == 1)
        #expect(error.description
            == "twilio SMS delivery to +*******0100 via 127.0.0.1 failed after 1 attempt: HTTP 401 (twilio error 20003)")
        let basic = Data("\(Self.accountSID):\(Self.authToken)".utf8).base64EncodedString()
        expectNoSecrets(error, also: [Self.authToken, basic, "Authenticate"])
    }
}

// MARK: - Transport

@Suite("URLSessionOutboundHTTP", .serialized)
struct URLSessionOutboundHTTPTests {
    /// Linux's URLSession waits forever for credentials on `401` + `WWW-Authenticate: Basic realm=…` (Twilio's
    /// answer to a wrong token) unless the delegate refuses the challenge; every variant must come back as a 401.
    @Test(arguments: [#"Basic realm="Twilio API""#, "Basic", "Bearer", #"Bearer realm="hooks""#])
    func returnsA401WhateverTheChallenge(_ challenge: String) throws {
        var unauthorized = HTTPResponse.json(Data(#"{"code":20003}"#.utf8), status: 401)
        unauthorized.headers["WWW-Authenticate"] = challenge
        let receiver = try Receiver([unauthorized])
        let answer = try URLSessionOutboundHTTP(timeout: 5).send(.post(receiver.url("/"), body: Data("x".utf8)))
        #expect(answer.status == 401)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"code":20003}"#)
        #expect(receiver.requests.values.count == 1)
    }

    @Test("a 401 with a Basic challenge to a GET comes back as a 401 instead of stalling")
    func unauthorizedGet() throws {
        var unauthorized = HTTPResponse.text("no", status: 401)
        unauthorized.headers["WWW-Authenticate"] = #"Basic realm="x""#
        let receiver = try Receiver([unauthorized])
        #expect(try URLSessionOutboundHTTP(timeout: 5).send(.get(receiver.url("/"))).status == 401)
    }

    @Test func concurrentPostsGetTheirOwnAnswers() throws {
        let server = HTTPServer(configuration: .init(port: 0)) { request in
            .text(request.path, status: Int(request.path.dropFirst()) ?? 500)
        }
        try server.start()
        defer { server.shutdown(gracePeriod: .seconds(1)) }
        let http = URLSessionOutboundHTTP(timeout: 5)
        let statuses = [200, 201, 202, 400, 404, 409, 429, 503]
        let answers = Recorder<(Int, Int, String)>()
        DispatchQueue.concurrentPerform(iterations: statuses.count) { index in
            let url = URL(string: "http://127.0.0.1:\(server.port)/\(statuses[index])")!
            if let answer = try? http.send(.post(url, body: Data())) {
                answers.append((statuses[index], answer.status, String(decoding: answer.body, as: UTF8.self)))
            }
        }
        #expect(answers.values.count == statuses.count)
        for (sent, status, body) in answers.values {
            #expect(status == sent)
            #expect(body == "/\(sent)")
        }
    }

    @Test("GETs return status, headers (names lower-cased, for Cache-Control) and body; redirects are followed")
    func headersAndRedirects() throws {
        let server = HTTPServer(configuration: .init(port: 0)) { request in
            if request.path == "/moved" { return .redirect(to: "/certs", status: 302) }
            var response = HTTPResponse.json(Data(#"{"keys":[]}"#.utf8))
            response.headers["Cache-Control"] = "public, max-age=120"
            return response
        }
        try server.start()
        defer { server.shutdown(gracePeriod: .seconds(1)) }
        let fetched = try URLSessionOutboundHTTP(timeout: 5).send(.get(URL(string: "http://127.0.0.1:\(server.port)/moved")!))
        #expect(fetched.status == 200)
        #expect(fetched.headers["cache-control"] == "public, max-age=120")
        #expect(String(decoding: fetched.body, as: UTF8.self) == #"{"keys":[]}"#)
    }

    @Test("form POSTs send the fields form-encoded in order, and do not follow redirects")
    func formPost() throws {
        var redirect = HTTPResponse(status: 307)
        redirect.headers["Location"] = "/elsewhere"
        let receiver = try Receiver([.json(Data(#"{"ok":true}"#.utf8), status: 400), redirect])
        let http = URLSessionOutboundHTTP(timeout: 5)
        let fields = [(name: "client_id", value: "com.example.app"), (name: "code", value: "c.1+2&x=y é")]
        let answer = try http.send(.postForm(receiver.url("/auth/token"), fields: fields, headers: ["Accept": "application/json"]))
        #expect(answer.status == 400)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"ok":true}"#)
        let request = try #require(receiver.requests.values.first)
        #expect(request.method == .post)
        #expect(request.path == "/auth/token")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.headers["Accept"] == "application/json")
        #expect(String(decoding: request.body, as: UTF8.self) == "client_id=com.example.app&code=c.1%2B2%26x%3Dy%20%C3%A9")

        #expect(try http.send(.postForm(receiver.url("/auth/revoke"), fields: fields)).status == 307)
        #expect(receiver.requests.values.map(\.path) == ["/auth/token", "/auth/revoke"])
    }
}
