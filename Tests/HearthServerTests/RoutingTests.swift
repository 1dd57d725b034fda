import Foundation
import HearthCore
import HearthHTTP
@testable import HearthServer
import Testing

@Suite("Routes and wire envelope")
struct RoutingTests {
    @Test("legacy v3 names and v1 paths reach the same operation")
    func legacyMapping() throws {
        let fixture = try ServerFixture()
        for path in [
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo?key=k",
            "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k",
        ] {
            let response = fixture.postJSON(path, #"{"idToken":"not.a.token"}"#)
            #expect(response.status == 400)
            #expect(response.error["message"] as? String == "INVALID_ID_TOKEN")
            #expect((response.error["errors"] as? [[String: Any]])?.first?["reason"] as? String == "invalid")
        }
    }

    @Test("API keys: missing is 403 PERMISSION_DENIED; the header works; a wrong key is keyInvalid")
    func apiKeys() throws {
        let open = try ServerFixture()
        let missing = open.postJSON("/identitytoolkit.googleapis.com/v1/accounts:lookup", "{}")
        #expect(missing.status == 403)
        #expect(missing.error["status"] as? String == "PERMISSION_DENIED")
        let header = open.postJSON("/identitytoolkit.googleapis.com/v1/accounts:lookup", "{}", headers: ["X-Goog-Api-Key": "k"])
        #expect(header.error["message"] as? String == "MISSING_ID_TOKEN")

        let strict = try ServerFixture(apiKeys: .only(["right"]))
        let wrong = strict.postJSON("/identitytoolkit.googleapis.com/v1/accounts:lookup?key=wrong", "{}")
        #expect(wrong.status == 400)
        #expect((wrong.error["errors"] as? [[String: Any]])?.first?["reason"] as? String == "keyInvalid")
        let right = strict.postJSON("/identitytoolkit.googleapis.com/v1/accounts:lookup?key=right", "{}")
        #expect(right.error["message"] as? String == "MISSING_ID_TOKEN")
    }

    @Test("unknown routes are a JSON 404, wrong methods a 405 with Allow, unimplemented endpoints 501")
    func notFound() throws {
        let fixture = try ServerFixture()
        let unknown = fixture.call(.get, "/nothing/here")
        #expect(unknown.status == 404)
        #expect(unknown.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(unknown.error["status"] as? String == "NOT_FOUND")
        let wrongMethod = fixture.call(.get, "/securetoken.googleapis.com/v1/token")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "POST")
        let unimplemented = fixture.postJSON("/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPhoneNumber?key=k", "{}")
        #expect(unimplemented.status == 501)
        #expect(unimplemented.error["status"] as? String == "NOT_IMPLEMENTED")
        // Their v1 names too (they used to be 404s).
        for name in IdentityToolkitRoutes.unimplementedV1Names {
            let v1 = fixture.postJSON("/identitytoolkit.googleapis.com/v1/\(name)?key=k", "{}")
            #expect(v1.status == 501, "\(name)")
            #expect((v1.error["message"] as? String)?.contains(name) == true, "\(name)")
        }
    }

    @Test("publicKeys (v3 and v1) serves the X.509 map that session cookies verify with, as securetoken's path does")
    func publicKeys() throws {
        let fixture = try ServerFixture()
        let securetoken = fixture.call(.get, "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
        #expect(securetoken.status == 200)
        for path in ["/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys", "/identitytoolkit.googleapis.com/v1/publicKeys"] {
            let keys = fixture.call(.get, path)
            #expect(keys.status == 200, "\(path)")
            #expect(keys.body == securetoken.body, "\(path)")
            #expect(String(decoding: keys.body, as: UTF8.self).contains("BEGIN CERTIFICATE"))
        }
    }

    @Test("errors the HTTP layer makes are rendered in the envelope")
    func httpLayerErrors() {
        let response = IdentityServer.render(HTTPStatusError(status: 413, reason: "The request body is larger than 1 MiB."))
        #expect(response.status == 413)
        #expect(response.error["status"] as? String == "PAYLOAD_TOO_LARGE")
        #expect(response.error["code"] as? Int == 413)
    }

    @Test("the token endpoint reads form and JSON bodies in both spellings")
    func tokenBodies() throws {
        let fixture = try ServerFixture()
        let form = fixture.call(
            .post, "/securetoken.googleapis.com/v1/token?key=k", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "grant_type=refresh_token&refresh_token=nope")
        #expect(form.error["message"] as? String == "INVALID_REFRESH_TOKEN")
        let json = fixture.postJSON("/securetoken.googleapis.com/v1/token?key=k", #"{"grantType":"refresh_token"}"#)
        #expect(json.error["message"] as? String == "MISSING_REFRESH_TOKEN")
        let snake = fixture.postJSON("/securetoken.googleapis.com/v1/token?key=k", #"{"grant_type":"password","refresh_token":"x"}"#)
        #expect(snake.error["message"] as? String == "INVALID_GRANT_TYPE")
    }

    @Test("development routes exist only with --dev")
    func developmentOnly() throws {
        let production = try ServerFixture(development: false)
        #expect(production.call(.delete, "/emulator/v1/projects/demo-hearth/accounts").status == 404)
        #expect(production.call(.get, "/dev/google/.well-known/openid-configuration").status == 404)
        let dev = try ServerFixture()
        #expect(dev.call(.delete, "/emulator/v1/projects/demo-hearth/accounts").status == 200)
        #expect(dev.call(.delete, "/emulator/v1/projects/other/accounts").status == 404)
    }

    @Test("key documents are cacheable and list the current key")
    func keyDocuments() throws {
        let fixture = try ServerFixture()
        let jwks = fixture.call(.get, "/.well-known/jwks.json")
        #expect(jwks.headers["Cache-Control"]?.hasPrefix("public, max-age=") == true)
        let kid = try fixture.platform.sessionKeys.current().records.last?.keyID
        #expect((jwks.json["keys"] as? [[String: Any]])?.first?["kid"] as? String == kid)
        let discovery = fixture.call(.get, "/demo-hearth/.well-known/openid-configuration")
        #expect(discovery.json["issuer"] as? String == "http://hearth.test/demo-hearth")
        #expect(fixture.call(.get, "/").json["hearth"] != nil)
    }
}
