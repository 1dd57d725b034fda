import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("SMS region policy: regions of numbers, the two policies, the config API, codes refused before anything is sent")
struct SMSRegionPolicyTests {
    private let admin = Caller(client: nil, actor: AuditTrailTests.serviceAccount)

    private func json(_ text: String) throws -> [String: JSONValue] {
        try #require(try JSONValue(parsing: Data(text.utf8)).objectValue)
    }

    @Test("a number's region: its calling code, +1 by area code, +7 by its next digit, +44's Crown dependencies")
    func regions() {
        let cases: [(String, String?)] = [
            ("+14155550100", "US"), ("+14165550100", "CA"), ("+18765550100", "JM"), ("+17875550100", "PR"),
            ("+447911123456", "GB"), ("+441481123456", "GG"), ("+441534123456", "JE"), ("+33612345678", "FR"),
            ("+74951234567", "RU"), ("+77011234567", "KZ"), ("+2348012345678", "NG"), ("+35912345678", "BG"),
            ("+8613812345678", "CN"), ("+85212345678", "HK"), ("+998901234567", "UZ"), ("+80012345678", nil),
            ("+88212345678", nil),
        ]
        for (number, region) in cases {
            #expect(PhoneRegions.region(of: number) == region, "\(number)")
        }
        #expect(PhoneRegions.isKnown("CA") && PhoneRegions.isKnown("KZ") && !PhoneRegions.isKnown("ZZ") && !PhoneRegions.isKnown("us"))
    }

    @Test("allowByDefault refuses its disallowed regions only; allowlistOnly permits its allowed ones only")
    func policies() throws {
        let disallow = SMSRegionPolicy(config: ["allowByDefault": ["disallowedRegions": ["GB", "CA"]]])
        #expect(disallow == .allowByDefault(disallowed: ["GB", "CA"]))
        #expect(!disallow.permits("+447911123456") && !disallow.permits("+14165550100"))
        #expect(disallow.permits("+14155550100") && disallow.permits("+80012345678"), "the US shares +1 with Canada")
        let allow = SMSRegionPolicy(config: ["allowlistOnly": ["allowedRegions": ["US"]]])
        #expect(allow.permits("+14155550100") && !allow.permits("+14165550100") && !allow.permits("+80012345678"))
        #expect(SMSRegionPolicy(config: nil) == .everywhere)
        for bad in [#"{"allowByDefault":{"disallowedRegions":["GB"]},"allowlistOnly":{"allowedRegions":["US"]}}"#,
                    #"{"allowlistOnly":{"allowedRegions":["ZZ"]}}"#, #"{"allowlistOnly":{"allowedRegions":"US"}}"#,
                    #"{"allowlistOnly":{"regions":["US"]}}"#, #"{}"#, #"{"denyAll":{}}"#] {
            #expect(wireErrorCode { try SMSRegionPolicy.check(.object(try json(bad))) } == .invalidConfig, "\(bad)")
        }
    }

    @Test("set through the config API (Go's whole object, Node's leaves; one policy kept), enforced on phone codes; tenants have their own")
    func enforced() throws {
        let fixture = try MFAFlowTests.Fixture()
        let service = fixture.test.platform.projectConfig
        _ = try service.update(
            json(#"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["GB"]}}}"#), updateMask: "smsRegionConfig",
            by: admin)
        let sent = fixture.test.sms.messages.count
        #expect(throws: SMSRegionPolicy.refusal) { _ = try fixture.enrollPhone("+447911123456") }
        #expect(fixture.test.sms.messages.count == sent, "nothing sent")
        #expect(try fixture.test.store.read { try $0.verificationSessions(phoneNumber: "+447911123456", createdSince: 0) }.isEmpty,
                "nothing stored, no quota charged")
        // Node's leaf paths for the other policy: the disallow list is dropped, only one is kept.
        let answered = try service.update(
            json(#"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["GB"]}}}"#),
            updateMask: "smsRegionConfig.allowlistOnly.allowedRegions", by: admin)
        #expect(answered["smsRegionConfig"] == ["allowlistOnly": ["allowedRegions": ["GB"]]])
        #expect(throws: SMSRegionPolicy.refusal) { _ = try fixture.enrollPhone("+15555550100") }
        _ = try fixture.enrollPhone("+447911123456")
        #expect(fixture.test.sms.messages.count == sent + 1)
        // Cleared: every region again.
        _ = try service.update([:], updateMask: "smsRegionConfig", by: admin)
        #expect(try fixture.test.platform.configSettings().smsRegions == .everywhere)
        // A tenant is not held to the project's policy.
        _ = try service.update(
            json(#"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":[]}}}"#), updateMask: "smsRegionConfig", by: admin)
        let made = try fixture.test.platform.tenants.create(TenantFields(fields: RequestFields(["displayName": "Sms-Tenant"])), by: .system)
        let tenant = fixture.test.platform.scoped(to: try StoreScope.tenant(String(made.name.split(separator: "/").last ?? "")))
        #expect(try tenant.configSettings().smsRegions == .everywhere)
        #expect(try fixture.test.platform.configSettings().smsRegions == .allowlistOnly(allowed: []))
        // Its own, through the tenant API (checked there as INVALID_ARGUMENT), answered and enforced.
        let id = try #require(tenant.tenantID)
        let tenants = fixture.test.platform.tenants
        #expect(wireErrorCode {
            _ = try tenants.update(
                id: id, TenantFields(fields: RequestFields(json(#"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["XX"]}}}"#))),
                updateMask: "smsRegionConfig", by: admin)
        } == .invalidArgument)
        let updated = try tenants.update(
            id: id, TenantFields(fields: RequestFields(json(#"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["JM"]}}}"#))),
            updateMask: "smsRegionConfig.allowByDefault", by: admin)
        #expect(updated.settings.smsRegionConfig == ["allowByDefault": ["disallowedRegions": ["JM"]]])
        fixture.test.platform.configDirectory.forget(tenant.settings.scope)
        let policy = try tenant.configSettings().smsRegions
        #expect(!policy.permits("+18765550100") && policy.permits("+14155550100"))
    }
}
