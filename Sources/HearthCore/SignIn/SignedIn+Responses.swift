import HearthProtocol

// Each sign-in endpoint's answer, filled from the one `SignedIn` value and its tokens (the iOS SDK's v3 paths answer
// the same types).

extension SignInWithIdpResponse {
    mutating func fill(_ signedIn: SignedIn, _ tokens: IssuedTokens) {
        localId = signedIn.account.localID
        email = signedIn.account.email ?? email
        emailVerified = signedIn.account.emailVerified
        isNewUser = signedIn.linked ? nil : signedIn.isNewUser
        emailRecycled = signedIn.emailRecycled ? true : nil
        carry(tokens)
    }
}

extension SignUpResponse {
    init(_ signedIn: SignedIn, _ tokens: IssuedTokens) {
        self.init(
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn,
            localId: signedIn.account.localID, email: signedIn.account.email, displayName: signedIn.account.displayName)
    }
}

extension SignInWithPasswordResponse {
    init(_ signedIn: SignedIn, _ tokens: IssuedTokens) {
        self.init(localId: signedIn.account.localID, email: signedIn.account.email)
        displayName = signedIn.account.displayName
        profilePicture = signedIn.account.photoURL
        registered = true
        carry(tokens)
    }
}

extension SignInWithEmailLinkResponse {
    init(_ signedIn: SignedIn, _ tokens: IssuedTokens, email: String) {
        self.init(localId: signedIn.account.localID, email: email)
        isNewUser = signedIn.isNewUser
        carry(tokens)
    }
}

extension SignInWithCustomTokenResponse {
    init(_ signedIn: SignedIn, _ tokens: IssuedTokens) {
        self.init(
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn,
            isNewUser: signedIn.isNewUser)
    }
}

extension MFATokensResponse {
    init(_ signedIn: SignedIn, _ tokens: IssuedTokens) {
        self.init(idToken: tokens.idToken, refreshToken: tokens.refreshToken)
    }
}

/// The answers that carry a session's tokens in optional fields (absent when a second factor is pending instead).
protocol CarriesSessionTokens {
    var idToken: String? { get set }
    var refreshToken: String? { get set }
    var expiresIn: String? { get set }
}

extension CarriesSessionTokens {
    mutating func carry(_ tokens: IssuedTokens) {
        idToken = tokens.idToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
    }
}

extension SignInWithIdpResponse: CarriesSessionTokens {}
extension SignInWithPasswordResponse: CarriesSessionTokens {}
extension SignInWithEmailLinkResponse: CarriesSessionTokens {}
