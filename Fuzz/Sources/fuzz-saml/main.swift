import Foundation
import FuzzSupport
import SAML

/// `SAMLResponse.read` (the SAML target: libxml2 parsing, libxmlsec1 signatures) on any bytes, trusting the fuzzing
/// IdP's certificate (`Fuzz/Keys/saml-idp-cert.pem`, over `issuer.pem`), which signed the seed responses. The seeds'
/// signed content says `ada@fuzz.test`: whatever the fuzzer makes of them, an accepted document must still say exactly
/// that (a mutation that changes what is read while the signature still verifies is a wrapping bug).
let certificate: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Keys/saml-idp-cert.pem")
    guard let pem = try? String(contentsOf: url, encoding: .utf8) else { fatalError("\(url.path) does not load") }
    return pem
}()
let idp = SAMLIdentityProvider(entityID: "https://idp.fuzz.test/saml", certificates: [certificate])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let response = try? SAMLResponse.read(Array(UnsafeBufferPointer(start: data, count: size)), from: idp) else {
        return 0
    }
    require(response.assertion.nameID == "ada@fuzz.test", "an accepted response names another subject")
    require(
        response.assertion.attributes == ["urn:oid:0.9.2342.19200300.100.1.3": ["ada@fuzz.test"]],
        "an accepted response carries other attributes")
    require(response.assertion.issuer == idp.entityID, "an accepted response names another issuer")
    return 0
}
