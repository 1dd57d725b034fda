import HearthProtocol

/// `setAccountInfo` (v1 `accounts:update`): profile changes and unlinking.
struct SetAccountInfoCall: BackendRequest {
    typealias Response = UpdateAccountResponse
    var body: UpdateAccountRequest
    var service: Service { .relyingParty("setAccountInfo") }
}
