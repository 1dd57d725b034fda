import Foundation
import HearthProtocol
import Testing

@Suite("revokeToken request")
struct RevokeTokenRequestTests {
    @Test("encodes as iOS sends it: tokenType as the string \"3\", nothing else")
    func encoding() throws {
        let request = RevokeTokenRequest(providerId: "apple.com", tokenType: .authorizationCode, token: "code", idToken: "jwt")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try encoder.encode(request), as: UTF8.self)
                == #"{"idToken":"jwt","providerId":"apple.com","token":"code","tokenType":"3"}"#)
    }

    @Test(
        "reads tokenType as a string, a number or an enum name",
        arguments: [
            (#"{"tokenType":"3"}"#, RevokeTokenRequest.TokenType.authorizationCode),
            (#"{"tokenType":3}"#, .authorizationCode), (#"{"token_type":"CODE"}"#, .authorizationCode),
            (#"{"tokenType":"REFRESH_TOKEN"}"#, .refreshToken), (#"{"tokenType":2}"#, .accessToken),
        ])
    func tokenTypes(body: String, expected: RevokeTokenRequest.TokenType) throws {
        let request = try RevokeTokenRequest(fields: RequestFields(json: Array(body.utf8)))
        #expect(request.knownTokenType == expected)
    }

    @Test("an unknown token type is kept but not known; fields of the wrong type are INVALID_ARGUMENT")
    func unknownAndInvalid() throws {
        let unknown = try RevokeTokenRequest(fields: RequestFields(json: Array(#"{"tokenType":"9","providerId":"apple.com"}"#.utf8)))
        #expect(unknown.tokenType == "9")
        #expect(unknown.knownTokenType == nil)
        #expect(unknown.providerId == "apple.com")
        #expect(throws: WireError.self) {
            try RevokeTokenRequest(fields: RequestFields(json: Array(#"{"token":{"a":1}}"#.utf8)))
        }
    }
}
