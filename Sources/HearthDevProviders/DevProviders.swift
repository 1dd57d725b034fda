public import HearthCore

/// `--dev`'s look-alikes of Google and Apple over the platform's store, made before the platform, which trusts them
/// through its configuration (``trust(in:)``); HearthServer serves their pages.
public struct DevProviders: Sendable {
    /// The local Google look-alike.
    public let google: DevIdentityProvider
    /// The local Sign in with Apple look-alike, whose people are the dev Google's accounts; nil when not configured.
    public let apple: DevAppleProvider?

    /// Loads (or on first start creates) their signing keys.
    ///
    /// - Parameters:
    ///   - apple: the dev Apple's settings and the check of its clients' ES256 secrets.
    public init(
        google configuration: DevIdPConfiguration, apple: (DevAppleConfiguration, any AppleClientSecretChecking)?,
        store: any HearthStore, time: any TimeSource
    ) throws {
        let keys = SigningKeyRing(
            store: store, time: time, owner: .devIdentityProvider, tokenLifetime: configuration.idTokenLifetime)
        try keys.loadOrCreate()
        let google = DevIdentityProvider(configuration: configuration, store: store, keys: keys, time: time)
        self.google = google
        self.apple = try apple.map { configuration, clientSecrets in
            try DevAppleProvider(
                configuration: configuration, accounts: google, store: store, time: time, clientSecrets: clientSecrets)
        }
    }

    /// Trusts the dev Google as the first Google issuer and the dev Apple as the first Apple issuer, with its client
    /// IDs added to Apple's (an `apple.com` entry is added when there is none).
    public func trust(in configuration: inout IdentityPlatform.Configuration) {
        configuration.googleIssuers.insert(google, at: 0)
        guard let apple else { return }
        if let index = configuration.otherProviders.firstIndex(where: { $0.id == IdentityProvider.appleID }) {
            configuration.otherProviders[index].issuers.insert(apple, at: 0)
            configuration.otherProviders[index].clientIDs.formUnion(apple.configuration.clientIDs)
        } else {
            configuration.otherProviders.append(.apple(issuers: [apple], clientIDs: apple.configuration.clientIDs))
        }
    }
}
