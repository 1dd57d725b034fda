public import HearthProtocol
import Synchronization

/// The services of each tenant (``IdentityPlatform/scoped(to:)``), kept for the requests that name one, with the
/// tenant's record.
///
/// Bounds: a tenant's record is read from the store at most once per ``freshnessMillis`` (5 seconds) per instance, so
/// a change made through another instance (a switch turned off, the tenant deleted) is seen here within that bound;
/// changes made through this instance are seen at once (the tenant routes call ``forget(_:)``). At most
/// ``capacity`` tenants are kept; a new one beyond that replaces the one read longest ago. The project's own
/// requests never come here (no cost on its path).
public final class TenantPlatforms: Sendable {
    /// The project's services, which every tenant's share their keys, limiter, providers and senders with.
    public let project: IdentityPlatform
    /// How long a tenant's record is used before it is read again, in milliseconds.
    public static let freshnessMillis: Int64 = 5_000
    /// How many tenants are kept at most.
    public static let capacity = 1_024

    private struct Entry {
        let tenant: Tenant
        let platform: IdentityPlatform
        let readAtMillis: Int64
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init(project: IdentityPlatform) {
        self.project = project
    }

    /// The tenant `id` and its services; `TENANT_NOT_FOUND` when no tenant has this id (or none can).
    public func tenant(_ id: String) throws -> (tenant: Tenant, platform: IdentityPlatform) {
        let now = project.time.nowMillis
        let cached = entries.withLock { $0[id] }
        if let cached, cached.readAtMillis <= now, now - cached.readAtMillis < Self.freshnessMillis {
            return (cached.tenant, cached.platform)
        }
        let tenant: Tenant
        do {
            tenant = try project.tenants.tenant(id: id)
        } catch let error as WireError where error.code == .invalidTenantID || error.code == .tenantNotFound {
            forget(id)
            throw TenantService.notFound
        }
        let platform = try cached?.platform ?? project.scoped(to: .tenant(id))
        let entry = Entry(tenant: tenant, platform: platform, readAtMillis: now)
        entries.withLock { entries in
            if entries[id] == nil, entries.count >= Self.capacity,
                let oldest = entries.min(by: { $0.value.readAtMillis < $1.value.readAtMillis })?.key
            {
                entries[oldest] = nil
            }
            entries[id] = entry
        }
        return (tenant, platform)
    }

    /// Drops what is kept of tenant `id` (after it was changed or deleted), its enforced settings included, so the
    /// next request reads it again.
    public func forget(_ id: String) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
        if let scope = try? StoreScope.tenant(id) { project.configDirectory.forget(scope) }
    }
}

extension Tenant {
    /// The tenant's switches: `disableAuth`, `allowPasswordSignup` (password sign-up and sign-in),
    /// `enableEmailLinkSignin`, `enableAnonymousUser`.
    public var switches: SignInSwitches {
        SignInSwitches(
            disabled: disableAuth, password: allowPasswordSignup, emailLink: enableEmailLinkSignin,
            anonymous: enableAnonymousUser, subject: "this tenant")
    }

    /// Refuses a client call the tenant's switches forbid (``SignInSwitches/permit(_:)``).
    public func permit(_ use: SignInUse) throws { try switches.permit(use) }
}
