import Foundation
public import HearthProtocol

extension AdminAuth {
    /// The most identifiers ``getUsers(_:)`` takes, as Firebase.
    public static let maximumGetUsersCount = 100
    /// The most uids ``deleteUsers(_:)`` and users ``importUsers(_:)`` take, as Firebase.
    public static let maximumBatchCount = 1000

    /// The user with this uid (`accounts:lookup` with `localId`).
    ///
    /// - Throws: ``HearthAdminError``: `.userNotFound`, `.invalidUID`, or any error of the call.
    public func getUser(uid: String) async throws(HearthAdminError) -> UserRecord {
        try Self.checkUID(uid)
        return try await lookUpOne(["localId": [.string(uid)]], describing: "uid")
    }

    /// The user with this email (`accounts:lookup` with `email`).
    ///
    /// - Throws: ``HearthAdminError``: `.userNotFound`, or any error of the call.
    public func getUser(email: String) async throws(HearthAdminError) -> UserRecord {
        try await lookUpOne(["email": [.string(email)]], describing: "email")
    }

    /// The user with this phone number (`accounts:lookup` with `phoneNumber`).
    ///
    /// - Throws: ``HearthAdminError``: `.userNotFound`, or any error of the call.
    public func getUser(phoneNumber: String) async throws(HearthAdminError) -> UserRecord {
        try await lookUpOne(["phoneNumber": [.string(phoneNumber)]], describing: "phone number")
    }

    /// The users these identifiers name, in one `accounts:lookup`, and the identifiers that matched nobody.
    ///
    /// - Parameter identifiers: at most ``maximumGetUsersCount``.
    /// - Throws: ``HearthAdminError``: `.maximumUserCountExceeded`, `.invalidUID`, or any error of the call.
    public func getUsers(_ identifiers: [UserIdentifier]) async throws(HearthAdminError) -> GetUsersResult {
        guard identifiers.count <= Self.maximumGetUsersCount else {
            throw HearthAdminError(
                .maximumUserCountExceeded, message: "getUsers takes at most \(Self.maximumGetUsersCount) identifiers")
        }
        guard !identifiers.isEmpty else { return GetUsersResult(users: [], notFound: []) }
        var uids: [JSONValue] = [], emails: [JSONValue] = [], phones: [JSONValue] = [], federated: [JSONValue] = []
        for identifier in identifiers {
            switch identifier {
            case .uid(let uid):
                try Self.checkUID(uid)
                uids.append(.string(uid))
            case .email(let email): emails.append(.string(email))
            case .phoneNumber(let number): phones.append(.string(number))
            case .provider(let providerID, let providerUID):
                federated.append(["providerId": .string(providerID), "rawId": .string(providerUID)])
            }
        }
        var body: [String: JSONValue] = [:]
        if !uids.isEmpty { body["localId"] = .array(uids) }
        if !emails.isEmpty { body["email"] = .array(emails) }
        if !phones.isEmpty { body["phoneNumber"] = .array(phones) }
        if !federated.isEmpty { body["federatedUserId"] = .array(federated) }
        let users = try await lookUp(.object(body))
        return GetUsersResult(users: users, notFound: identifiers.filter { identifier in !users.contains(where: identifier.matches) })
    }

    /// Creates a user (`POST …/accounts`), then reads it back.
    ///
    /// - Throws: ``HearthAdminError``: `.emailAlreadyExists`, `.uidAlreadyExists`, `.phoneNumberAlreadyExists`,
    ///   `.invalidEmail`, `.invalidPhoneNumber`, `.operationNotAllowed`, …
    public func createUser(_ request: CreateUserRequest) async throws(HearthAdminError) -> UserRecord {
        if let uid = request.uid { try Self.checkUID(uid) }
        let created = try await backend.post("/accounts", request.wire, as: WireReply.LocalID.self)
        return try await getUser(uid: created.localId)
    }

    /// Changes a user (`accounts:update`), then reads it back.
    ///
    /// - Throws: ``HearthAdminError``: `.userNotFound`, `.emailAlreadyExists`, `.forbiddenClaim`, `.claimsTooLarge`, …
    public func updateUser(uid: String, _ changes: UpdateUserRequest) async throws(HearthAdminError) -> UserRecord {
        try Self.checkUID(uid)
        let updated = try await backend.post("/accounts:update", try changes.wire(uid: uid), as: WireReply.LocalID.self)
        return try await getUser(uid: updated.localId)
    }

    /// Deletes a user (`accounts:delete`).
    ///
    /// - Throws: ``HearthAdminError``: `.userNotFound`, `.invalidUID`, or any error of the call.
    public func deleteUser(uid: String) async throws(HearthAdminError) {
        try Self.checkUID(uid)
        _ = try await backend.post("/accounts:delete", ["localId": .string(uid)], as: WireReply.Empty.self)
    }

    /// Deletes many users in one `accounts:batchDelete`, enabled or not (`force: true`, as firebase-admin sends).
    /// Uids that name nobody count as deleted.
    ///
    /// - Parameter uids: at most ``maximumBatchCount``.
    /// - Returns: how many were deleted and why the others were not.
    public func deleteUsers(_ uids: [String]) async throws(HearthAdminError) -> BatchResult {
        guard uids.count <= Self.maximumBatchCount else {
            throw HearthAdminError(.maximumUserCountExceeded, message: "deleteUsers takes at most \(Self.maximumBatchCount) uids")
        }
        guard !uids.isEmpty else { return BatchResult(successCount: 0, errors: []) }
        for uid in uids { try Self.checkUID(uid) }
        let reply = try await backend.post(
            "/accounts:batchDelete", ["localIds": .array(uids.map(JSONValue.string)), "force": true],
            as: WireReply.BatchDelete.self)
        return try BatchResult(count: uids.count, rows: reply.errors ?? [], unknown: .internalError)
    }

    /// Replaces a user's custom claims (`accounts:update` with `customAttributes`); nil or `[:]` removes them.
    /// They appear in the user's ID tokens from the next refresh on.
    ///
    /// - Throws: ``HearthAdminError``: `.forbiddenClaim` (a reserved name such as `sub`), `.claimsTooLarge` (over
    ///   1,000 UTF-16 code units as JSON), `.userNotFound`, …
    public func setCustomUserClaims(uid: String, _ claims: [String: JSONValue]?) async throws(HearthAdminError) {
        try Self.checkUID(uid)
        let text = try CustomClaims.serialize(claims ?? [:])
        _ = try await backend.post(
            "/accounts:update", ["localId": .string(uid), "customAttributes": .string(text)], as: WireReply.LocalID.self)
    }

    /// Revokes all of a user's sessions: sets `validSince` to now (whole seconds), so Hearth refuses the user's
    /// refresh tokens and `verifyIDToken(_:checkRevoked: true)` refuses ID tokens issued before.
    ///
    /// - Throws: ``HearthAdminError``: `.userNotFound`, …
    public func revokeRefreshTokens(uid: String) async throws(HearthAdminError) {
        try Self.checkUID(uid)
        let now = Int64(backend.clock().timeIntervalSince1970.rounded(.down))
        _ = try await backend.post(
            "/accounts:update", ["localId": .string(uid), "validSince": .integer(now)], as: WireReply.LocalID.self)
    }

    /// Imports users with the uids, profiles, providers, claims, metadata and phone factors they had elsewhere, in
    /// one `accounts:batchCreate` (no password hashes).
    ///
    /// - Parameter users: at most ``maximumBatchCount``.
    /// - Returns: how many were imported and why the others were not.
    /// - Throws: ``HearthAdminError``: `.maximumUserCountExceeded`, `.invalidUID`, `.forbiddenClaim`,
    ///   `.claimsTooLarge` for a bad row before sending; `.uidAlreadyExists`/`.emailAlreadyExists` when Hearth
    ///   refuses the whole request.
    public func importUsers(_ users: [UserImportRecord]) async throws(HearthAdminError) -> BatchResult {
        guard users.count <= Self.maximumBatchCount else {
            throw HearthAdminError(.maximumUserCountExceeded, message: "importUsers takes at most \(Self.maximumBatchCount) users")
        }
        guard !users.isEmpty else { return BatchResult(successCount: 0, errors: []) }
        var rows: [JSONValue] = []
        for user in users { rows.append(try user.wire()) }
        let reply = try await backend.post("/accounts:batchCreate", ["users": .array(rows)], as: WireReply.BatchCreate.self)
        return try BatchResult(count: users.count, rows: reply.error ?? [], unknown: .invalidUserImport)
    }

    // MARK: - Lookup

    private func lookUp(_ body: JSONValue) async throws(HearthAdminError) -> [UserRecord] {
        var users: [UserRecord] = []
        for wire in try await lookUpWire(body) { users.append(try UserRecord(wire: wire)) }
        return users
    }

    /// The user with this uid as the lookup answers it (with `validSinceMillis`), for revocation checks.
    func wireUser(uid: String) async throws(HearthAdminError) -> HearthProtocol.UserRecord {
        guard let user = try await lookUpWire(["localId": [.string(uid)]]).first else {
            throw HearthAdminError(.userNotFound, message: "no user record was found for the given uid")
        }
        return user
    }

    private func lookUpWire(_ body: JSONValue) async throws(HearthAdminError) -> [HearthProtocol.UserRecord] {
        try await backend.post("/accounts:lookup", body, as: WireReply.Lookup.self).users ?? []
    }

    private func lookUpOne(_ body: JSONValue, describing key: String) async throws(HearthAdminError) -> UserRecord {
        guard let user = try await lookUp(body).first else {
            throw HearthAdminError(.userNotFound, message: "no user record was found for the given \(key)")
        }
        return user
    }
}
