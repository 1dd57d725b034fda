public import Foundation
public import HearthProtocol

/// An Identity Platform tenant as Hearth answers it (firebase-admin's `Tenant`).
public struct Tenant: Sendable, Equatable {
    /// The tenant's id (the last part of its `name`), which ``TenantManager/auth(forTenant:)`` takes.
    public let tenantID: String
    public let displayName: String?
    /// Whether users may sign up with an email and password.
    public let allowPasswordSignup: Bool
    /// Whether users may sign in with email links.
    public let enableEmailLinkSignin: Bool
    /// Whether sign-ins to the tenant are turned off.
    public let disableAuth: Bool
    /// Whether guests (anonymous sign-up) are allowed.
    public let enableAnonymousUser: Bool
    /// Multi-factor settings (`state`, `enabledProviders`, `providerConfigs`), as sent.
    public let mfaConfig: JSONValue?
    /// Fictional phone numbers and their fixed codes.
    public let testPhoneNumbers: [String: String]
    /// The password policy, as sent.
    public let passwordPolicyConfig: JSONValue?
    /// Email privacy (`enableImprovedEmailPrivacy`), as sent.
    public let emailPrivacyConfig: JSONValue?
    /// The SMS region policy (`allowByDefault` or `allowlistOnly`), as sent.
    public let smsRegionConfig: JSONValue?

    /// Reads Hearth's tenant resource; `.unexpectedResponse` without a `name`.
    init(wire: JSONValue) throws(HearthAdminError) {
        guard let name = wire["name"]?.stringValue, let id = name.split(separator: "/").last, name.contains("/tenants/")
        else {
            throw HearthAdminError(.unexpectedResponse, message: "Hearth's tenant has no name")
        }
        tenantID = String(id)
        displayName = wire["displayName"]?.stringValue
        allowPasswordSignup = wire["allowPasswordSignup"]?.boolValue ?? false
        enableEmailLinkSignin = wire["enableEmailLinkSignin"]?.boolValue ?? false
        disableAuth = wire["disableAuth"]?.boolValue ?? false
        enableAnonymousUser = wire["enableAnonymousUser"]?.boolValue ?? false
        mfaConfig = wire["mfaConfig"]
        testPhoneNumbers = (wire["testPhoneNumbers"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
        passwordPolicyConfig = wire["passwordPolicyConfig"]
        emailPrivacyConfig = wire["emailPrivacyConfig"]
        smsRegionConfig = wire["smsRegionConfig"]
    }
}

/// What ``TenantManager/createTenant(_:)`` sets, or ``TenantManager/updateTenant(id:_:)`` changes: each property left
/// nil is not sent (and not changed by an update). The tenant API's own request type, from HearthProtocol.
public typealias TenantProperties = TenantFields

extension TenantFields {
    /// The request body: the properties that are set.
    var wire: JSONValue {
        let encoder = JSONEncoder()
        return (try? encoder.encode(self)).flatMap { try? JSONValue(parsing: $0) } ?? .object([:])
    }
}
