#if canImport(JOSE) && !canImport(Security)
import Foundation
import JOSE

/// Linux: RS256 through JOSE's ``JWTKeySet``, which binds each key to its algorithm and never accepts `none`.
enum JOSESignatureCheck {
    static func verify(_ token: String, jwks: Data) throws(IDTokenSignatureError) -> Data {
        let set: JSONWebKeySet
        do {
            set = try JSONDecoder().decode(JSONWebKeySet.self, from: jwks)
        } catch {
            throw .invalid("the issuer's key set is not a JSON Web Key Set")
        }
        do {
            return try JWTKeySet(jwks: set).verify(token).payload
        } catch {
            if error.code == .unknownKeyID { throw .unknownKeyID(error.reason) }
            throw .invalid(error.reason)
        }
    }
}
#endif
