import Foundation
import HearthProtocol
import Testing

@Suite("Request body decoding")
struct RequestFieldsTests {
    @Test("snake_case and camelCase keys are the same field")
    func keySpellings() throws {
        let snake = try RequestFields(json: Array(#"{"return_secure_token":true,"id_token":"abc"}"#.utf8))
        let camel = try RequestFields(json: Array(#"{"returnSecureToken":true,"idToken":"abc"}"#.utf8))
        #expect(try snake.bool("returnSecureToken") == true)
        #expect(try snake.string("idToken") == "abc")
        #expect(try camel.bool("returnSecureToken") == true)
        #expect(try camel.string("idToken") == "abc")
    }

    @Test("a NUL character anywhere in a JSON body (value, nested, key) is INVALID_ARGUMENT; an escaped backslash before u0000 is text")
    func nulRefused() throws {
        for body in [
            #"{"displayName":"a\u0000b"}"#, #"{"users":[{"photoUrl":"\u0000"}]}"#, #"{"a\u0000":1}"#,
        ] {
            let error = #expect(throws: WireError.self, "\(body)") { try RequestFields(json: Array(body.utf8)) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("NUL") == true)
        }
        let literal = try RequestFields(json: Array(#"{"displayName":"a\\u0000b"}"#.utf8))
        #expect(try literal.string("displayName") == #"a\u0000b"#)
    }

    @Test("numbers are accepted where strings are expected, and numeric strings where numbers are")
    func lenientScalars() throws {
        let fields = try RequestFields(json: Array(#"{"validSince":1700000000,"count":"42","flag":"true","text":12}"#.utf8))
        #expect(try fields.int64("validSince") == 1_700_000_000)
        #expect(try fields.string("validSince") == "1700000000")
        #expect(try fields.int64("count") == 42)
        #expect(try fields.bool("flag") == true)
        #expect(try fields.string("text") == "12")
    }

    @Test("enums are accepted by name or by index")
    func enums() throws {
        let fields = try RequestFields(json: Array(#"{"deleteAttribute":["DISPLAY_NAME",4]}"#.utf8))
        let names = try fields.enumNames("deleteAttribute", names: UpdateAccountRequest.deletableAttributes)
        #expect(names == ["DISPLAY_NAME", "PHOTO_URL"])
        let bad = try RequestFields(json: Array(#"{"deleteAttribute":["NOPE"]}"#.utf8))
        #expect(throws: WireError.self) { try bad.enumNames("deleteAttribute", names: UpdateAccountRequest.deletableAttributes) }
    }

    @Test("malformed bodies are INVALID_ARGUMENT 400s", arguments: ["{", "[1,2]", "\"text\"", "{\"a\":}", "nul"])
    func malformed(body: String) {
        #expect {
            _ = try RequestFields(json: Array(body.utf8))
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == .invalidArgument && error.httpStatus == 400
        }
    }

    @Test("an empty body is an empty object")
    func emptyBody() throws {
        let fields = try RequestFields(json: Array("  \n".utf8))
        #expect(fields.values.isEmpty)
    }

    @Test("a value of the wrong type is INVALID_ARGUMENT, not a crash")
    func wrongType() throws {
        let fields = try RequestFields(json: Array(#"{"idToken":{"nested":true},"autoCreate":"maybe"}"#.utf8))
        #expect(throws: WireError.self) { try fields.string("idToken") }
        #expect(throws: WireError.self) { try fields.bool("autoCreate") }
    }

    @Test("form bodies: both spellings, '+' is a space, first value wins")
    func formBodies() throws {
        let fields = RequestFields(form: "grant_type=refresh_token&refresh_token=a%2Bb+c&grant_type=other")
        #expect(try fields.string("grantType") == "refresh_token")
        #expect(try fields.string("refreshToken") == "a+b c")
        let request = try RefreshTokenRequest(fields: fields)
        #expect(request.grantType == "refresh_token")
    }

    @Test("the exact verifyAssertion body the iOS SDK sends decodes")
    func iosVerifyAssertion() throws {
        let body = #"{"requestUri":"http://localhost","postBody":"providerId=google.com&id_token=a.b.c&access_token=ya29.x","returnSecureToken":true,"returnIdpCredential":true,"autoCreate":true}"#
        let request = try SignInWithIdpRequest(fields: RequestFields(json: Array(body.utf8)))
        #expect(request.requestUri == "http://localhost")
        #expect(request.postBody?.contains("id_token=a.b.c") == true)
        #expect(request.returnIdpCredential == true)
        #expect(request.autoCreate == true)
        #expect(request.idToken == nil)
    }
}

@Suite("Form encoding")
struct FormEncodingTests {
    @Test("escape and unescape round trip every byte class")
    func roundTrip() {
        let text = "a b+c&d=e/é~_.-%"
        let encoded = FormEncoding.encode([("k", text)])
        #expect(encoded == "k=a%20b%2Bc%26d%3De%2F%C3%A9~_.-%25")
        #expect(FormEncoding.decode(encoded).first?.value == text)
    }

    @Test("malformed escapes are kept as written; keys without '=' get empty values")
    func malformed() {
        let pairs = FormEncoding.decode("a=%zz&b&&c=%4")
        #expect(pairs.map(\.name) == ["a", "b", "c"])
        #expect(pairs.map(\.value) == ["%zz", "", "%4"])
    }

    @Test("pairs are split on '&' and '=' bytes, also when a combining mark follows them (found by fuzz-form)")
    func delimitersBeforeCombiningMarks() {
        // U+0301 or U+05B1 after `&` or `=` makes one Swift Character with it; the form rules still see the delimiter.
        let pairs = FormEncoding.decode("a=\u{301}1&\u{5B1}access_token=y")
        #expect(pairs.map(\.name) == ["a", "\u{5B1}access_token"])
        #expect(pairs.map(\.value) == ["\u{301}1", "y"])
    }
}
