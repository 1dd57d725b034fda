import Foundation
import HearthProtocol
import Testing

@testable import HearthAdmin

@Suite("listUsers")
struct PagingTests {
    let harness = Harness()

    static func page(_ uids: [String], next: String?) -> JSONValue {
        var page: [String: JSONValue] = ["kind": "identitytoolkit#DownloadAccountResponse"]
        if !uids.isEmpty { page["users"] = .array(uids.map { ["localId": .string($0)] }) }
        if let next { page["nextPageToken"] = .string(next) }
        return .object(page)
    }

    @Test("pages follow nextPageToken with GET batchGet until a page has none")
    func pagesAcrossRequests() async throws {
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["a", "b"], next: "b"))
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["c", "d"], next: "d"))
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["e"], next: nil))
        var uids: [[String]] = []
        for try await page in harness.auth().listUsers(pageSize: 2) {
            uids.append(page.users.map(\.uid))
        }
        #expect(uids == [["a", "b"], ["c", "d"], ["e"]])
        let requests = harness.transport.requests
        #expect(requests.map(\.method) == ["GET", "GET", "GET"])
        #expect(requests.map(\.url.absoluteString) == [
            Fixture.projectBase + "/accounts:batchGet?maxResults=2",
            Fixture.projectBase + "/accounts:batchGet?maxResults=2&nextPageToken=b",
            Fixture.projectBase + "/accounts:batchGet?maxResults=2&nextPageToken=d",
        ])
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer owner" && $0.body == nil })
    }

    @Test("the empty page after an exactly full last page is not yielded, and no users means no pages")
    func emptyPages() async throws {
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["a", "b"], next: "b"))
        harness.transport.enqueue("accounts:batchGet", json: Self.page([], next: ""))
        var count = 0
        for try await _ in harness.auth().listUsers(pageSize: 2) { count += 1 }
        #expect(count == 1)
        #expect(harness.transport.requests.count == 2)

        let empty = Harness()
        empty.transport.enqueue("accounts:batchGet", json: Self.page([], next: nil))
        var pages = 0
        for try await _ in empty.auth().listUsers() { pages += 1 }
        #expect(pages == 0)
        #expect(empty.transport.requests.first?.url.query == "maxResults=1000")
    }

    @Test("a page token the server repeats ends the iteration with an error instead of looping")
    func repeatedToken() async {
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["a"], next: "a"))
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["a"], next: "a"))
        let error = await adminError {
            for try await _ in harness.auth().listUsers(pageSize: 1) {}
        }
        #expect(error?.code == .unexpectedResponse)
        #expect(harness.transport.requests.count == 2)
    }

    @Test("an error on a later page is thrown from the iteration")
    func laterPageFails() async {
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["a"], next: "a"))
        harness.transport.enqueueError("accounts:batchGet", message: "INVALID_PAGE_SELECTION")
        var seen = 0
        let error = await adminError {
            for try await _ in harness.auth().listUsers(pageSize: 1) { seen += 1 }
        }
        #expect(seen == 1)
        #expect(error?.code == .invalidPageToken)
    }

    @Test("listUsersPage refuses a page size outside 1…1000 and escapes the page token")
    func singlePage() async throws {
        let auth = harness.auth()
        #expect(await adminError { try await auth.listUsersPage(pageSize: 1001) }?.code == .invalidArgument)
        #expect(harness.transport.requests.isEmpty)
        harness.transport.enqueue("accounts:batchGet", json: Self.page(["x"], next: "x"))
        let page = try await auth.listUsersPage(pageSize: 10, pageToken: "a+b/c")
        #expect(page.nextPageToken == "x")
        #expect(harness.transport.requests.first?.url.query == "maxResults=10&nextPageToken=a%2Bb%2Fc")
    }
}
