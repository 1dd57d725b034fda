import Foundation
import HearthCore
import JOSE
import Testing

@Suite("Signing keys")
struct SigningKeyRingTests {
    @Test("the first load creates one RS256 key; a second load reuses it")
    func createOnce() throws {
        let store = InMemoryStore()
        let time = ManualTimeSource()
        let first = try SigningKeyRing(store: store, time: time).loadOrCreate()
        let second = try SigningKeyRing(store: store, time: time).loadOrCreate()
        #expect(first.signer.keyID == second.signer.keyID)
        #expect(first.records.count == 1)
        #expect(first.records[0].algorithm == "RS256")
        #expect(first.published.keys.map(\.kid) == [first.signer.keyID])
        #expect(first.certificates.keys.sorted() == [first.signer.keyID])
        #expect(first.certificates[first.signer.keyID]?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
    }

    @Test("rotation: the new key signs, the old one stays published until its tokens expire, then goes")
    func rotation() throws {
        let store = InMemoryStore()
        let time = ManualTimeSource()
        let ring = SigningKeyRing(store: store, time: time, tokenLifetime: 3600)
        let old = try ring.loadOrCreate().signer
        let oldToken = try old.sign(["sub": "x"])
        let newRecord = try ring.rotate(by: .system)
        let keys = try ring.current()
        #expect(keys.signer.keyID == newRecord.keyID)
        #expect(keys.signer.keyID != old.keyID)
        #expect(Set(keys.published.keys.compactMap(\.kid)) == [old.keyID, newRecord.keyID])
        #expect(throws: Never.self) { _ = try keys.verification.verify(oldToken) }

        time.advance(by: 3600 + 601)
        let third = try ring.rotate(by: .system)
        let later = try ring.current()
        #expect(Set(later.published.keys.compactMap(\.kid)) == [newRecord.keyID, third.keyID])
        #expect(try store.read { try $0.signingKeys() }.map(\.keyID).contains(old.keyID) == false)
    }

    @Test("another instance's rotation is picked up on reload")
    func sharedStore() throws {
        let store = InMemoryStore()
        let time = ManualTimeSource()
        let a = SigningKeyRing(store: store, time: time, reloadInterval: 2)
        let b = SigningKeyRing(store: store, time: time, reloadInterval: 2)
        try a.loadOrCreate()
        try b.loadOrCreate()
        let rotated = try a.rotate(by: .system)
        time.advance(by: 3)
        #expect(try b.current().signer.keyID == rotated.keyID)
    }

    @Test("dev IdP keys and session keys never mix")
    func owners() throws {
        let store = InMemoryStore()
        let time = ManualTimeSource()
        let sessions = try SigningKeyRing(store: store, time: time, owner: .sessions).loadOrCreate()
        let dev = try SigningKeyRing(store: store, time: time, owner: .devIdentityProvider).loadOrCreate()
        #expect(sessions.signer.keyID != dev.signer.keyID)
        #expect(!sessions.verification.contains(keyID: dev.signer.keyID))
        #expect(!dev.verification.contains(keyID: sessions.signer.keyID))
        #expect(dev.signer.keyID.hasPrefix("devidp-"))
    }
}
