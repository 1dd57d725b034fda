import Foundation

/// A tenant as Identity Platform's tenant API (`/v2/projects/{p}/tenants…`) sends and answers it. The settings that
/// are not booleans travel as JSON objects (`mfaConfig`, `testPhoneNumbers`, `passwordPolicyConfig`,
/// `emailPrivacyConfig`, `smsRegionConfig`); a field left out of a request is `nil`.
public struct TenantFields: Encodable, Sendable, Equatable {
    public var displayName: String?
    public var allowPasswordSignup: Bool?
    public var enableEmailLinkSignin: Bool?
    public var disableAuth: Bool?
    public var enableAnonymousUser: Bool?
    public var mfaConfig: JSONValue?
    public var testPhoneNumbers: JSONValue?
    public var passwordPolicyConfig: JSONValue?
    public var emailPrivacyConfig: JSONValue?
    public var smsRegionConfig: JSONValue?

    /// The fields a request may set, by their wire names: also the fields an `updateMask` may name.
    public static let settable = [
        "displayName", "allowPasswordSignup", "enableEmailLinkSignin", "disableAuth", "enableAnonymousUser",
        "mfaConfig", "testPhoneNumbers", "passwordPolicyConfig", "emailPrivacyConfig", "smsRegionConfig",
    ]
    /// Output-only fields a request may carry (firebase-admin and the console send back what they read); ignored.
    static let outputOnly = ["name", "tenantId"]

    public init(
        displayName: String? = nil, allowPasswordSignup: Bool? = nil, enableEmailLinkSignin: Bool? = nil,
        disableAuth: Bool? = nil, enableAnonymousUser: Bool? = nil, mfaConfig: JSONValue? = nil,
        testPhoneNumbers: JSONValue? = nil, passwordPolicyConfig: JSONValue? = nil, emailPrivacyConfig: JSONValue? = nil,
        smsRegionConfig: JSONValue? = nil
    ) {
        self.smsRegionConfig = smsRegionConfig
        self.displayName = displayName
        self.allowPasswordSignup = allowPasswordSignup
        self.enableEmailLinkSignin = enableEmailLinkSignin
        self.disableAuth = disableAuth
        self.enableAnonymousUser = enableAnonymousUser
        self.mfaConfig = mfaConfig
        self.testPhoneNumbers = testPhoneNumbers
        self.passwordPolicyConfig = passwordPolicyConfig
        self.emailPrivacyConfig = emailPrivacyConfig
    }

    /// Reads a request body. A field of the wrong type, or one the tenant resource does not have, is
    /// `INVALID_ARGUMENT` (as Google's API refuses unknown JSON names); the settings' contents are checked by the
    /// service.
    public init(fields: RequestFields) throws(WireError) {
        for key in fields.values.keys.sorted() where !Self.settable.contains(key) && !Self.outputOnly.contains(key) {
            throw WireError(.invalidArgument, "Invalid JSON payload received. Unknown name \"\(Self.shown(key))\".")
        }
        displayName = try fields.string("displayName")
        allowPasswordSignup = try fields.bool("allowPasswordSignup")
        enableEmailLinkSignin = try fields.bool("enableEmailLinkSignin")
        disableAuth = try fields.bool("disableAuth")
        enableAnonymousUser = try fields.bool("enableAnonymousUser")
        mfaConfig = try Self.object(fields, "mfaConfig")
        testPhoneNumbers = try Self.object(fields, "testPhoneNumbers")
        passwordPolicyConfig = try Self.object(fields, "passwordPolicyConfig")
        emailPrivacyConfig = try Self.object(fields, "emailPrivacyConfig")
        smsRegionConfig = try Self.object(fields, "smsRegionConfig")
    }

    private static func object(_ fields: RequestFields, _ key: String) throws(WireError) -> JSONValue? {
        switch fields.value(key) {
        case nil, .null?: return nil
        case .object(let members)?: return .object(members)
        default: throw WireError(.invalidArgument, "\(key) must be a JSON object.")
        }
    }

    /// A request's name, cut short and kept to printable ASCII, for an error message.
    public static func shown(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.prefix(64).filter { $0.isASCII && $0.value >= 0x20 }))
    }
}

/// `GET /v2/projects/{p}/tenants`'s query: `pageSize` (1 to 1,000; 20 when left out, as the emulator) and
/// `pageToken` (the previous page's `nextPageToken`).
public struct ListTenantsRequest: Sendable, Equatable {
    public static let defaultPageSize = 20
    public static let pageSizeRange = 1...1_000

    public var pageSize: Int
    public var pageToken: String?

    public init(pageSize: Int = defaultPageSize, pageToken: String? = nil) {
        self.pageSize = pageSize
        self.pageToken = pageToken
    }

    /// A page size that is not an integer from 1 to 1,000 is `INVALID_PAGE_SELECTION`.
    public init(fields: RequestFields) throws(WireError) {
        (pageSize, pageToken) = try fields.pageSelection(default: Self.defaultPageSize, range: Self.pageSizeRange)
    }
}

extension RequestFields {
    /// A v2 listing's `pageSize` (`defaultSize` when left out) and `pageToken` (`nil` when left out or empty). A
    /// size that is not an integer in `range` is `INVALID_PAGE_SELECTION`.
    public func pageSelection(default defaultSize: Int, range: ClosedRange<Int>) throws(WireError)
        -> (size: Int, token: String?)
    {
        let token = try string("pageToken").flatMap { $0.isEmpty ? nil : $0 }
        guard let text = try string("pageSize") else { return (defaultSize, token) }
        guard let size = Int(text), range.contains(size) else {
            throw WireError(
                .invalidPageSelection, "pageSize must be an integer from \(range.lowerBound) to \(range.upperBound).")
        }
        return (size, token)
    }
}

/// A tenant as the tenant API answers it: `name` (`projects/{p}/tenants/{id}`) and its settings, every boolean set,
/// side by side in one object.
public struct TenantResponse: Encodable, Sendable, Equatable {
    public var name: String
    public var settings: TenantFields

    public init(name: String, settings: TenantFields) {
        self.name = name
        self.settings = settings
    }

    private enum CodingKeys: String, CodingKey { case name }

    public func encode(to encoder: any Encoder) throws {
        try settings.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
    }
}

/// One page of `GET /v2/projects/{p}/tenants`, by id; `nextPageToken` only when a page may follow.
public struct ListTenantsResponse: Encodable, Sendable, Equatable {
    public var tenants: [TenantResponse]
    public var nextPageToken: String?

    public init(tenants: [TenantResponse], nextPageToken: String?) {
        self.tenants = tenants
        self.nextPageToken = nextPageToken
    }
}
