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

    /// Drops what is kept of tenant `id` (after it was changed or deleted), so the next request reads it again.
    public func forget(_ id: String) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }
}

/// What a client call does, as far as a tenant's switches are concerned (``Tenant/permit(_:)``).
public enum TenantClientUse: Sendable, Equatable {
    /// `accounts:signUp` with an email, a password or an ID token (`withPassword`), or anonymous.
    case signUp(withPassword: Bool)
    /// `accounts:signInWithPassword`, `accounts:resetPassword`.
    case passwordSignIn
    /// `accounts:signInWithEmailLink`, and `sendOobCode` for `EMAIL_SIGNIN`.
    case emailLinkSignIn
    /// Any other client call.
    case other
}

extension Tenant {
    /// Refuses a client call the tenant's switches forbid, with the emulator's codes: `PROJECT_DISABLED` for every
    /// call while `disableAuth`; `OPERATION_NOT_ALLOWED` for a password sign-up without `allowPasswordSignup` and an
    /// email-link sign-in without `enableEmailLinkSignin`; `PASSWORD_LOGIN_DISABLED` for a password sign-in without
    /// `allowPasswordSignup`; `ADMIN_ONLY_OPERATION` for an anonymous sign-up without `enableAnonymousUser`. Admin
    /// calls are not checked.
    public func permit(_ use: TenantClientUse) throws {
        guard !disableAuth else { throw WireError(.projectDisabled, "Sign-in is disabled for this tenant.") }
        switch use {
        case .signUp(withPassword: true) where !allowPasswordSignup:
            throw WireError(.operationNotAllowed, "Password sign-up is disabled for this tenant.")
        case .signUp(withPassword: false) where !enableAnonymousUser:
            throw WireError(.adminOnlyOperation, "Anonymous sign-up is disabled for this tenant.")
        case .passwordSignIn where !allowPasswordSignup:
            throw WireError(.passwordLoginDisabled, "Password sign-in is disabled for this tenant.")
        case .emailLinkSignIn where !enableEmailLinkSignin:
            throw WireError(.operationNotAllowed, "Email link sign-in is disabled for this tenant.")
        default:
            break
        }
    }
}
