import HearthCore

/// Help texts for `hearth --help` and each command's `--help`.
enum Help {
    static let main = """
        \(HearthVersion.line) — a self-hosted identity server that speaks Firebase Authentication's wire protocol.

        Usage: hearth <command> [options]

        Commands:
          serve         Run the server (Identity Toolkit, Secure Token, JWKS; with --dev a local Google look-alike)
          keys list     List the token signing keys
          keys rotate   Make a new signing key; the old one stays published until its tokens expire
          keys reencrypt
                        Encrypt every private signing key, TOTP secret and provider token under the current
                        encryption key
          users …       List, find, create, import and export users; show, disable, enable, revoke the
                        sessions of, set the claims of, or delete one user
          service-accounts create|list|revoke
                        Manage the service accounts that may call the admin API (key files for google-auth)
          tenants list|create|get|delete
                        Manage the project's Identity Platform tenants (as the /v2 tenant API does)
          db backup     Copy the SQLite database to a new file while servers keep running
          db copy       Copy a database into a new, empty one (SQLite to PostgreSQL and back)
          audit         Print the audit log: sign-ins, account changes, lockouts, key rotations (newest first)
          version       Print the version (also --version)
          help [cmd]    Show help for a command

        Run 'hearth <command> --help' for a command's options.
        """

    static let serve = """
        Usage: hearth serve [options]

        Options (each also as an environment variable; flags win over the environment, which wins over --config):
          --host ADDR          Address to listen on (HEARTH_HOST, default 127.0.0.1)
          --port N             Port to listen on, 0 for any free port (HEARTH_PORT, default 9099)
          --data-dir DIR       Where the SQLite database lives (HEARTH_DATA_DIR, default ./.hearth)
          --database DB        The database instead: sqlite:PATH (or a path), or postgres://user:pass@host/db?sslmode=…
                               for several instances sharing one PostgreSQL database (HEARTH_DATABASE_URL)
          --public-url URL     URL clients use to reach this server (HEARTH_PUBLIC_URL, default http://HOST:PORT)
          --project-id ID      Firebase project id (HEARTH_PROJECT_ID; --dev default demo-hearth)
          --dev                Development mode: any non-empty API key, the dev Google IdP at /dev/google,
                               Google client ID hearth-dev.apps.googleusercontent.com, the dev Apple at
                               /dev/apple, the dev SAML IdP at /dev/saml (HEARTH_DEV=1)
          --firebase-issuer    Issue tokens with iss https://securetoken.google.com/<project>, as firebase-admin
                               expects (HEARTH_FIREBASE_ISSUER=1; the default with --dev)
          --hearth-issuer      Issue tokens with iss <public-url>/<project> (HEARTH_FIREBASE_ISSUER=0; the default
                               without --dev)
          --config FILE.json   Settings file (HEARTH_CONFIG); see docs/CONFIGURATION.md
          --threads N          HTTP worker threads (HEARTH_THREADS, default: 3 × cores, at least 6)
          --trusted-proxies L  Comma-separated proxy addresses/CIDR blocks whose X-Forwarded-For names the
                               client for rate limits (HEARTH_TRUSTED_PROXIES, default none)
          --metrics-port P     Serve /metrics, /healthz and /readyz on this port too (on --host), and /metrics only
                               there (HEARTH_METRICS_PORT); HEARTH_METRICS_TOKEN: bearer token /metrics requires
          --log-format F       text (default) or json: one JSON object per request and event line (HEARTH_LOG_FORMAT)
          --shutdown-delay S   After SIGTERM, keep answering S seconds (0–300) while /readyz says 503, so load
                               balancers drain this instance first (HEARTH_SHUTDOWN_DELAY, default 0)
          --encryption-key-file FILE
                               Key that encrypts private signing keys, TOTP secrets and provider tokens at rest: 32 bytes in
                               base64 (openssl rand -base64 32), in an owner-only file (HEARTH_ENCRYPTION_KEY_FILE,
                               or the key itself in HEARTH_ENCRYPTION_KEY; default: not encrypted)
          --encryption-key-previous-file FILE
                               Older keys, one per line, that only decrypt, during a key rotation
                               (HEARTH_ENCRYPTION_KEY_PREVIOUS_FILE, or comma-separated in HEARTH_ENCRYPTION_KEY_PREVIOUS)

        Without --dev, API keys (HEARTH_API_KEYS, comma-separated) and a sign-in provider must be configured:
        Google OAuth client IDs (HEARTH_GOOGLE_CLIENT_IDS), Apple bundle/services IDs (HEARTH_APPLE_CLIENT_IDS),
        or "oidcProviders" in --config (docs/CONFIGURATION.md).

        HTTP limits (environment, or the "http" object of --config; see docs/CONFIGURATION.md):
          HEARTH_HTTP_MAX_CONNECTIONS              open connections (1024)
          HEARTH_HTTP_MAX_CONNECTIONS_PER_ADDRESS  open connections per client address, 0 = off (64)
          HEARTH_HTTP_REQUEST_TIMEOUT              seconds to send a whole request, 0 = off (20)
          HEARTH_HTTP_IDLE_TIMEOUT                 seconds a silent connection stays open, 0 = off (30)
          HEARTH_HTTP_BUSY_CONNECTIONS             open connections at which idle ones are closed early (3/4 of max)
          HEARTH_HTTP_BUSY_IDLE_TIMEOUT            seconds an idle connection stays open when busy, 0 = off (2)
          HEARTH_HTTP_MAX_BODY_BYTES               largest request body (1048576)
          HEARTH_HTTP_MAX_HEADER_FIELDS            most request header fields (64)
          HEARTH_HTTP_MAX_HEADER_BYTES             largest request line and header block (32768)
          HEARTH_HTTP_BODY_BUDGET_BYTES            request bodies held in memory at once (67108864)
          HEARTH_HTTP_SMALL_BODY_BYTES             first bytes of each body not counted in the budget (16384)
          HEARTH_HTTP_MEMORY_TRIM_INTERVAL         least seconds between returning memory after bursts, 0 = never (5)

        Sessions: each refresh returns a new refresh token; reusing a replaced one after a grace window
        revokes the session (HEARTH_ROTATE_REFRESH_TOKENS=0 turns rotation off,
        HEARTH_REFRESH_REUSE_GRACE_SECONDS, default 60); at most HEARTH_MAX_SESSIONS_PER_ACCOUNT (100)
        live sessions per user, the oldest revoked first. More in docs/CONFIGURATION.md.

        Email delivery (the "email" object of --config; see docs/CONFIGURATION.md, "Email delivery"):
          HEARTH_EMAIL_FROM                        From of every email: 'Name <address@domain>'
          HEARTH_SMTP_URL                          smtp://host:port (STARTTLS) or smtps://host:port
          HEARTH_SMTP_TLS                          starttls, implicit or none (none: loopback hosts only)
          HEARTH_SMTP_USERNAME, HEARTH_SMTP_PASSWORD_FILE
                                                   AUTH credentials; the password file must be owner-only
          HEARTH_SMTP_CA_FILE                      PEM certificate authorities for the server's certificate
          HEARTH_EMAIL_WEBHOOK_URL, HEARTH_EMAIL_WEBHOOK_SECRET_FILE
                                                   or POST each email as signed JSON instead

        Password sign-in: email enumeration protection is on (HEARTH_EMAIL_ENUMERATION_PROTECTION=0 answers
        EMAIL_NOT_FOUND / INVALID_PASSWORD instead of INVALID_LOGIN_CREDENTIALS); wrong passwords lock an email
        and a client address (config passwordLockout). More in docs/CONFIGURATION.md, "Password sign-in".

        Admin console at <public-url>/console: open on loopback with --dev (HEARTH_CONSOLE_REQUIRE_SIGN_IN=1 asks for
        sign-in there too); otherwise accounts with the claim "hearthAdmin": true sign in with the "console" provider
        of --config (client secret in HEARTH_CONSOLE_CLIENT_SECRET). More in docs/CONFIGURATION.md, "Admin console".
        """

    static let keys = """
        Usage: hearth keys list|rotate|reencrypt [--data-dir DIR | --database DB] [--config FILE.json]
                                          [--encryption-key-file FILE] [--encryption-key-previous-file FILE]

          list     Print each signing key: id, algorithm, created, state (current, published, expired)
          rotate   Create a new signing key that signs from now on. The previous key stays in the JWKS until
                   every token it signed has expired, so verifiers never see a gap. Running servers pick up
                   the new key within a few seconds.
          reencrypt
                   Rewrite every private signing key, TOTP secret and provider token under the current encryption key, in one
                   transaction: after a new encryption key (give the old one as a previous key), or to encrypt a
                   database written before encryption was turned on. See docs/DEPLOYMENT.md, "Secrets at rest".
        """

    static let users = """
        Usage: hearth users show|disable|enable|revoke|delete UID
               hearth users list [--limit N] [--json]
               hearth users find --email E | --phone P
               hearth users create [--uid U] [--email E] [--phone P] [--name N] [--photo URL] [--email-verified]
                                   [--disabled]
               hearth users set-claims UID '{"admin":true}'
               hearth users remove-factor UID ENROLLMENT-ID
               hearth users import FILE.json [--hash-algo ALG --hash-key B64 --salt-separator B64 --rounds N
                                             --mem-cost N --parallelization N --block-size N --dk-len N
                                             --hash-input-order SALT_FIRST|PASSWORD_FIRST]
               hearth users export [--out FILE]
        (each also takes --data-dir DIR or --database DB, --config FILE.json, --encryption-key-file FILE, and
         --tenant ID to act on the users of that tenant instead of the project's)

          show      Print the user's record as accounts:lookup returns it
          disable   Block sign-in and token refresh (USER_DISABLED); 'enable' undoes it
          revoke    End every current session: refreshes answer TOKEN_EXPIRED, older ID tokens are refused
          delete    Delete the user; its sessions answer USER_NOT_FOUND
          list      Print every user (uid order), a page at a time: uid, email, phone, providers, disabled,
                    created; --json prints one record per line as accounts:lookup returns it
          find      Print the user with this email or phone number (exit 1 when there is none)
          create    Make a user (a generated uid unless --uid) and print its uid
          set-claims
                    Replace the user's custom claims with a JSON object ('{}' clears them): at most 1000
                    characters (CLAIMS_TOO_LARGE), no names ID tokens reserve (FORBIDDEN_CLAIM), an object
                    (INVALID_CLAIMS). ID tokens carry them from the user's next token refresh.
          remove-factor
                    Remove one second factor (its id is in 'show' under mfaInfo)
          import    Import the users of a 'firebase auth:export' JSON file (or of 'export'), 1000 at a time;
                    existing uids are kept. Password hashes are read with 'firebase auth:import's options
                    (--hash-algo SCRYPT|STANDARD_SCRYPT|BCRYPT|PBKDF_SHA1|PBKDF2_SHA256|HMAC_SHA512|
                    HMAC_SHA256|HMAC_SHA1|HMAC_MD5|SHA512|SHA256|SHA1|MD5 and its parameters; none for
                    'export's own hashes) and verified at sign-in, then rehashed to Argon2id. Rows that fail
                    are listed on stderr by index, uid and reason; exit 1 if any did.
          export    Write every user as 'firebase auth:export' JSON to stdout or to FILE (created mode 0600:
                    it holds personal data). TOTP factors are left out: their secrets stay on the server.
        """

    static let db = """
        Usage: hearth db backup --out FILE [--data-dir DIR | --database sqlite:PATH] [--config FILE.json]
               hearth db copy --from DB --to DB [--allow-live-source] [--config FILE.json]
                              [--encryption-key-file FILE] [--encryption-key-previous-file FILE]

          backup   Copy the SQLite database (DIR/hearth.sqlite) into FILE, a new file (never overwritten, mode
                   0600), with SQLite's online backup API: one consistent snapshot, taken while servers keep
                   running on the database. The copy is checked (integrity, Hearth's schema version) before
                   it appears at FILE. It holds the signing keys and TOTP secrets as the database does
                   (encrypted only under an encryption key): keep it like a secret. To restore, copy it to
                   hearth.sqlite in an empty data directory (docs/DEPLOYMENT.md, "Backups").
                   A PostgreSQL database is backed up with pg_dump instead.

          copy     Copy every account (with its identities and second factors), signing key, dev IdP account,
                   service account, live refresh session, queued provider-token revocation and audit event into a
                   new, empty database. DB is sqlite:PATH (created if missing) or
                   postgres://user:password@host:5432/db?sslmode=… (the database must exist; Hearth makes its
                   tables). A target that holds any of these already is refused: a copy never merges. The source
                   is read in one transaction, so the copy is one snapshot of it; at the end the target must hold
                   exactly the snapshot's counts, which are printed with the snapshot's time. Stop the servers
                   that use the source first: a source that another process has open (SQLite) or that other
                   sessions are connected to (PostgreSQL) is refused, unless --allow-live-source says a snapshot
                   will do (what is written after it is not in the copy). Both databases use the configured
                   encryption key (HEARTH_ENCRYPTION_KEY): secrets are opened from the source and sealed again in
                   the target. Users keep their sessions: refresh tokens issued before the copy work against the
                   copy.
        """

    static let serviceAccounts = """
        Usage: hearth service-accounts create NAME [--out FILE] [--public-url URL] [--project-id ID | --dev]
               hearth service-accounts list
               hearth service-accounts revoke NAME|EMAIL|KEY-ID
        (each also takes --data-dir DIR or --database DB, --config FILE.json, --encryption-key-file FILE)

          create   Make service account NAME@<project>.iam.hearth with a new RSA-2048 key and write its
                   Google-format key file (default ./NAME.json, never overwritten, mode 0600): the only copy of
                   the private key. Its token_uri is <public-url>/oauth2/token, where google-auth and
                   firebase-admin exchange it for admin access tokens (1 hour). NAME: 6-30 lower-case letters,
                   digits and hyphens, starting with a letter.
          list     Print each service account: email, key id, created, state (live or revoked)
          revoke   Revoke the live account: its access tokens and custom tokens are refused from its next
                   request on. The name can then be created again, with a new key.
        """

    static let tenants = """
        Usage: hearth tenants list [--json]
               hearth tenants create DISPLAY-NAME [--allow-password-signup] [--enable-email-link-signin]
               hearth tenants get ID
               hearth tenants delete ID
        (each also takes --data-dir DIR or --database DB, --config FILE.json, --encryption-key-file FILE)

          list     Print every tenant by id: id, display name, the sign-in methods it allows (--json: one
                   tenant a line, as the tenant API answers it)
          create   Make a tenant; its id is the display name lower-cased and five random characters
                   (my-tenant-x4k2q). DISPLAY-NAME: 4-20 letters, digits and hyphens, starting with a letter.
          get      Print the tenant as the tenant API answers it (JSON)
          delete   Delete the tenant with its users, sessions and codes
        """

    static let audit = """
        Usage: hearth audit [--uid U] [--kind K] [--since T] [--limit N] [--json]
        (also takes --data-dir DIR or --database DB, --config FILE.json, --encryption-key-file FILE)

        Prints the audit log of the store, newest first, one event per line: time (UTC), kind, uid, provider,
        actor, client address and detail. It holds no secrets (docs/CONFIGURATION.md, "Audit log").

          --uid U      Only events of this user
          --kind K     Only events of this kind (below)
          --since T    Only events at or after T: an ISO 8601 time (2026-12-01T09:00:00Z) or a duration back
                       from now (90m, 24h, 7d)
          --limit N    At most N events, the newest (default 100)
          --json       A JSON array of events as the admin API returns them (GET …/projects/P/auditEvents)

        Kinds:
        \(auditKinds)
        """

    /// Every audit event kind, five to a line.
    private static let auditKinds = stride(from: 0, to: AuditEventKind.all.count, by: 5).map { start in
        "  " + AuditEventKind.all[start..<min(start + 5, AuditEventKind.all.count)].map(\.rawValue).joined(separator: ", ")
    }.joined(separator: "\n")
}
