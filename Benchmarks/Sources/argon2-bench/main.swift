import Foundation
import HearthCore
import Synchronization

// Argon2id hashes per second with Hearth's default parameters (OWASP's minimum, m=19456,t=2,p=1), through
// `Argon2PasswordHasher.hashNewPassword` (policy check, gate, libargon2), on one thread per active processor
// for about `seconds` of wall-clock time: the ceiling on password sign-ins and sign-ups per second.
// Prints `argon2id_hashes_per_s=…`, `argon2id_threads=…` and `argon2id_parameters=…` for Benchmarks/run.
//
// Usage: argon2-bench [seconds]

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "5") ?? 5
let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
let parameters = Argon2Parameters.owaspMinimum
let hasher = try Argon2PasswordHasher(
    parameters: parameters, gate: HashingGate(concurrency: threads, queueLimit: threads, maximumWait: 60))

let start = Date()
let deadline = start.addingTimeInterval(seconds)
let hashes = Atomic(0)
DispatchQueue.concurrentPerform(iterations: threads) { index in
    var count = 0
    while Date() < deadline {
        guard (try? hasher.hashNewPassword("correct horse battery staple \(index)-\(count)")) != nil else { break }
        count += 1
    }
    hashes.add(count, ordering: .relaxed)
}
let elapsed = Date().timeIntervalSince(start)
print("argon2id_hashes_per_s=\(String(format: "%.1f", Double(hashes.load(ordering: .relaxed)) / elapsed))")
print("argon2id_threads=\(threads)")
print("argon2id_parameters=\(parameters)")
