public import Foundation

/// Where an email action leads after it is completed, and whether the app opens the link itself
/// (FirebaseAuth's `ActionCodeSettings`).
///
/// ```swift
/// var settings = ActionCodeSettings()
/// settings.url = URL(string: "https://example.com/finish-sign-in")
/// settings.handleCodeInApp = true
/// settings.iOSBundleID = "com.example.app"
/// try await Auth.auth().sendSignInLink(toEmail: email, actionCodeSettings: settings)
/// ```
public struct ActionCodeSettings: Sendable, Equatable {
    /// The continue URL (`continueUrl`): where the action page sends the user, or the link the app opens.
    public var url: URL?
    /// Whether the app handles the link itself (`canHandleCodeInApp`); required for email-link sign-in.
    public var handleCodeInApp: Bool
    /// The iOS app that should open the link (`iOSBundleId`).
    public var iOSBundleID: String?

    public init(url: URL? = nil, handleCodeInApp: Bool = false, iOSBundleID: String? = nil) {
        self.url = url
        self.handleCodeInApp = handleCodeInApp
        self.iOSBundleID = iOSBundleID
    }
}
