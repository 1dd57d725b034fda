public import Foundation
import Dispatch
import HearthProtocol
import Synchronization

/// The entry point of HearthAuth, shaped like FirebaseAuth's `Auth`.
///
/// HearthAuth signs users in to a Hearth server (or Firebase Authentication itself) with the same
/// requests the Firebase iOS SDK sends, keeps the session in a `SessionStore`, and refreshes ID
/// tokens for you.
///
/// ```swift
/// import HearthAuth
///
/// // Once, at launch (like FirebaseApp.configure()):
/// let options = try HearthOptions(contentsOf: URL(fileURLWithPath: "GoogleService-Info.plist"))
/// Auth.configure(options: options)
/// Auth.auth().useEmulator(withHost: "localhost", port: 9099)   // a local `hearth serve --dev`
///
/// // Observe sign-in state:
/// Task {
///     for await user in Auth.auth().authStateChanges {
///         print(user.map { "signed in as \($0.uid)" } ?? "signed out")
///     }
/// }
///
/// // Sign in with the tokens Google Sign-In (or HearthSignIn) returned:
/// let credential = GoogleAuthProvider.credential(withIDToken: googleIDToken, accessToken: googleAccessToken)
/// do {
///     let result = try await Auth.auth().signIn(with: credential)
///     print(result.user.uid, result.additionalUserInfo?.isNewUser == true ? "(new)" : "")
/// } catch let error as AuthError where error.code == .accountExistsWithDifferentCredential {
///     // Sign in with the existing provider for error.email, then link `credential`.
/// }
///
/// // Call your backend:
/// let idToken = try await Auth.auth().currentUser?.getIDToken()
///
/// try Auth.auth().signOut()
/// ```
///
/// For tests or several projects, create instances directly:
/// `Auth(options: options, sessionStore: InMemorySessionStore(), transport: myTransport)`.
public final class Auth: Sendable {
    /// The name of the default instance.
    public static let defaultName = "[DEFAULT]"

    public let options: HearthOptions
    public let name: String

    let backend: Backend
    let sessionStore: any SessionStore
    let clock: @Sendable () -> Date
    /// The `SessionStore` key of this instance's session.
    let storeKey: String

    private let state: Mutex<State>
    /// The project's password policy once `validatePassword(_:)` has fetched it.
    let passwordPolicyCache = Mutex<PasswordPolicy?>(nil)
    /// Listener callbacks run here, one at a time, in the order the changes happened.
    private let callbackQueue: DispatchQueue

    private struct State {
        var currentUser: User?
        var listeners: [Listener] = []
        var nextListenerID: UInt64 = 1
    }

    private struct Listener {
        enum Delivery {
            case callback(@Sendable (Auth, User?) -> Void)
            case stream(AsyncStream<User?>.Continuation)
        }
        var id: UInt64
        /// Auth-state listeners hear only changes of the signed-in uid; ID-token listeners hear all.
        var onlyWhenUserChanges: Bool
        var lastUID: String?
        var delivery: Delivery
    }

    /// Creates an instance and restores the session saved in `sessionStore`, if any.
    ///
    /// - Parameters:
    ///   - clock: the current time; inject one in tests to drive token expiry.
    public init(
        options: HearthOptions, name: String = Auth.defaultName, sessionStore: any SessionStore,
        transport: any HTTPTransport = URLSessionTransport(), clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.options = options
        self.name = name
        self.sessionStore = sessionStore
        self.clock = clock
        backend = Backend(apiKey: options.apiKey, transport: transport)
        storeKey = StoredSession.storeKey(apiKey: options.apiKey, name: name)
        callbackQueue = DispatchQueue(label: "hearth.auth.listeners")
        state = Mutex(State())

        // A session that cannot be read or decoded counts as signed out.
        if let data = try? sessionStore.load(key: storeKey),
            let session = try? JSONDecoder().decode(StoredSession.self, from: data),
            session.uid == session.profile.localId
        {
            let tokens = TokenState(
                idToken: session.idToken, refreshToken: session.refreshToken,
                expirationDate: Date(timeIntervalSince1970: session.idTokenExpiration))
            let user = User(profile: session.profile, tokens: tokens, isAnonymous: session.isAnonymous, auth: self)
            state.withLock { $0.currentUser = user }
        }
    }

    // MARK: - Instances

    private static let instances = Mutex<[String: Auth]>([:])

    /// The default instance. `Auth.configure(options:)` must have been called first.
    public static func auth() -> Auth {
        guard let auth = instances.withLock({ $0[defaultName] }) else {
            preconditionFailure(
                "The default Auth instance has not been configured. Call Auth.configure(options:) once at launch "
                    + "(as with FirebaseApp.configure()) before Auth.auth().")
        }
        return auth
    }

    /// Creates the default instance. Call once, before `Auth.auth()`.
    ///
    /// - Parameters:
    ///   - sessionStore: where the session is kept; default a `FileSessionStore` in its default
    ///     directory (in memory if that directory cannot be created).
    ///   - transport: default `URLSessionTransport()`.
    public static func configure(
        options: HearthOptions, sessionStore: (any SessionStore)? = nil, transport: (any HTTPTransport)? = nil
    ) {
        instances.withLock { instances in
            precondition(instances[defaultName] == nil, "Auth.configure(options:) was already called.")
            instances[defaultName] = Auth(
                options: options, name: defaultName, sessionStore: sessionStore ?? defaultSessionStore(),
                transport: transport ?? URLSessionTransport())
        }
    }

    /// The instance called `name`: created with these arguments on the first call, returned as is
    /// (whatever the arguments) afterwards.
    public static func auth(
        name: String, options: HearthOptions, sessionStore: (any SessionStore)? = nil,
        transport: (any HTTPTransport)? = nil
    ) -> Auth {
        instances.withLock { instances in
            if let existing = instances[name] { return existing }
            let auth = Auth(
                options: options, name: name, sessionStore: sessionStore ?? defaultSessionStore(),
                transport: transport ?? URLSessionTransport())
            instances[name] = auth
            return auth
        }
    }

    private static func defaultSessionStore() -> any SessionStore {
        (try? FileSessionStore()) ?? InMemorySessionStore()
    }

    // MARK: - Configuration

    /// Sends every call to `http://host:port/<production host>/…`, as FirebaseAuth does for the
    /// Auth Emulator. An IPv6 host is put in brackets.
    public func useEmulator(withHost host: String, port: Int) {
        backend.useEmulator(host: host, port: port)
    }

    /// The Identity Platform tenant this instance signs users in to, as FirebaseAuth's `Auth.tenantID`: every
    /// account call names it (`tenantId`), so sign-ups and sign-ins after setting it create and find the tenant's
    /// users. `nil` (the default) is the project itself.
    public var tenantID: String? {
        get { backend.tenantID.withLock { $0 } }
        set { backend.tenantID.withLock { $0 = newValue } }
    }

    // MARK: - Signing in and out

    /// The signed-in user, or nil.
    public var currentUser: User? { state.withLock { $0.currentUser } }

    /// Signs in with a provider credential (`verifyAssertion`; for an `EmailAuthProvider` credential
    /// `verifyPassword` or `emailLinkSignin`), then loads the profile (`getAccountInfo`), saves the session and
    /// notifies listeners.
    ///
    /// - Throws: `AuthError`; notably `.accountExistsWithDifferentCredential` (with `email` and
    ///   `updatedCredential`), `.credentialAlreadyInUse`, `.emailAlreadyInUse`, `.secondFactorRequired`
    ///   (with a `resolver` to finish the sign-in; nothing is saved and no listener is told until it
    ///   does), `.invalidCredential`, `.userDisabled`, `.networkError`.
    @discardableResult
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        if let email = credential.emailCredential { return try await signIn(withEmailCredential: email) }
        let reply = try await backend.call(
            VerifyAssertionCall(body: Self.assertionRequest(for: credential, linkingIDToken: nil)))
        let response = try Self.checkAssertion(reply, credential: credential, auth: self)
        let user = try await signInLocally(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
        return AuthDataResult(
            user: user,
            additionalUserInfo: AdditionalUserInfo(response: response, fallbackProviderID: credential.provider),
            credential: AuthCredential(echoedBy: response, fallbackProviderID: credential.provider))
    }

    /// Signs in as a new anonymous user (a guest: `signupNewUser`), or returns the current user if it is anonymous
    /// already (in this instance's tenant), as Firebase does. Link a provider later (`User.link(with:)`) to keep the guest's uid and data.
    ///
    /// - Throws: `AuthError`: `.tooManyRequests`, `.operationNotAllowed`, `.networkError`.
    @discardableResult
    public func signInAnonymously() async throws -> AuthDataResult {
        if let user = currentUser, user.isAnonymous, user.tenantID == tenantID {
            return AuthDataResult(
                user: user,
                additionalUserInfo: AdditionalUserInfo(providerID: "", profile: nil, username: nil, isNewUser: false),
                credential: nil)
        }
        let response = try await backend.call(SignUpCall(body: SignUpRequest(returnSecureToken: true))).response
        let tokens = TokenState(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, now: clock())
        let user = try await signInLocally(tokens: tokens, isAnonymous: true)
        return AuthDataResult(
            user: user,
            additionalUserInfo: AdditionalUserInfo(providerID: "", profile: nil, username: nil, isNewUser: true),
            credential: nil)
    }

    /// Revokes the current user's Apple tokens (`POST /v2/accounts:revokeToken` with `providerId` `apple.com`,
    /// `tokenType` `"3"`, the authorization code and the user's ID token). App Store apps call it before deleting an
    /// account that signed in with Apple, with a fresh authorization code from Sign in with Apple.
    ///
    /// - Throws: `AuthError`: `.nullUser` when nobody is signed in (FirebaseAuth never completes then);
    ///   `.invalidCredential` for a code Apple refuses; `.networkError`; session errors sign the user out.
    public func revokeToken(withAuthorizationCode authorizationCode: String) async throws {
        guard let user = currentUser else {
            throw AuthError(code: .nullUser, message: "No user is signed in; revoking a token needs the user's ID token.")
        }
        let idToken = try await user.getIDToken()
        try await user.signingOutIfSessionIsDead { () async throws(AuthError) in
            _ = try await backend.call(
                RevokeTokenCall(
                    body: RevokeTokenRequest(
                        providerId: AuthProviderID.apple.rawValue, tokenType: .authorizationCode, token: authorizationCode,
                        idToken: idToken)))
        }
    }

    /// Signs the current user out: removes the saved session and notifies listeners.
    /// - Throws: `.keychainError` if the session store cannot remove the session (the user stays
    ///   signed in).
    public func signOut() throws {
        try state.withLock { state throws(AuthError) in
            do {
                try sessionStore.remove(key: storeKey)
            } catch {
                throw AuthError(code: .keychainError, message: "The saved session could not be removed: \(error)")
            }
            guard state.currentUser != nil else { return }
            state.currentUser = nil
            notify(&state)
        }
    }

    // MARK: - Listeners

    /// Calls `listener` when a user signs in or out (a change of the signed-in uid), and once soon
    /// after registration with the current user. Calls run on a private serial queue.
    @discardableResult
    public func addStateDidChangeListener(
        _ listener: @escaping @Sendable (Auth, User?) -> Void
    ) -> AuthStateDidChangeListenerHandle {
        AuthStateDidChangeListenerHandle(id: register(onlyWhenUserChanges: true, delivery: .callback(listener)))
    }

    public func removeStateDidChangeListener(_ handle: AuthStateDidChangeListenerHandle) {
        unregister(handle.id)
    }

    /// Calls `listener` on sign-in, sign-out and every ID token change, and once soon after
    /// registration with the current user.
    @discardableResult
    public func addIDTokenDidChangeListener(
        _ listener: @escaping @Sendable (Auth, User?) -> Void
    ) -> IDTokenDidChangeListenerHandle {
        IDTokenDidChangeListenerHandle(id: register(onlyWhenUserChanges: false, delivery: .callback(listener)))
    }

    public func removeIDTokenDidChangeListener(_ handle: IDTokenDidChangeListenerHandle) {
        unregister(handle.id)
    }

    /// The signed-in user, then each change of it. The first element is the current state.
    public var authStateChanges: AsyncStream<User?> { stream(onlyWhenUserChanges: true) }

    /// The signed-in user, then each sign-in, sign-out and ID token change. The first element is
    /// the current state.
    public var idTokenChanges: AsyncStream<User?> { stream(onlyWhenUserChanges: false) }

    private func stream(onlyWhenUserChanges: Bool) -> AsyncStream<User?> {
        AsyncStream { continuation in
            let id = register(onlyWhenUserChanges: onlyWhenUserChanges, delivery: .stream(continuation))
            continuation.onTermination = { [weak self] _ in self?.unregister(id) }
        }
    }

    /// Adds a listener and delivers the current user to it, both under the lock, so no change can
    /// slip between the first element and the rest.
    private func register(onlyWhenUserChanges: Bool, delivery: Listener.Delivery) -> UInt64 {
        state.withLock { state in
            let id = state.nextListenerID
            state.nextListenerID += 1
            let user = state.currentUser
            let listener = Listener(
                id: id, onlyWhenUserChanges: onlyWhenUserChanges, lastUID: user?.uid, delivery: delivery)
            state.listeners.append(listener)
            deliver(user, to: listener.delivery)
            return id
        }
    }

    private func unregister(_ id: UInt64) {
        state.withLock { $0.listeners.removeAll { $0.id == id } }
    }

    /// Tells every listener about `state.currentUser`. Called with the lock held, so the order of
    /// deliveries is the order of changes.
    private func notify(_ state: inout State) {
        let user = state.currentUser
        for index in state.listeners.indices {
            if state.listeners[index].onlyWhenUserChanges {
                guard state.listeners[index].lastUID != user?.uid else { continue }
                state.listeners[index].lastUID = user?.uid
            }
            deliver(user, to: state.listeners[index].delivery)
        }
    }

    private func deliver(_ user: User?, to delivery: Listener.Delivery) {
        switch delivery {
        case .callback(let callback): callbackQueue.async { callback(self, user) }
        case .stream(let continuation): continuation.yield(user)
        }
    }

    // MARK: - Session bookkeeping (used by User)

    private func save(_ user: User) throws(AuthError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(user.storedSession)
            try sessionStore.save(data, key: storeKey)
        } catch {
            throw AuthError(code: .keychainError, message: "The session could not be saved: \(error)")
        }
    }

    /// Loads the profile for fresh sign-in tokens (`getAccountInfo`), then saves the session and notifies
    /// listeners.
    func signInLocally(tokens: TokenState, isAnonymous: Bool) async throws(AuthError) -> User {
        let record = try await User.lookup(idToken: tokens.idToken, backend: backend)
        let user = User(profile: record, tokens: tokens, isAnonymous: isAnonymous, auth: self)
        try signInLocally(user)
        return user
    }

    /// `signInLocally(tokens:isAnonymous:)` for the tokens of a (non-anonymous) sign-in response, which must have
    /// both.
    func signInLocally(idToken: String?, refreshToken: String?, expiresIn: String?) async throws(AuthError) -> User {
        let tokens = try TokenState(
            signInIDToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn, now: clock())
        return try await signInLocally(tokens: tokens, isAnonymous: false)
    }

    /// Saves `user`'s session and makes it the current user.
    func signInLocally(_ user: User) throws(AuthError) {
        try state.withLock { state throws(AuthError) in
            try save(user)
            state.currentUser = user
            notify(&state)
        }
    }

    /// After a user's tokens or profile changed: saves the session if `user` is still the current
    /// user (a late refresh must not bring back a signed-out session) and, for a new token,
    /// notifies ID-token listeners.
    func userDidChange(_ user: User, tokenChanged: Bool) throws(AuthError) {
        try state.withLock { state throws(AuthError) in
            guard state.currentUser === user else { return }
            try save(user)
            if tokenChanged { notify(&state) }
        }
    }

    /// Signs `user` out locally because the server declared the session dead or the account was
    /// deleted. Store errors are ignored: the user must not stay signed in.
    func signOutByForce(_ user: User) {
        state.withLock { state in
            guard state.currentUser === user else { return }
            try? sessionStore.remove(key: storeKey)
            state.currentUser = nil
            notify(&state)
        }
    }

    // MARK: - verifyAssertion

    /// The body iOS sends (PROTOCOL.md §4.1). `postBody` is built with URLComponents, in the order
    /// `providerId`, `id_token`, `nonce`, `access_token`, `user`. iOS sends the query undecoded (`query`); this
    /// sends it form-escaped, which a form decoder reads the same and which stays intact for names with `&` or `=`.
    /// `autoCreate` is false for a reauthentication, as in iOS.
    static func assertionRequest(
        for credential: AuthCredential, linkingIDToken: String?, autoCreate: Bool = true
    ) -> SignInWithIdpRequest {
        var items = [URLQueryItem(name: "providerId", value: credential.provider)]
        if let idToken = credential.idToken { items.append(URLQueryItem(name: "id_token", value: idToken)) }
        if let nonce = credential.rawNonce { items.append(URLQueryItem(name: "nonce", value: nonce)) }
        if let accessToken = credential.accessToken {
            items.append(URLQueryItem(name: "access_token", value: accessToken))
        }
        if let user = appleUserJSON(credential.fullName) { items.append(URLQueryItem(name: "user", value: user)) }
        var components = URLComponents()
        components.queryItems = items
        // URLComponents leaves `+` alone, which a form decoder reads as a space; escape it.
        let postBody = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return SignInWithIdpRequest(
            requestUri: "http://localhost", postBody: postBody, returnSecureToken: true, returnIdpCredential: true,
            autoCreate: autoCreate, idToken: linkingIDToken, pendingToken: credential.pendingToken)
    }

    /// `{"name":{"firstName":…,"lastName":…}}` with sorted keys, as iOS's `VerifyAssertionRequest` builds it: only
    /// when a given or family name is present, each key only when its part is.
    static func appleUserJSON(_ fullName: PersonNameComponents?) -> String? {
        guard let fullName, fullName.givenName != nil || fullName.familyName != nil else { return nil }
        var name: [String: String] = [:]
        if let given = fullName.givenName { name["firstName"] = given }
        if let family = fullName.familyName { name["lastName"] = family }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(["name": name]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The `.secondFactorRequired` error a sign-in response stands for, or nil: a second factor is required when
    /// the response has `mfaPendingCredential`, or `mfaInfo` and no `idToken` (PROTOCOL.md §6.1). The error
    /// carries a `MultiFactorResolver` for `auth` (none if `auth` is gone).
    static func secondFactorRequired(
        pendingCredential: String?, mfaInfo: [MFAEnrollmentInfo]?, idToken: String?, email: String?, auth: Auth?
    ) -> AuthError? {
        guard pendingCredential != nil || (mfaInfo != nil && (idToken ?? "").isEmpty) else { return nil }
        let resolver = auth.map { auth in
            MultiFactorResolver(
                pendingCredential: pendingCredential,
                hints: MultiFactorInfo.factors(from: mfaInfo ?? [], fallbackDate: auth.clock()), auth: auth)
        }
        return AuthError(
            code: .secondFactorRequired, message: nil, serverCode: nil, email: email, updatedCredential: nil,
            resolver: resolver)
    }

    /// Turns the outcomes a 200 can carry into errors, in the iOS SDK's order: `errorMessage`,
    /// a second factor, `needConfirmation`.
    ///
    /// The second factor is `secondFactorRequired(…)`.
    static func checkAssertion(
        _ reply: BackendReply<SignInWithIdpResponse>, credential: AuthCredential, auth: Auth?
    ) throws(AuthError) -> SignInWithIdpResponse {
        let response = reply.response
        let echoed = AuthCredential(echoedBy: response, fallbackProviderID: credential.provider)
        if let message = response.errorMessage {
            let code: String
            var detail: String?
            if let colon = message.firstIndex(of: ":") {
                code = message[..<colon].trimmingCharacters(in: .whitespaces)
                detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            } else {
                code = message.trimmingCharacters(in: .whitespaces)
            }
            throw AuthError(
                wire: WireError(ErrorCode(rawValue: code), detail), email: response.email, updatedCredential: echoed)
        }
        if let secondFactor = secondFactorRequired(
            pendingCredential: response.mfaPendingCredential, mfaInfo: response.mfaInfo, idToken: response.idToken,
            email: response.email, auth: auth)
        {
            throw secondFactor
        }
        if response.needConfirmation == true {
            throw AuthError(
                code: .accountExistsWithDifferentCredential, message: nil, serverCode: nil, email: response.email,
                updatedCredential: echoed, resolver: nil)
        }
        return response
    }
}

/// Identifies a listener added with `addStateDidChangeListener(_:)`.
public struct AuthStateDidChangeListenerHandle: Hashable, Sendable {
    let id: UInt64
}

/// Identifies a listener added with `addIDTokenDidChangeListener(_:)`.
public struct IDTokenDidChangeListenerHandle: Hashable, Sendable {
    let id: UInt64
}

extension AuthCredential {
    /// The IdP credential a verifyAssertion response echoes (`oauthIdToken`, `oauthAccessToken`,
    /// `pendingToken`), as FirebaseAuth builds its `OAuthCredential`; nil if it echoes none.
    init?(echoedBy response: SignInWithIdpResponse, fallbackProviderID: String) {
        guard response.oauthIdToken != nil || response.oauthAccessToken != nil || response.pendingToken != nil else {
            return nil
        }
        self.init(
            provider: response.providerId ?? fallbackProviderID, idToken: response.oauthIdToken,
            accessToken: response.oauthAccessToken, pendingToken: response.pendingToken)
    }
}
