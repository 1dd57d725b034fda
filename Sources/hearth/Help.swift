/// Help texts for `hearth --help` and each command's `--help`.
enum Help {
    static let main = """
        hearth — a self-hosted identity server that speaks Firebase Authentication's wire protocol.

        Usage: hearth <command> [options]

        Commands:
          serve         Run the server (Identity Toolkit, Secure Token, JWKS; with --dev a local Google look-alike)
          keys list     List the token signing keys
          keys rotate   Make a new signing key; the old one stays published until its tokens expire
          users …       Show, disable, enable, revoke the sessions of, or delete one user
          help [cmd]    Show help for a command

        Run 'hearth <command> --help' for a command's options.
        """

    static let serve = """
        Usage: hearth serve [options]

        Options (each also as an environment variable; flags win over the environment, which wins over --config):
          --host ADDR          Address to listen on (HEARTH_HOST, default 127.0.0.1)
          --port N             Port to listen on, 0 for any free port (HEARTH_PORT, default 9099)
          --data-dir DIR       Where the SQLite database lives (HEARTH_DATA_DIR, default ./.hearth)
          --public-url URL     URL clients use to reach this server (HEARTH_PUBLIC_URL, default http://HOST:PORT)
          --project-id ID      Firebase project id (HEARTH_PROJECT_ID; --dev default demo-hearth)
          --dev                Development mode: any non-empty API key, the dev Google IdP at /dev/google,
                               Google client ID hearth-dev.apps.googleusercontent.com (HEARTH_DEV=1)
          --firebase-issuer    Issue tokens with iss https://securetoken.google.com/<project> (HEARTH_FIREBASE_ISSUER=1)
          --config FILE.json   Settings file (HEARTH_CONFIG); see docs/CONFIGURATION.md
          --threads N          HTTP worker threads (HEARTH_THREADS, default: 2 × cores, at least 4)

        Without --dev, API keys (HEARTH_API_KEYS, comma-separated) and Google OAuth client IDs
        (HEARTH_GOOGLE_CLIENT_IDS) must be configured.

        Sessions: each refresh returns a new refresh token; reusing a replaced one after a grace window
        revokes the session (HEARTH_ROTATE_REFRESH_TOKENS=0 turns rotation off,
        HEARTH_REFRESH_REUSE_GRACE_SECONDS, default 60); at most HEARTH_MAX_SESSIONS_PER_ACCOUNT (100)
        live sessions per user, the oldest revoked first. More in docs/CONFIGURATION.md.
        """

    static let keys = """
        Usage: hearth keys list|rotate [--data-dir DIR] [--config FILE.json]

          list     Print each signing key: id, algorithm, created, state (current, published, expired)
          rotate   Create a new signing key that signs from now on. The previous key stays in the JWKS until
                   every token it signed has expired, so verifiers never see a gap. Running servers pick up
                   the new key within a few seconds.
        """

    static let users = """
        Usage: hearth users show|disable|enable|revoke|delete UID [--data-dir DIR] [--config FILE.json]

          show      Print the user's record as accounts:lookup returns it
          disable   Block sign-in and token refresh (USER_DISABLED); 'enable' undoes it
          revoke    End every current session: refreshes answer TOKEN_EXPIRED, older ID tokens are refused
          delete    Delete the user; its sessions answer USER_NOT_FOUND
        """
}
