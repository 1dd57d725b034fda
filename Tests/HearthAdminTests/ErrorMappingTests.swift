import Foundation
import HearthProtocol
import Testing

@testable import HearthAdmin

@Suite("Error mapping")
struct ErrorMappingTests {
    let harness = Harness()

    @Test(
        "server codes map to firebase-admin's codes and keep the raw code and status",
        arguments: [
            ("USER_NOT_FOUND", HearthAdminError.Code.userNotFound),
            ("EMAIL_EXISTS", .emailAlreadyExists), ("DUPLICATE_EMAIL", .emailAlreadyExists),
            ("DUPLICATE_LOCAL_ID", .uidAlreadyExists), ("PHONE_NUMBER_EXISTS", .phoneNumberAlreadyExists),
            ("INVALID_ID_TOKEN", .invalidIDToken), ("TOKEN_EXPIRED", .idTokenExpired), ("USER_DISABLED", .userDisabled),
            ("INVALID_DURATION", .invalidSessionCookieDuration), ("FORBIDDEN_CLAIM", .forbiddenClaim),
            ("CLAIMS_TOO_LARGE", .claimsTooLarge), ("INVALID_CLAIMS", .invalidClaims),
            ("INVALID_PAGE_SELECTION", .invalidPageToken), ("MISSING_LOCAL_ID", .missingUID),
            ("OPERATION_NOT_ALLOWED", .operationNotAllowed), ("WEAK_PASSWORD", .invalidPassword),
            ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests), ("SOMETHING_NEW", .internalError),
        ])
    func applicationCodes(serverCode: String, expected: HearthAdminError.Code) async {
        harness.transport.enqueueError("accounts:lookup", message: serverCode)
        let error = await adminError { try await harness.auth().getUser(uid: "uid-1") }
        #expect(error?.code == expected)
        #expect(error?.serverCode == serverCode)
        #expect(error?.httpStatus == 400)
        #expect(error?.message == serverCode)
    }

    @Test("the server's detail after ' : ' becomes the message")
    func detailKept() async {
        harness.transport.enqueueError("accounts", message: "INVALID_PHONE_NUMBER : Invalid format.")
        let error = await adminError { try await harness.auth().createUser(CreateUserRequest()) }
        #expect(error?.code == .invalidPhoneNumber)
        #expect(error?.message == "Invalid format.")
        #expect(error?.description.contains("INVALID_PHONE_NUMBER") == true)
    }

    @Test("a 401 UNAUTHENTICATED envelope is an invalid credential, with the server's sentence")
    func unauthenticated() async {
        harness.transport.enqueue("accounts:lookup", status: 401, json: [
            "error": ["code": 401, "message": "Request is missing required authentication credential.", "status": "UNAUTHENTICATED"],
        ])
        let error = await adminError { try await harness.auth().getUser(uid: "uid-1") }
        #expect(error?.code == .invalidCredential)
        #expect(error?.serverCode == "UNAUTHENTICATED")
        #expect(error?.httpStatus == 401)
        #expect(error?.message == "Request is missing required authentication credential.")
    }

    @Test("an answer without an envelope is an internal error naming the status")
    func noEnvelope() async {
        // The fake answers unscripted requests with HTML and status 500.
        let error = await adminError { try await harness.auth().getUser(uid: "uid-1") }
        #expect(error?.code == .internalError)
        #expect(error?.httpStatus == 500)
    }

    @Test("a 200 that is not the endpoint's JSON is an unexpected response")
    func notJSON() async {
        harness.transport.enqueue("accounts", status: 200, body: "<html>proxy</html>")
        #expect(await adminError { try await harness.auth().createUser(CreateUserRequest()) }?.code == .unexpectedResponse)
    }

    @Test("a transport failure is a network error")
    func networkFailure() async {
        struct Refused: Error {}
        harness.transport.enqueue("accounts:lookup", .failure(Refused()))
        #expect(await adminError { try await harness.auth().getUser(uid: "uid-1") }?.code == .networkError)
    }

    @Test("a lookup that finds nobody (users left out) is userNotFound")
    func lookupWithoutUsers() async {
        harness.transport.enqueue("accounts:lookup", json: ["kind": "identitytoolkit#GetAccountInfoResponse"])
        let error = await adminError { try await harness.auth().getUser(email: "nobody@example.com") }
        #expect(error?.code == .userNotFound)
        #expect(error?.serverCode == nil)
    }

    @Test("errors compare by code only")
    func equality() {
        #expect(HearthAdminError(.userNotFound, message: "a") == HearthAdminError(.userNotFound, message: "b", serverCode: "X"))
        #expect(HearthAdminError(.userNotFound, message: "a") != HearthAdminError(.userDisabled, message: "a"))
    }
}
