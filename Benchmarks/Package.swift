// swift-tools-version: 6.0
import Foundation
import PackageDescription

// Benchmarks live in their own package so that `swift build` / `swift test` of Hearth never build them.
// Run everything with `Benchmarks/run` (see docs/BENCHMARKS.md).

// SwiftPM names a path dependency after its directory, so find out what the checkout is called.
let hearth = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "HearthBenchmarks",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "BenchSupport"),
        .executableTarget(
            name: "jose-bench",
            dependencies: ["BenchSupport", .product(name: "JOSE", package: hearth), .product(name: "HearthCrypto", package: hearth)]),
        .executableTarget(
            name: "verify-bench",
            dependencies: [
                "BenchSupport", .product(name: "HearthVerify", package: hearth), .product(name: "JOSE", package: hearth),
                .product(name: "HearthCrypto", package: hearth), .product(name: "HearthProtocol", package: hearth),
            ]),
        .executableTarget(name: "argon2-bench", dependencies: [.product(name: "HearthCore", package: hearth)]),
        .executableTarget(
            name: "metrics-bench",
            dependencies: [
                "BenchSupport", .product(name: "HearthServer", package: hearth), .product(name: "HearthCore", package: hearth),
                .product(name: "HearthHTTP", package: hearth),
            ]),
    ]
)
