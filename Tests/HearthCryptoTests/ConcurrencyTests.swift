import HearthCrypto
import Testing

@Suite("Concurrent use of keys")
struct ConcurrencyTests {
    @Test("many concurrent verifies of valid and invalid signatures all give the right answer")
    func concurrentVerify() async throws {
        let key = SharedKeys.primary
        let publicKey = key.publicKey
        let messages = (0..<16).map { Array("message \($0)".utf8) }
        let signatures = try messages.map { try key.signSHA256($0) }

        let wrongAnswers = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<100 {
                        let index = (worker + round) % messages.count
                        if !publicKey.isValidSHA256Signature(signatures[index], for: messages[index]) { wrong += 1 }
                        // A signature for another message must fail.
                        let other = (index + 1) % messages.count
                        if publicKey.isValidSHA256Signature(signatures[other], for: messages[index]) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrongAnswers == 0)
    }

    @Test("concurrent signing, key copies and key creation are safe")
    func concurrentSignAndCreate() async throws {
        let key = SharedKeys.primary
        let message = Array("same message".utf8)
        let expected = try key.signSHA256(message)
        let pem = key.publicKey.pemRepresentation

        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var failures = 0
                    for _ in 0..<5 {
                        if (try? key.signSHA256(message)) != expected { failures += 1 }
                        // Short-lived keys exercise the verification-context pool's clean-up.
                        guard let copy = try? RSAPublicKey(pemRepresentation: pem) else { failures += 1; continue }
                        if !copy.isValidSHA256Signature(expected, for: message) { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    @Test("concurrent ES256 signing and verifying with one P-256 key give the right answers")
    func concurrentES256() async throws {
        let key = try P256PrivateKey.generate()
        let messages = (0..<16).map { Array("message \($0)".utf8) }
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<20 {
                        let index = (worker + round) % messages.count
                        guard let signature = try? key.signSHA256(messages[index]) else { failures += 1; continue }
                        if !key.publicKey.isValidSHA256Signature(signature, for: messages[index]) { failures += 1 }
                        if key.publicKey.isValidSHA256Signature(signature, for: messages[(index + 1) % messages.count]) { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
