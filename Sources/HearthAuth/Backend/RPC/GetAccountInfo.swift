import HearthProtocol

/// `getAccountInfo` (v1 `accounts:lookup`): the signed-in user's profile.
struct GetAccountInfoCall: BackendRequest {
    typealias Response = LookupResponse
    var body: LookupRequest
    var service: Service { .relyingParty("getAccountInfo") }
}
