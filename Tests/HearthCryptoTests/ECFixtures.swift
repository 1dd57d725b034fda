// EC test keys generated with the OpenSSL 3 command line for these tests only; they protect nothing.

enum ECFixtures {
    /// ``Fixtures/ecPrivate`` as SEC 1 (`openssl ec`).
    static let sec1Private = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEINJH3Ul73xrgjzH6lr26XgvWgqc6z0s4iI/iKmaIZofUoAoGCCqGSM49
        AwEHoUQDQgAElIwjo5j2e3xTAlTtwQdTkvrKn9TJmJDCsAdt4jibyUx7rSiemOKe
        6C3mivbVEPZNobe15wAr6DaXwhAEm2jIlw==
        -----END EC PRIVATE KEY-----
        """

    /// ``sec1Private``'s scalar with the public point of another P-256 key spliced in.
    static let mismatchedSEC1Private = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEINJH3Ul73xrgjzH6lr26XgvWgqc6z0s4iI/iKmaIZofUoAoGCCqGSM49
        AwEHoUQDQgAEyhrQrZJHX5+eVTDSk5RjKxoAaEXHpRV+sDBH6rBlMgt6Bc3A3vSR
        DwLOuXAht3BVKZwhjB47sLYocMqxBboiWQ==
        -----END EC PRIVATE KEY-----
        """

    /// A P-384 public key (SPKI).
    static let p384Public = """
        -----BEGIN PUBLIC KEY-----
        MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEJtUKRZMavTwND0zNlRiKkSF+eLi8I/6H
        hdWdK7+U0iAZrjXytOSUivy2xsKCrfJFbSdZe6fuo6+FEXz6ybCKCIgf9XdhFslp
        RpcVJJg9fGJljncwhYwxS6FddMS1/nTE
        -----END PUBLIC KEY-----
        """

    /// A secp256k1 private key (PKCS#8): 32-byte coordinates like P-256, but another curve (JOSE's ES256K).
    static let secp256k1Private = """
        -----BEGIN PRIVATE KEY-----
        MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgvFCw0YwVrETDzema9GVz
        EDhUbvbuBz1+N5t2gDBzGt2hRANCAASqI2gVn4Ue9It9K/2rf9YkkRhlcsE9/r18
        SuAodciiN+NCbo20cUsofWrfbgyU5oAnmgBzv/XVNqGe8z3eT7OE
        -----END PRIVATE KEY-----
        """

    /// A P-256 public key whose SPKI spells the curve out as explicit parameters instead of naming it
    /// (`openssl ecparam -param_enc explicit`); RFC 5480 §2.1.1 requires the name.
    static let explicitParametersPublic = """
        -----BEGIN PUBLIC KEY-----
        MIIBSzCCAQMGByqGSM49AgEwgfcCAQEwLAYHKoZIzj0BAQIhAP////8AAAABAAAA
        AAAAAAAAAAAA////////////////MFsEIP////8AAAABAAAAAAAAAAAAAAAA////
        ///////////8BCBaxjXYqjqT57PrvVV2mIa8ZR0GsMxTsPY7zjw+J9JgSwMVAMSd
        NgiG5wSTamZ44ROdJreBn36QBEEEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5
        RdiYwpZP40Li/hp/m47n60p8D54WK84zV2sxXs7LtkBoN79R9QIhAP////8AAAAA
        //////////+85vqtpxeehPO5ysL8YyVRAgEBA0IABMu+huQbioeIkfmkCiCiWOAf
        4RIUinW1ybfWhR6bbQK9xj8n9nZPlRuZl/5idzfgL6qURgnuwpm5LxzVSfkPwJo=
        -----END PUBLIC KEY-----
        """
}

/// The ES256 example of RFC 7515 Appendix A.3: its key (public test values) and its JWS.
enum RFC7515ES256 {
    static let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let d = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"
    static let signingInput =
        "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    static let signature = "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
}

/// RFC 6979 Appendix A.2.5: the P-256 key and its deterministic ECDSA signatures with SHA-256.
enum RFC6979P256 {
    static let privateScalar = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
    static let ux = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
    static let uy = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    /// (message, r ‖ s) for SHA-256.
    static let signatures: [(message: String, signature: String)] = [
        ("sample", "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
            + "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        ("test", "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367"
            + "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    ]
}
