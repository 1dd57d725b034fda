import Foundation
import HearthCore
import HearthHTTP
import Testing

@testable import HearthServer

/// `/v2/projects/{p}/config` and the emulator's `/emulator/v1/projects/{p}/config` at the request edge: admin callers
/// only, and bad input a 400 in Firebase's envelope that changes nothing, never a 500.
@Suite struct ProjectConfigRouteTests {
    static let paths = [
        "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/config", "/emulator/v1/projects/demo-hearth/config",
    ]
    static let owner: HTTPHeaders = ["Authorization": "Bearer owner", "Content-Type": "application/json"]

    @Test("without admin credentials (an API key notwithstanding) every method answers 401")
    func credentials() throws {
        let fixture = try ServerFixture()
        for path in Self.paths {
            for method in [HTTPMethod.get, .patch] {
                for headers: HTTPHeaders in [[:], ["x-goog-api-key": "k"], ["Authorization": "Bearer someone"]] {
                    let response = fixture.call(method, path + "?key=k", headers: headers, body: "{}")
                    #expect(response.status == 401, "\(method) \(path) \(headers)")
                }
            }
        }
    }

    @Test("bad input is a 400 in the envelope and changes nothing")
    func badInput() throws {
        let fixture = try ServerFixture()
        let cases: [(mask: String?, body: String)] = [
            ("mfa", "not json"), ("mfa", "[]"), ("mfa", #"{"mfa":"on"}"#), ("mfa", #"{"mfa":{"state":7}}"#),
            ("mfa.providerConfigs", #"{"mfa":{"providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":"many"}}]}}"#),
            ("signIn.anonymous.enabled", #"{"signIn":{"anonymous":{"enabled":"maybe"}}}"#),
            ("signIn.email", #"{"signIn":{"email":{"enabled":true,"x":1}}}"#), ("%FF%FE", "{}"), ("", "{}"), (",,", "{}"),
            ("signIn..email", "{}"), ("authorizedDomains", #"{"authorizedDomains":["https://a.example/"]}"#),
            (nil, #"{"nope":1}"#), (nil, "{}"), (nil, #"{"signIn":{"anonymous":"off"}}"#),
            ("smsRegionConfig.allowlistOnly.allowedRegions", #"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["ZZ"]}}}"#),
            ("mfa", String(repeating: #"{"mfa":"#, count: 600)),
        ]
        for path in Self.paths {
            for (mask, body) in cases {
                let target = mask.map { "\(path)?updateMask=\($0)" } ?? path
                let response = fixture.call(.patch, target, headers: Self.owner, body: body)
                #expect(response.status == 400, "\(target) \(body.prefix(80)): \(response.text)")
                #expect(response.error["message"] is String, "\(target)")
            }
        }
        #expect(try fixture.platform.store.read { try $0.projectConfig() } == nil, "nothing was stored")
    }
}
