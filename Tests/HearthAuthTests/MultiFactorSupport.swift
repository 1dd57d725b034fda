import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// Wire fixtures for the multi-factor endpoints (PROTOCOL.md §6).
enum MFAFixture {
    static let pendingCredential = "pending-credential-1"
    static let maskedPhone = "+*******1234"
    static let fullPhone = "+15555551234"
    static let phoneEnrollmentID = "phone-enrollment-1"
    static let totpEnrollmentID = "totp-enrollment-1"
    /// 2026-11-29T10:11:12.345Z.
    static let phoneEnrolledAt = Date(timeIntervalSince1970: 1_795_947_072.345)
    /// 2026-01-02T03:04:05Z.
    static let totpEnrolledAt = Date(timeIntervalSince1970: 1_767_323_045)
    static let v2 = "https://identitytoolkit.googleapis.com/v2/accounts/"

    static func phoneEnrollment(number: String = maskedPhone) -> JSONValue {
        [
            "mfaEnrollmentId": .string(phoneEnrollmentID), "displayName": "Work phone",
            "enrolledAt": "2026-11-29T10:11:12.345Z", "phoneInfo": .string(number),
        ]
    }

    static let totpEnrollment: JSONValue = [
        "mfaEnrollmentId": .string(totpEnrollmentID), "displayName": "Authenticator", "enrolledAt": "2026-01-02T03:04:05Z",
        "totpInfo": [:],
    ]

    /// A kind this version does not know; must be skipped.
    static let unknownEnrollment: JSONValue = [
        "mfaEnrollmentId": "email-enrollment-1", "enrolledAt": "2026-01-02T03:04:05.000Z",
        "emailInfo": ["emailAddress": "ada@example.com"],
    ]

    /// The signInWithIdp answer when a second factor is needed: no tokens, masked factors.
    static func secondFactorRequired(mfaInfo: [JSONValue] = [phoneEnrollment(), totpEnrollment, unknownEnrollment])
        -> JSONValue
    {
        [
            "kind": "identitytoolkit#VerifyAssertionResponse", "providerId": "google.com", "localId": .string(Fixture.uid),
            "email": "ada@example.com", "mfaPendingCredential": .string(pendingCredential), "mfaInfo": .array(mfaInfo),
        ]
    }

    static func tokens(idToken: String, refreshToken: String, expiresIn: String? = nil) -> JSONValue {
        var body: [String: JSONValue] = ["idToken": .string(idToken), "refreshToken": .string(refreshToken)]
        if let expiresIn { body["expiresIn"] = .string(expiresIn) }
        return .object(body)
    }

    static let totpSessionInfo: JSONValue = [
        "sharedSecretKey": "JBSWY3DPEHPK3PXP", "verificationCodeLength": 8, "hashingAlgorithm": "SHA256",
        "periodSec": 60, "sessionInfo": "totp-session-info", "finalizeEnrollmentTime": "2026-11-29T10:20:00.5Z",
    ]
}

extension Harness {
    /// Runs a Google sign-in that the server stops for a second factor; returns the thrown error.
    func secondFactorError(mfaInfo: [JSONValue]? = nil) async throws -> AuthError {
        transport.enqueue(
            "verifyAssertion",
            json: mfaInfo.map { MFAFixture.secondFactorRequired(mfaInfo: $0) } ?? MFAFixture.secondFactorRequired())
        let error = try #require(await authError { _ = try await auth.signIn(with: Fixture.googleCredential) })
        try #require(error.code == .secondFactorRequired)
        return error
    }

    /// The resolver of `secondFactorError()`.
    func resolver() async throws -> MultiFactorResolver {
        try #require(try await secondFactorError().resolver)
    }
}

/// Records every call of a state listener (`state:<uid|nil>`) and an ID-token listener
/// (`token:<uid|nil>`), in order.
struct ListenerLog {
    private let auth: Auth
    private let sink: AsyncStream<String>.Continuation
    private var iterator: AsyncStream<String>.Iterator

    /// Registers both listeners; their first calls (the current user) are read with the next `drain()`.
    init(_ auth: Auth) {
        self.auth = auth
        let (events, sink) = AsyncStream<String>.makeStream()
        self.sink = sink
        iterator = events.makeAsyncIterator()
        auth.addStateDidChangeListener { _, user in sink.yield("state:\(user?.uid ?? "nil")") }
        auth.addIDTokenDidChangeListener { _, user in sink.yield("token:\(user?.uid ?? "nil")") }
    }

    /// Every call since the last drain: waits for a marker queued behind them.
    mutating func drain() async -> [String] {
        let sink = self.sink
        auth.queueMarker { sink.yield("marker") }
        var events: [String] = []
        while let event = await iterator.next(), event != "marker" { events.append(event) }
        return events
    }
}
