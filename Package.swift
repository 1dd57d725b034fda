// swift-tools-version: 6.0
import PackageDescription

// Layers (see docs/ARCHITECTURE.md): C modules → wrappers → contracts → core → providers → adapters → executables.
// Each C module is imported by exactly one wrapper target.

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .library(name: "HearthCrypto", targets: ["HearthCrypto"]),
        .library(name: "JOSE", targets: ["JOSE"]),
        .library(name: "HearthProtocol", targets: ["HearthProtocol"]),
        .library(name: "HearthOutbound", targets: ["HearthOutbound"]),
        .library(name: "HearthAuth", targets: ["HearthAuth"]),
        .library(name: "HearthSignIn", targets: ["HearthSignIn"]),
        .library(name: "HearthVerify", targets: ["HearthVerify"]),
        .library(name: "HearthAdmin", targets: ["HearthAdmin"]),
        // For the fuzz targets (Fuzz/Package.swift), which drive the server in-process; not a supported API.
        .library(name: "HearthHTTP", targets: ["HearthHTTP"]),
        .library(name: "SAML", targets: ["SAML"]),
        .library(name: "HearthCore", targets: ["HearthCore"]),
        .library(name: "HearthProviders", targets: ["HearthProviders"]),
        .library(name: "HearthDevProviders", targets: ["HearthDevProviders"]),
        .library(name: "HearthServer", targets: ["HearthServer"]),
    ],
    targets: [
        // C libraries from Debian.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CXCrypt", pkgConfig: "libcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CXMLSec", pkgConfig: "xmlsec1-openssl", providers: [.apt(["libxmlsec1-dev", "libxml2-dev"])]),

        // Safe Swift wrappers, one per C library.
        .target(name: "HearthCrypto", dependencies: ["COpenSSL"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "HearthHTTP", dependencies: ["CMicroHTTPD"]),
        .target(name: "TerminalQRCode", dependencies: ["CQREncode"]),
        .target(name: "SMTP", dependencies: ["CCurl"]),
        .target(name: "Argon2", dependencies: ["CArgon2"]),
        .target(name: "Postgres", dependencies: ["CLibPQ"]),
        // SAML 2.0 responses: XML by libxml2, signatures by libxmlsec1 (verified and, for the dev IdP, made).
        .target(name: "SAML", dependencies: ["CXMLSec"]),
        // Verifies imported bcrypt hashes (HearthCrypto gives it the constant-time compare).
        .target(name: "BCrypt", dependencies: ["CXCrypt", "HearthCrypto"]),

        // Contracts.
        .target(name: "JOSE", dependencies: ["HearthCrypto", "HearthProtocol"]),
        .target(name: "HearthProtocol"),
        // The blocking URLSession client behind HearthProtocol's `OutboundHTTP`, for the server and HearthVerify.
        .target(name: "HearthOutbound", dependencies: ["HearthProtocol"]),
        // Counters, gauges and histograms in Prometheus' text format (no HTTP: HearthServer serves it).
        .target(name: "HearthMetrics"),

        // Domain logic: no HTTP, no SQL.
        .target(name: "HearthCore", dependencies: ["JOSE", "HearthCrypto", "HearthProtocol", "Argon2", "BCrypt", "SAML"]),

        // The clients of Google, Apple and `oidc.*` providers behind HearthCore's issuer and code-exchange protocols.
        .target(name: "HearthProviders", dependencies: ["HearthCore", "JOSE", "HearthCrypto", "HearthProtocol"]),
        // `--dev`'s look-alikes of Google and Sign in with Apple (HearthServer serves their pages).
        .target(name: "HearthDevProviders", dependencies: ["HearthCore", "JOSE", "HearthCrypto", "HearthProtocol"]),

        // The admin console's pages: accounts, keys, the project configuration and audit events rendered as HTML (no HTTP: HearthServer serves them).
        .target(name: "HearthConsole", dependencies: ["HearthCore", "HearthProtocol"]),

        // Adapters.
        // What both SQL stores share: row decoders and the catalogue of secret columns.
        .target(name: "HearthSQLShared", dependencies: ["HearthCore"]),
        .target(name: "HearthSQLite", dependencies: ["HearthCore", "HearthSQLShared", "SQLite"]),
        .target(name: "HearthPostgres", dependencies: ["HearthCore", "HearthSQLShared", "Postgres"]),
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthCore", "HearthDevProviders", "HearthProtocol", "HearthOutbound", "HearthHTTP", "HearthCrypto", "SMTP",
                "HearthMetrics", "HearthConsole", "SAML",
            ]),

        // Client side: Foundation only on Apple platforms (HearthSignIn checks ID token signatures with
        // Security there, with JOSE on Linux); HearthVerify is for backends.
        .target(name: "HearthAuth", dependencies: ["HearthProtocol"]),
        .target(
            name: "HearthSignIn",
            dependencies: ["HearthProtocol", .target(name: "JOSE", condition: .when(platforms: [.linux]))]),
        .target(name: "HearthVerify", dependencies: ["JOSE", "HearthProtocol", "HearthOutbound"]),
        // Firebase Admin's user management for Swift backends (HearthCrypto holds the service-account key).
        .target(name: "HearthAdmin", dependencies: ["HearthVerify", "JOSE", "HearthCrypto", "HearthProtocol", "HearthOutbound"]),

        // Executables, and the small option parser they share.
        .target(name: "HearthCommandLine"),
        .executableTarget(
            name: "hearth",
            dependencies: [
                "HearthServer", "HearthProviders", "HearthDevProviders", "HearthOutbound", "HearthSQLite", "HearthPostgres",
                "HearthCommandLine", "SAML",
            ],
            linkerSettings: staticSwiftRuntime()),

        // The documents' app (a terminal program) and its backend.
        .executableTarget(
            name: "portfolio", dependencies: ["HearthAuth", "HearthSignIn", "HearthCommandLine", "TerminalQRCode"],
            path: "Examples/Portfolio/Sources/portfolio"),
        .executableTarget(
            name: "portfolio-api", dependencies: ["HearthVerify", "HearthAdmin", "HearthProtocol", "HearthHTTP", "SQLite", "HearthCommandLine"],
            path: "Examples/Portfolio/Sources/portfolio-api"),

        // Tests: one target per library target, plus the storage conformance suite and end-to-end tests, and the
        // `OutboundHTTP` fake they share.
        .target(name: "OutboundTesting", dependencies: ["HearthProtocol"], path: "Tests/OutboundTesting"),
        .testTarget(name: "HearthCryptoTests", dependencies: ["HearthCrypto"]),
        .testTarget(name: "HearthCommandLineTests", dependencies: ["HearthCommandLine"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "HearthHTTPTests", dependencies: ["HearthHTTP"]),
        .testTarget(name: "TerminalQRCodeTests", dependencies: ["TerminalQRCode"]),
        .testTarget(name: "SMTPTests", dependencies: ["SMTP"]),
        .testTarget(name: "BCryptTests", dependencies: ["BCrypt"]),
        .testTarget(name: "Argon2Tests", dependencies: ["Argon2"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres"]),
        .testTarget(name: "SAMLTests", dependencies: ["SAML"], resources: [.copy("Fixtures")]),
        .testTarget(name: "JOSETests", dependencies: ["JOSE"], resources: [.copy("Vectors")]),
        .testTarget(name: "HearthProtocolTests", dependencies: ["HearthProtocol"]),
        .testTarget(name: "HearthMetricsTests", dependencies: ["HearthMetrics"]),
        .testTarget(name: "HearthCoreTests", dependencies: ["HearthCore", "HearthProviders", "HearthDevProviders", "OutboundTesting"]),
        .testTarget(
            name: "HearthProvidersTests", dependencies: ["HearthProviders", "HearthCore", "JOSE", "HearthCrypto", "HearthProtocol", "OutboundTesting"]),
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: ["HearthCore", "HearthSQLShared", "HearthSQLite", "HearthPostgres", "Postgres", "HearthProtocol", "HearthCrypto"]),
        .testTarget(name: "HearthServerTests", dependencies: ["HearthServer", "HearthProviders", "HearthDevProviders", "HearthOutbound"]),
        .testTarget(name: "HearthConsoleTests", dependencies: ["HearthConsole", "HearthCore", "HearthProtocol"]),
        .testTarget(name: "HearthAuthTests", dependencies: ["HearthAuth"]),
        .testTarget(name: "HearthSignInTests", dependencies: ["HearthSignIn", "JOSE", "HearthCrypto"]),
        .testTarget(
            name: "HearthAdminTests",
            dependencies: ["HearthAdmin", "HearthVerify", "JOSE", "HearthCrypto", "HearthProtocol", "OutboundTesting"]),
        .testTarget(
            name: "HearthVerifyTests", dependencies: ["HearthVerify", "JOSE", "HearthCrypto", "HearthProtocol", "OutboundTesting"]),
        // Not `hearth`: a test target that depends on an executable links its module, and with it `staticSwiftRuntime()`,
        // which the test runner cannot take. `swift build --build-tests` and `swift test` build it anyway.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "portfolio", "portfolio-api", "HearthAuth", "HearthAdmin", "HearthVerify", "HearthCore", "JOSE", "HearthCrypto", "HearthHTTP",
                "HearthServer", "SMTP", "Postgres", "HearthSQLite", "SAML",
            ]),
    ]
)

/// `hearth` links the Swift runtime and Foundation statically in every configuration, so it needs only Debian's
/// libraries (docs/DEPLOYMENT.md, "Runtime libraries") and the end-to-end tests run the binary as it is deployed.
/// `-static-stdlib` alone brings the runtime; Foundation's static archives are named because the modules were compiled
/// against the shared Foundation (`swift build --static-swift-stdlib` recompiles all of them instead). The list is
/// what `swiftc -static-stdlib` autolinks for `import FoundationNetworking` (Swift 6.3).
func staticSwiftRuntime() -> [LinkerSetting] {
    let foundation = [
        "FoundationNetworking", "_CFURLSessionInterface", "curl", "Foundation", "CoreFoundation",
        "FoundationInternationalization", "_FoundationICU", "FoundationEssentials", "_FoundationCShims",
        "_FoundationCollections", "swiftSynchronization",
    ]
    let flags = ["-static-stdlib", "-Xlinker", "--start-group"] + foundation.map { "-l\($0)" } + ["-Xlinker", "--end-group"]
    return [.unsafeFlags(flags, .when(platforms: [.linux]))]
}

let sharedSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSettings
}
