import Foundation
import HearthAdmin
import HearthProtocol
import Testing

/// HearthAdmin's `ProjectConfigManager` driving the built `hearth serve --dev`.
@Suite("HearthAdmin project configuration against the server (e2e)", .blocking)
struct AdminLibraryProjectConfigTests {
    @Test("projectConfig and updateProjectConfig (leaf paths, as Node's): a switch and the password policy enforced; refusals typed")
    func readAndUpdate() async throws {
        let (server, auth) = try AdminLibraryTests.developmentServer()
        defer { server.stop() }
        let manager = auth.projectConfigManager
        let before = try await manager.projectConfig()
        #expect(before["name"]?.stringValue == "projects/\(AdminLibraryTests.projectID)/config")
        #expect(before["signIn"]?["anonymous"]?["enabled"] == true)

        let updated = try await manager.updateProjectConfig([
            "signIn": ["anonymous": ["enabled": false]],
            "passwordPolicyConfig": [
                "passwordPolicyEnforcementState": "ENFORCE",
                "passwordPolicyVersions": [["customStrengthOptions": ["minPasswordLength": 10]]],
            ],
        ])
        #expect(updated["signIn"]?["anonymous"]?["enabled"] == false)
        #expect(updated["signIn"]?["email"]?["enabled"] == true, "a field the update leaves out stays")
        #expect(updated["passwordPolicyConfig"]?["passwordPolicyEnforcementState"] == "ENFORCE")
        let guest = try server.postJSON("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=web-key", ["returnSecureToken": true])
        #expect(guest.errorMessage?.hasPrefix("ADMIN_ONLY_OPERATION") == true, "\(guest.text)")
        let weak = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=web-key",
            ["email": "ada@example.com", "password": "short-pw", "returnSecureToken": true])
        #expect(weak.errorMessage?.hasPrefix("PASSWORD_DOES_NOT_MEET_REQUIREMENTS") == true, "\(weak.text)")
        #expect(try await manager.projectConfig() == updated)

        #expect(await refusal { _ = try await manager.updateProjectConfig(["recaptchaConfig": ["x": 1]]) }?.code == .invalidConfig)
        #expect(await refusal { _ = try await manager.updateProjectConfig(["mfa": ["state": "SOMETIMES"]]) }?.code == .invalidConfig)
        #expect(await refusal { _ = try await manager.updateProjectConfig([:]) }?.code == .invalidArgument)
    }
}
