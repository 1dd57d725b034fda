import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Test phone numbers: fixed codes, never sent, limited like real ones; the project's and a tenant's")
struct TestPhoneNumbersTests {
    private let admin = Caller(client: nil, actor: AuditTrailTests.serviceAccount)

    @Test("a code to a test number is its fixed code and no SMS; a wrong one is refused like any; bad lists are INVALID_CONFIG")
    func fixedCodes() throws {
        let fixture = try MFAFlowTests.Fixture()
        let service = fixture.test.platform.projectConfig
        for bad in [["+15555550100": "12345"], ["555-0100": "123456"],
                    Dictionary(uniqueKeysWithValues: (0..<11).map { ("+1555555010\($0 % 10)\($0 / 10)", "123456") })] {
            let numbers = JSONValue.object(bad.mapValues(JSONValue.string))
            #expect(wireErrorCode {
                _ = try service.update(["signIn": ["phoneNumber": ["testPhoneNumbers": numbers]]], updateMask: "signIn.phoneNumber.testPhoneNumbers", by: admin)
            } == .invalidConfig, "\(bad.count)")
        }
        _ = try service.update(
            ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+15555550123": "654321"]]]],
            updateMask: "signIn.phoneNumber.testPhoneNumbers", by: admin)
        let mfa = fixture.test.platform.mfa
        let sent = fixture.test.sms.messages.count
        func start() throws -> String {
            let started = try mfa.startEnrollment(
                StartMFAEnrollmentRequest(idToken: fixture.idToken, phoneEnrollmentInfo: .init(phoneNumber: "+15555550123")),
                by: .user(client: "10.0.0.5"))
            return try #require(started.phoneSessionInfo?.sessionInfo)
        }
        let sessionInfo = try start()
        #expect(fixture.test.sms.messages.count == sent, "nothing is sent to a test number")
        // The same resend throttle as a real number: a second code at once is refused.
        #expect(wireErrorCode { _ = try start() } == .tooManyAttemptsTryLater)
        #expect(wireErrorCode {
            _ = try mfa.finalizeEnrollment(
                FinalizeMFAEnrollmentRequest(
                    idToken: fixture.idToken, displayName: "Test phone",
                    phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: "123456")),
                by: .user(client: "10.0.0.5"))
        } == .invalidCode)
        let tokens = try mfa.finalizeEnrollment(
            FinalizeMFAEnrollmentRequest(
                idToken: fixture.idToken, displayName: "Test phone",
                phoneVerificationInfo: PhoneVerificationInfo(sessionInfo: sessionInfo, code: "654321")),
            by: .user(client: "10.0.0.5"))
        #expect(!tokens.idToken.isEmpty)
        #expect(try fixture.test.platform.configSettings().testPhoneNumbers == ["+15555550123": "654321"])
    }

    @Test("a tenant's testPhoneNumbers are its own, not the project's")
    func tenants() throws {
        let test = try TestPlatform(mfa: .allFactors)
        let made = try test.platform.tenants.create(
            TenantFields(fields: RequestFields(["displayName": "Phone-Tenant", "testPhoneNumbers": ["+15555550199": "111222"]])),
            by: .system)
        let tenant = test.platform.scoped(to: try StoreScope.tenant(String(made.name.split(separator: "/").last ?? "")))
        #expect(try tenant.configSettings().testPhoneNumbers == ["+15555550199": "111222"])
        #expect(try test.platform.configSettings().testPhoneNumbers.isEmpty)
    }
}
