// swift-tools-version: 6.0
import Foundation
import PackageDescription

// libFuzzer targets, in their own package so that `swift build` / `swift test` of Hearth never build them and the
// sanitizer flags stay here. Build and run them with `scripts/fuzz` (see docs/SECURITY.md, "Fuzzing"); it passes
// `-sanitize=fuzzer,address` for every module, Hearth's included, so the code under test is instrumented too.
//
// Each `fuzz-*` target defines `LLVMFuzzerTestOneInput` and no `main`: libFuzzer supplies it.

// SwiftPM names a path dependency after its directory, so find out what the checkout is called.
let hearth = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

func hearthProducts(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: $0, package: hearth) }
}

let package = Package(
    name: "HearthFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: hearthProducts("HearthCrypto", "JOSE", "HearthCore", "HearthHTTP")),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport"] + hearthProducts("HearthProtocol")),
        .executableTarget(name: "fuzz-form", dependencies: ["FuzzSupport"] + hearthProducts("HearthProtocol", "HearthHTTP")),
        .executableTarget(name: "fuzz-jose", dependencies: ["FuzzSupport"] + hearthProducts("JOSE", "HearthCrypto")),
        .executableTarget(
            name: "fuzz-claims",
            dependencies: ["FuzzSupport"] + hearthProducts("JOSE", "HearthVerify", "HearthCore", "HearthProtocol")),
        .executableTarget(
            name: "fuzz-router",
            dependencies: ["FuzzSupport"]
                + hearthProducts(
                    "HearthServer", "HearthCore", "HearthProviders", "HearthDevProviders", "HearthHTTP", "HearthProtocol",
                    "HearthCrypto")),
        .executableTarget(
            name: "fuzz-idp-parameters", dependencies: ["FuzzSupport"] + hearthProducts("HearthCore", "HearthProtocol")),
        .executableTarget(name: "fuzz-daemon", dependencies: ["FuzzSupport"] + hearthProducts("HearthHTTP")),
        .executableTarget(name: "fuzz-url", dependencies: ["FuzzSupport"] + hearthProducts("HearthProtocol")),
        .executableTarget(name: "fuzz-saml", dependencies: ["FuzzSupport"] + hearthProducts("SAML")),
    ]
)

let sharedSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSettings
}
