public import Foundation

/// The signed-in user's basic profile: the `GIDProfileData` counterpart.
public struct ProfileData: Sendable, Equatable {
    public var email: String
    /// The full name; empty when the provider did not share one.
    public var name: String
    public var givenName: String?
    public var familyName: String?
    /// Whether the account has a picture (``imageURL(withDimension:)`` returns non-nil).
    public var hasImage: Bool { pictureURL != nil }
    /// The `picture` claim as sent.
    var pictureURL: String?

    public init(email: String, name: String, givenName: String? = nil, familyName: String? = nil, pictureURL: String? = nil) {
        self.email = email
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.pictureURL = pictureURL
    }

    /// The picture at about `dimension` × `dimension` pixels.
    ///
    /// For Google avatar URLs (`lh3`–`lh6` on a `google.*` or `googleusercontent.*` host, path under `/a/` or `/a-/`),
    /// any `=…` sizing suffix of the path is replaced by `=s<dimension>`. Any other URL gets its query replaced by
    /// `sz=<dimension>`.
    ///
    /// - Parameter dimension: the edge length in pixels.
    /// - Returns: nil when the account has no picture or its URL does not parse.
    public func imageURL(withDimension dimension: UInt) -> URL? {
        guard let pictureURL, var components = URLComponents(string: pictureURL) else { return nil }
        if Self.isGoogleAvatar(components) {
            var path = components.percentEncodedPath
            if let equals = path.firstIndex(of: "=") { path = String(path[..<equals]) }
            components.percentEncodedPath = path + "=s\(dimension)"
        } else {
            components.percentEncodedQuery = "sz=\(dimension)"
        }
        return components.url
    }

    private static func isGoogleAvatar(_ components: URLComponents) -> Bool {
        guard let host = components.host?.lowercased() else { return false }
        let labels = host.split(separator: ".")
        guard labels.count >= 2, ["lh3", "lh4", "lh5", "lh6"].contains(String(labels[0])) else { return false }
        let domain = labels[1]
        guard domain == "google" || domain == "googleusercontent" else { return false }
        let path = components.percentEncodedPath
        return path.hasPrefix("/a/") || path.hasPrefix("/a-/")
    }
}
