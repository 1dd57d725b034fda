import Foundation
import HearthCore
import HearthPostgres
import HearthSQLite
import Testing

/// A store implementation under test. Every conformance test runs once per entry of `allCases`;
/// to test another implementation, add one entry.
struct StoreKind: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether the data outlives the store object (reopening `directory` finds it again).
    let isPersistent: Bool
    /// Opens the store kept in `directory`, a fresh temporary directory owned by the test.
    let open: @Sendable (_ directory: String) throws -> any HearthStore

    var testDescription: String { name }

    static let allCases: [StoreKind] = [
        StoreKind(name: "InMemoryStore", isPersistent: false) { _ in InMemoryStore() },
        StoreKind(name: "SQLiteStore", isPersistent: true) { try SQLiteStore(path: "\($0)/hearth.sqlite") },
        StoreKind(name: "PostgresStore", isPersistent: true) {
            try PostgresStore(url: try PostgresTestDatabase.url(forDirectory: $0))
        },
    ]

    static var persistentCases: [StoreKind] { allCases.filter(\.isPersistent) }
}

/// A directory under the system's temporary directory, removed with everything in it (and the PostgreSQL database
/// of its stores, if any) on `deinit`.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-store-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit {
        PostgresTestDatabase.dropDatabase(ofDirectory: path)
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Opens a store of `kind` in a new temporary directory, runs `body`, closes the store and removes
/// its files.
func withStore(_ kind: StoreKind, _ body: (any HearthStore) throws -> Void) throws {
    let directory = try TemporaryDirectory()
    let store = try kind.open(directory.path)
    defer { store.close() }
    try body(store)
}

// MARK: Sample records

/// An account with every field set, in scripts beyond ASCII (anonymous too, which no real account with an
/// email is: the store keeps what it is given).
func fullAccount(_ localID: String = "uid-1", email: String? = "ada@example.com") -> Account {
    Account(
        localID: localID, email: email, emailVerified: true, displayName: "Ada Lovelace-Ümlaut 李 🚀",
        photoURL: "https://example.com/p/ada.png?size=96&q=ü", phoneNumber: "+15555550100",
        passwordHash: "scrypt$AAAA$BBBB", disabled: true, customAttributes: #"{"role":"admin","ünï":"ç"}"#,
        createdAtMillis: 1_700_000_000_123, lastLoginAtMillis: 1_700_000_100_456,
        lastRefreshAtMillis: 1_700_000_200_789, validSinceMillis: 1_700_000_000,
        providers: [
            LinkedIdentity(
                providerID: "google.com", rawID: "109876543210987654321", email: "ada@gmail.com",
                displayName: "Ada G. 🐍", photoURL: "https://lh3.example.com/a", screenName: "ada"),
            LinkedIdentity(
                providerID: "github.com", rawID: "42",
                providerRefreshToken: ProviderRefreshToken(token: "r.github-refresh-ü", clientID: "com.example.app")),
        ],
        isAnonymous: true, passwordUpdatedAtMillis: 1_700_000_050_321, initialEmail: "Ada.Before@Example.com",
        emailLinkSignIn: true)
}

/// An account with every optional field `nil` and no identities.
func bareAccount(_ localID: String = "uid-bare") -> Account {
    Account(localID: localID, createdAtMillis: 5, validSinceMillis: 0)
}

/// A session that was never rotated, with every optional field set (`full`) or none.
func refreshSession(_ id: String, localID: String = "uid-1", full: Bool = true) -> RefreshSession {
    full
        ? RefreshSession(
            sessionID: id, localID: localID, signInProvider: "google.com", authTime: 1_700_000_000,
            secondFactor: "totp", secondFactorIdentifier: "enrol-ü-1", sessionClaims: #"{"amr":["mfa"]}"#,
            startedAtMillis: 1_700_000_000_999, currentTokenHash: "current-of-\(id)")
        : RefreshSession(
            sessionID: id, localID: localID, signInProvider: "password", authTime: 7, startedAtMillis: 8,
            currentTokenHash: "current-of-\(id)")
}

func signingKey(_ keyID: String, createdAt: Int64, retiredAt: Int64? = nil) -> SigningKeyRecord {
    SigningKeyRecord(
        keyID: keyID, algorithm: "RS256",
        privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nMII\(keyID)\n-----END PRIVATE KEY-----\n",
        createdAt: createdAt, retiredAt: retiredAt)
}

func devAccount(_ subject: String, email: String, createdAtMillis: Int64 = 1, full: Bool = true) -> DevIdPAccount {
    full
        ? DevIdPAccount(
            subject: subject, email: email, emailVerified: false, name: "Zoë Žižek", givenName: "Zoë",
            familyName: "Žižek", pictureURL: "https://example.com/z.png", hostedDomain: "example.com",
            locale: "sl-SI", createdAtMillis: createdAtMillis)
        : DevIdPAccount(subject: subject, email: email, createdAtMillis: createdAtMillis)
}

func devGrant(
    _ hash: String, kind: DevIdPGrant.Kind = .authorizationCode, subject: String = "100000000000000000001",
    clientID: String = "client-a", expiresAt: Int64 = 2_000, full: Bool = true
) -> DevIdPGrant {
    full
        ? DevIdPGrant(
            tokenHash: hash, kind: kind, subject: subject, clientID: clientID, scope: "openid email profile",
            redirectURI: "http://127.0.0.1:5555/callback", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            nonce: "n-ü-0S6_WzA2Mj", audience: "server-client", expiresAt: expiresAt, createdAt: 1_000)
        : DevIdPGrant(
            tokenHash: hash, kind: kind, subject: subject, clientID: clientID, scope: "", expiresAt: expiresAt,
            createdAt: 1_000)
}

/// A TOTP factor with every field set; the secret holds every byte value that could trip an encoding.
func totpEnrollment(_ enrollmentID: String, enrolledAtMillis: Int64 = 1_700_000_300_000) -> MFAEnrollment {
    MFAEnrollment(
        enrollmentID: enrollmentID, kind: .totp, displayName: "Authenticator 🔐 Ünï", enrolledAtMillis: enrolledAtMillis,
        phoneNumber: "+15555550199",
        totpSecret: [0x00, 0xFF, 0x00, 0x7F, 0x80, 0x0A, 0x0D, 0x27, 0x22, 0x5C] + Array(0..<10),
        lastUsedTOTPStep: 56_666_666)
}

/// A phone factor with every field set except the TOTP ones.
func phoneEnrollment(_ enrollmentID: String, phoneNumber: String = "+15555550123") -> MFAEnrollment {
    MFAEnrollment(
        enrollmentID: enrollmentID, kind: .phone, displayName: "Work phone", enrolledAtMillis: 1_700_000_400_000,
        phoneNumber: phoneNumber)
}

/// A factor with every optional field `nil`.
func bareEnrollment(_ enrollmentID: String, kind: MFAEnrollment.Kind = .phone) -> MFAEnrollment {
    MFAEnrollment(enrollmentID: enrollmentID, kind: kind, enrolledAtMillis: 3)
}

/// An account (no email, so several can exist) with the given factors.
func enrolledAccount(_ localID: String, _ enrollments: [MFAEnrollment]) -> Account {
    var account = bareAccount(localID)
    account.mfaEnrollments = enrollments
    return account
}

func pendingSignIn(
    _ hash: String, localID: String = "uid-1", expiresAt: Int64 = 2_000, failedAttempts: Int = 0,
    createdAtMillis: Int64 = 1_700_000_000_555
) -> MFAPendingSignIn {
    MFAPendingSignIn(
        credentialHash: hash, localID: localID, signInProvider: "google.com", expiresAt: expiresAt,
        failedAttempts: failedAttempts, createdAtMillis: createdAtMillis)
}

func verificationSession(
    _ hash: String, purpose: VerificationSession.Purpose = .phoneSignIn, localID: String = "uid-1",
    phoneNumber: String? = "+15555550123", expiresAt: Int64 = 2_000, createdAtMillis: Int64 = 1_700_000_000_777,
    full: Bool = true
) -> VerificationSession {
    full
        ? VerificationSession(
            sessionHash: hash, purpose: purpose, localID: localID, phoneNumber: phoneNumber,
            codeHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            totpSecret: [0x00, 0xFF, 0x10, 0x00] + Array(repeating: 0xAB, count: 16),
            pendingCredentialHash: "pending-\(hash)", enrollmentID: "enrol-ü-1", failedAttempts: 2,
            expiresAt: expiresAt, createdAtMillis: createdAtMillis)
        : VerificationSession(
            sessionHash: hash, purpose: purpose, localID: localID, phoneNumber: phoneNumber, expiresAt: expiresAt,
            createdAtMillis: createdAtMillis)
}
