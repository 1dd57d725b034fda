import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Listeners and streams")
struct ListenerTests {
    @Test("a state listener hears the current user once, then sign-in and sign-out")
    func stateListener() async throws {
        let harness = Harness()
        let (events, sink) = AsyncStream<String>.makeStream()
        let handle = harness.auth.addStateDidChangeListener { auth, user in
            sink.yield("\(auth.name):\(user?.uid ?? "nil")")
        }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "[DEFAULT]:nil")
        try await harness.signIn()
        harness.auth.queueMarker { sink.yield("marker") }
        try #require(await iterator.next() == "[DEFAULT]:\(Fixture.uid)")
        #expect(await iterator.next() == "marker")
        try harness.auth.signOut()
        harness.auth.queueMarker { sink.yield("marker") }
        try #require(await iterator.next() == "[DEFAULT]:nil")
        #expect(await iterator.next() == "marker")

        harness.auth.removeStateDidChangeListener(handle)
        try await harness.signIn()
        // Nothing more arrives: a sentinel from a new listener comes next on the queue.
        harness.auth.addStateDidChangeListener { _, _ in sink.yield("sentinel") }
        #expect(await iterator.next() == "sentinel")
    }

    @Test("a state listener added while signed in hears that user first")
    func stateListenerSignedIn() async throws {
        let harness = Harness()
        try await harness.signIn()
        let (events, sink) = AsyncStream<String>.makeStream()
        harness.auth.addStateDidChangeListener { _, user in sink.yield(user?.uid ?? "nil") }
        harness.auth.queueMarker { sink.yield("marker") }
        var iterator = events.makeAsyncIterator()
        try #require(await iterator.next() == Fixture.uid)
        #expect(await iterator.next() == "marker")
    }

    @Test("signing in again as the same uid tells ID-token listeners but not state listeners")
    func sameUser() async throws {
        let harness = Harness()
        try await harness.signIn()
        let (events, sink) = AsyncStream<String>.makeStream()
        harness.auth.addStateDidChangeListener { _, user in sink.yield("state:\(user?.uid ?? "nil")") }
        let tokenHandle = harness.auth.addIDTokenDidChangeListener { _, user in sink.yield("token:\(user?.uid ?? "nil")") }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "state:\(Fixture.uid)")
        #expect(await iterator.next() == "token:\(Fixture.uid)")
        try await harness.signIn()
        harness.auth.queueMarker { sink.yield("marker") }
        try #require(await iterator.next() == "token:\(Fixture.uid)")
        #expect(await iterator.next() == "marker")
        try harness.auth.signOut()
        harness.auth.queueMarker { sink.yield("marker") }
        try #require(await iterator.next() == "state:nil")
        try #require(await iterator.next() == "token:nil")
        #expect(await iterator.next() == "marker")
        harness.auth.removeIDTokenDidChangeListener(tokenHandle)
        try await harness.signIn()
        harness.auth.queueMarker { sink.yield("marker") }
        try #require(await iterator.next() == "state:\(Fixture.uid)")
        #expect(await iterator.next() == "marker")
    }

    @Test("authStateChanges starts with the current state, then follows sign-in and sign-out")
    func authStateStream() async throws {
        let harness = Harness()
        var signedOut = harness.auth.authStateChanges.makeAsyncIterator()
        #expect(await signedOut.next().map { $0 == nil } == true)

        try await harness.signIn()
        try #require(harness.auth.currentUser != nil)
        var signedIn = harness.auth.authStateChanges.makeAsyncIterator()
        #expect(await signedIn.next()??.uid == Fixture.uid)
        #expect(await signedOut.next()??.uid == Fixture.uid)

        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "refreshed.token.x"))
        _ = try await harness.auth.currentUser?.getIDToken(forcingRefresh: true)
        try harness.auth.signOut()
        // The refresh is not a state change: the next element is the sign-out.
        #expect(await signedIn.next().map { $0 == nil } == true)
    }

    @Test("idTokenChanges starts with the current state and includes refreshes")
    func idTokenStream() async throws {
        let harness = Harness()
        let user = try await harness.signIn().user
        var changes = harness.auth.idTokenChanges.makeAsyncIterator()
        #expect(await changes.next().flatMap { $0 } === user)
        harness.transport.enqueue("token", json: Fixture.refreshResponse(idToken: "refreshed.token.x"))
        _ = try await user.getIDToken(forcingRefresh: true)
        try harness.auth.signOut()
        // If the refresh were not reported, the sign-out would come first.
        try #require(await changes.next().flatMap { $0 } === user)
        #expect(await changes.next().map { $0 == nil } == true)
    }

    @Test("ending a stream removes its listener")
    func streamTermination() async throws {
        let harness = Harness()
        do {
            var iterator = harness.auth.idTokenChanges.makeAsyncIterator()
            _ = await iterator.next()
        }
        let task = Task {
            for await _ in harness.auth.authStateChanges {}
        }
        task.cancel()
        _ = await task.value
        try await harness.signIn()  // must not crash or deliver to a finished stream
        #expect(harness.auth.currentUser != nil)
    }
}
