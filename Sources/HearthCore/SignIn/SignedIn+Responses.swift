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
        idToken = tokens.idToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
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
        idToken = tokens.idToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
    }
}

extension SignInWithEmailLinkResponse {
    init(_ signedIn: SignedIn, _ tokens: IssuedTokens, email: String) {
        self.init(localId: signedIn.account.localID, email: email)
        isNewUser = signedIn.isNewUser
        idToken = tokens.idToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
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
