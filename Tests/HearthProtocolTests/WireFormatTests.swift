import Foundation
import HearthProtocol
import Testing

@Suite("Wire formats")
struct WireFormatTests {
    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("application errors: 'CODE : detail', errors[], no status field")
    func applicationError() throws {
        let error = WireError(.invalidIdpResponse, "The id_token has expired.")
        #expect(error.httpStatus == 400)
        #expect(error.message == "INVALID_IDP_RESPONSE : The id_token has expired.")
        let body = try #require(try object(error.envelope())["error"] as? [String: Any])
        #expect(body["code"] as? Int == 400)
        #expect(body["message"] as? String == "INVALID_IDP_RESPONSE : The id_token has expired.")
        #expect(body["status"] == nil)
        let entries = try #require(body["errors"] as? [[String: Any]])
        #expect(entries.first?["reason"] as? String == "invalid")
        #expect(entries.first?["domain"] as? String == "global")
    }

    @Test("a code without detail is just the code")
    func bareCode() {
        #expect(WireError(.emailExists).message == "EMAIL_EXISTS")
    }

    @Test("canonical errors carry status and a sentence")
    func canonicalError() throws {
        let error = WireError(.permissionDenied, "The request is missing a valid API key.")
        #expect(error.httpStatus == 403)
        let body = try #require(try object(error.envelope())["error"] as? [String: Any])
        #expect(body["status"] as? String == "PERMISSION_DENIED")
        #expect(body["message"] as? String == "The request is missing a valid API key.")
        #expect(WireError(.notFound).httpStatus == 404)
        #expect(WireError(.payloadTooLarge).httpStatus == 413)
    }

    @Test("clients parse the envelope back into the same code and detail")
    func parseBack() throws {
        let original = WireError(.tokenExpired, "The user's credential is no longer valid.")
        let parsed = try #require(WireError(envelope: original.envelope(), httpStatus: 400))
        #expect(parsed.code == .tokenExpired)
        #expect(parsed.detail == "The user's credential is no longer valid.")
        let canonical = try #require(WireError(envelope: WireError(.permissionDenied, "No key.").envelope(), httpStatus: 403))
        #expect(canonical.code == .permissionDenied)
        #expect(WireError(envelope: Data("not json".utf8), httpStatus: 500) == nil)
    }

    @Test("token response: snake_case, expires_in is a string, access_token equals id_token")
    func tokenResponse() throws {
        let response = RefreshTokenResponse(idToken: "id", expiresIn: "3600", refreshToken: "r", userId: "u", projectId: "1")
        let json = try object(JSONEncoder().encode(response))
        #expect(json["access_token"] as? String == "id")
        #expect(json["id_token"] as? String == "id")
        #expect(json["expires_in"] as? String == "3600")
        #expect(json["token_type"] as? String == "Bearer")
        #expect(json["user_id"] as? String == "u")
        #expect(json["project_id"] as? String == "1")
    }

    @Test("lookup leaves out users when nothing matched; delete always has kind")
    func shapes() throws {
        let empty = try object(JSONEncoder().encode(LookupResponse(users: [])))
        #expect(empty["users"] == nil)
        #expect(empty["kind"] as? String == "identitytoolkit#GetAccountInfoResponse")
        let deleted = try object(JSONEncoder().encode(DeleteAccountResponse()))
        #expect(deleted["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
    }

    @Test("signInWithIdp responses leave out unset fields (needConfirmation only when true)")
    func signInShape() throws {
        var response = SignInWithIdpResponse()
        response.localId = "abc"
        response.expiresIn = "3600"
        let json = try object(JSONEncoder().encode(response))
        #expect(json["needConfirmation"] == nil)
        #expect(json["errorMessage"] == nil)
        #expect(json["expiresIn"] as? String == "3600")
        #expect(json["kind"] as? String == "identitytoolkit#VerifyAssertionResponse")
    }

    @Test("JSON values keep 64-bit integers exact and survive a round trip")
    func jsonValues() throws {
        let value = try JSONValue(parsing: Data(#"{"big":9007199254740993,"f":1.5,"b":false,"n":null,"a":["x",1]}"#.utf8))
        #expect(value["big"] == .integer(9_007_199_254_740_993))
        #expect(value["f"] == .double(1.5))
        #expect(value["b"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(try JSONValue(parsing: value.jsonData()) == value)
    }
}
