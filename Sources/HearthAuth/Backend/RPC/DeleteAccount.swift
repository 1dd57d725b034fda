import HearthProtocol

/// `deleteAccount` (v1 `accounts:delete`). iOS sends `localId` along with `idToken`.
struct DeleteAccountCall: BackendRequest {
    typealias Response = DeleteAccountResponse
    var body: DeleteAccountRequest
    var service: Service { .relyingParty("deleteAccount") }
}
