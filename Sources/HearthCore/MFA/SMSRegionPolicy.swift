public import HearthProtocol

/// Identity Platform's SMS region policy (`smsRegionConfig`): which regions may be sent a verification code, told from
/// the destination number (``PhoneRegions``). Either every region but a disallow list (`allowByDefault`) or only an
/// allow list (`allowlistOnly`); without one, every region.
public enum SMSRegionPolicy: Sendable, Equatable {
    case allowByDefault(disallowed: Set<String>)
    case allowlistOnly(allowed: Set<String>)

    /// Every region may be sent codes.
    public static let everywhere = SMSRegionPolicy.allowByDefault(disallowed: [])

    /// The policy an `smsRegionConfig` object states (checked when written: ``check(_:)``); everywhere without one.
    public init(config: JSONValue?) {
        func regions(_ path: String, _ member: String) -> Set<String> {
            Set((config?[path]?[member]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        if config?["allowlistOnly"] != nil {
            self = .allowlistOnly(allowed: regions("allowlistOnly", "allowedRegions"))
        } else {
            self = .allowByDefault(disallowed: regions("allowByDefault", "disallowedRegions"))
        }
    }

    /// Whether a code may be sent to `number`: its region not disallowed, or (allow list) allowed. A number of no
    /// region (a non-geographic code) passes a disallow list and fails an allow list.
    public func permits(_ number: String) -> Bool {
        let region = PhoneRegions.region(of: number)
        switch self {
        case .allowByDefault(let disallowed): return region.map { !disallowed.contains($0) } ?? true
        case .allowlistOnly(let allowed): return region.map(allowed.contains) ?? false
        }
    }

    /// The refusal of a code to a number the policy does not permit, in Firebase's words.
    public static let refusal = WireError(
        .operationNotAllowed, "SMS unable to be sent until this region enabled by the app developer")

    /// Refuses an `smsRegionConfig` that is not exactly one of the two policies, each with a list of known region
    /// codes (`INVALID_CONFIG` naming what is wrong).
    public static func check(_ config: JSONValue) throws {
        guard let object = config.objectValue, object.count == 1, let (name, policy) = object.first,
            let member = ["allowByDefault": "disallowedRegions", "allowlistOnly": "allowedRegions"][name]
        else {
            throw WireError(.invalidConfig, "smsRegionConfig must set exactly one of allowByDefault and allowlistOnly.")
        }
        guard let fields = policy.objectValue, Set(fields.keys).isSubset(of: [member]),
            let list = (fields[member] ?? []).arrayValue
        else { throw WireError(.invalidConfig, "smsRegionConfig.\(name) may only have \(member), a list.") }
        for region in list {
            guard let code = region.stringValue, PhoneRegions.isKnown(code) else {
                throw WireError(.invalidConfig, "smsRegionConfig.\(name).\(member) names an unknown region code.")
            }
        }
    }
}
