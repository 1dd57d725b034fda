import HearthHTTP
import HearthServer
import Testing

@Suite("Cross-origin rules")
struct CrossOriginRulesTests {
    let development = CrossOriginRules(
        publicURL: "http://devbox.lan:9099", development: true, trustedOrigins: ["https://Tools.Example.com:443"])
    let production = CrossOriginRules(publicURL: "https://auth.example.com", development: false)

    @Test("client endpoints and key documents are open to every origin; only trusted ones get Private Network Access")
    func clientEndpoints() {
        for path in ["/identitytoolkit.googleapis.com/v1/accounts:lookup", "/securetoken.googleapis.com/v1/token", "/.well-known/jwks.json"] {
            #expect(development.access(path: path, origin: "https://evil.example") == .allow(privateNetwork: false))
            #expect(development.access(path: path, origin: "http://localhost:5173") == .allow(privateNetwork: true))
            #expect(production.access(path: path, origin: "https://app.example") == .allow(privateNetwork: false))
        }
    }

    @Test("emulator helpers and the dev IdP answer loopback, own and configured origins only")
    func developmentHelpers() {
        for path in ["/emulator/v1/projects/demo-hearth/accounts", "/emulator/v1/projects/demo-hearth/verificationCodes",
                     "/dev/google/o/oauth2/v2/auth", "/dev/google/token", "/dev/apple/auth/token", "/dev/apple/revocations"] {
            for trusted in ["http://localhost:3000", "http://127.0.0.1:9099", "http://127.1.2.3", "http://[::1]:8080",
                            "http://devbox.lan:9099", "https://tools.example.com"] {
                #expect(development.access(path: path, origin: trusted) == .allow(privateNetwork: true), "\(trusted)")
            }
            for foreign in ["https://evil.example", "null", "http://localhost.evil.example", "http://127.0.0.1.evil.example",
                            "https://tools.example.com:8443", "file://", "http://devbox.lan:9100"] {
                #expect(development.access(path: path, origin: foreign) == .refuse, "\(foreign)")
            }
        }
        // Loopback pages are trusted only in development.
        #expect(production.access(path: "/emulator/v1/x", origin: "http://localhost:3000") == .refuse)
    }

    @Test("admin paths never answer cross-origin")
    func adminPaths() {
        let path = "/identitytoolkit.googleapis.com/v1/projects/demo-hearth/accounts:lookup"
        #expect(production.access(path: path, origin: "https://app.example") == .refuse)
        #expect(production.access(path: path, origin: "https://auth.example.com") == .allow(privateNetwork: true))
        #expect(CrossOriginRules.isOrigin("https://a.example:8443"))
        #expect(!CrossOriginRules.isOrigin("a.example"))
        #expect(!CrossOriginRules.isOrigin("ftp://a.example"))
    }
}
