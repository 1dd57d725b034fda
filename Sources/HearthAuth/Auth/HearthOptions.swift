public import Foundation

/// What identifies the app to the server: the `FirebaseOptions` subset HearthAuth needs.
public struct HearthOptions: Sendable, Equatable {
    /// The API key sent as `?key=` on every call.
    public var apiKey: String
    /// The project ID (ID tokens' `aud`).
    public var projectID: String
    /// The app's OAuth client ID, for Google Sign-In.
    public var clientID: String?
    /// The client ID reversed, the URL scheme Google Sign-In redirects to on iOS.
    public var reversedClientID: String?

    public init(apiKey: String, projectID: String, clientID: String? = nil, reversedClientID: String? = nil) {
        self.apiKey = apiKey
        self.projectID = projectID
        self.clientID = clientID
        self.reversedClientID = reversedClientID
    }

    /// Reads a `GoogleService-Info.plist`-style file: `API_KEY` and `PROJECT_ID` are required,
    /// `CLIENT_ID` and `REVERSED_CLIENT_ID` optional. XML and binary property lists both work.
    ///
    /// - Throws: `HearthOptionsError` if the file cannot be read, is not a dictionary, or lacks a
    ///   required key (or has an empty or non-string value for it).
    public init(contentsOf plistURL: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: plistURL)
        } catch {
            throw HearthOptionsError.unreadable(path: plistURL.path, reason: error.localizedDescription)
        }
        let parsed = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let dictionary = parsed as? [String: Any] else {
            throw HearthOptionsError.notADictionary(path: plistURL.path)
        }
        func required(_ key: String) throws -> String {
            guard let value = dictionary[key] as? String, !value.isEmpty else {
                throw HearthOptionsError.missingKey(key, path: plistURL.path)
            }
            return value
        }
        func optional(_ key: String) -> String? {
            guard let value = dictionary[key] as? String, !value.isEmpty else { return nil }
            return value
        }
        self.init(
            apiKey: try required("API_KEY"), projectID: try required("PROJECT_ID"), clientID: optional("CLIENT_ID"),
            reversedClientID: optional("REVERSED_CLIENT_ID"))
    }
}

/// Why `HearthOptions(contentsOf:)` failed.
public enum HearthOptionsError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notADictionary(path: String)
    /// A required key (`API_KEY`, `PROJECT_ID`) is absent, empty or not a string.
    case missingKey(String, path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "Cannot read the options file \(path): \(reason)"
        case .notADictionary(let path): "The options file \(path) is not a property list dictionary."
        case .missingKey(let key, let path): "The options file \(path) has no \(key); add it (a non-empty string)."
        }
    }
}
