/// One Identity Platform tenant of the project, as the store keeps it (a project-wide record: the same from every
/// scope). Its accounts, sessions and codes live in the scope `StoreScope.tenant(id)`.
///
/// The settings that are not plain booleans are kept as the JSON text the tenant API sent and answers
/// (`TenantSettings` validates them before they are stored): `mfaConfig` (an object), `testPhoneNumbers` (an
/// object of E.164 number to code), `passwordPolicyConfig`, `emailPrivacyConfig` and `smsRegionConfig` (objects).
/// `nil` is unset.
public struct Tenant: Sendable, Equatable {
    /// The tenant id (its resource name's last part, `projects/{p}/tenants/{id}`).
    public var id: String
    public var displayName: String?
    public var allowPasswordSignup: Bool
    public var enableEmailLinkSignin: Bool
    public var disableAuth: Bool
    public var enableAnonymousUser: Bool
    /// JSON text of the `mfaConfig` object.
    public var mfaConfig: String?
    /// JSON text of the `testPhoneNumbers` object.
    public var testPhoneNumbers: String?
    /// JSON text of the `passwordPolicyConfig` object.
    public var passwordPolicyConfig: String?
    /// JSON text of the `emailPrivacyConfig` object.
    public var emailPrivacyConfig: String?
    /// JSON text of the `smsRegionConfig` object.
    public var smsRegionConfig: String?
    public var createdAtMillis: Int64
    public var updatedAtMillis: Int64

    public init(
        id: String, displayName: String? = nil, allowPasswordSignup: Bool = false,
        enableEmailLinkSignin: Bool = false, disableAuth: Bool = false, enableAnonymousUser: Bool = false,
        mfaConfig: String? = nil, testPhoneNumbers: String? = nil, passwordPolicyConfig: String? = nil,
        emailPrivacyConfig: String? = nil, smsRegionConfig: String? = nil, createdAtMillis: Int64,
        updatedAtMillis: Int64
    ) {
        self.smsRegionConfig = smsRegionConfig
        self.id = id
        self.displayName = displayName
        self.allowPasswordSignup = allowPasswordSignup
        self.enableEmailLinkSignin = enableEmailLinkSignin
        self.disableAuth = disableAuth
        self.enableAnonymousUser = enableAnonymousUser
        self.mfaConfig = mfaConfig
        self.testPhoneNumbers = testPhoneNumbers
        self.passwordPolicyConfig = passwordPolicyConfig
        self.emailPrivacyConfig = emailPrivacyConfig
        self.createdAtMillis = createdAtMillis
        self.updatedAtMillis = updatedAtMillis
    }

    /// The scope of the tenant's records.
    public var scope: StoreScope { StoreScope(storedTenantID: id) }
}
