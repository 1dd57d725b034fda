# Shared by Benchmarks/run and Benchmarks/stores (sourced): starting a benchmark server and one wrk run.
# Expects $work (a scratch folder), $duration and $connections; optional $server_binary, $server_config,
# $server_args (more `hearth serve` arguments) and $wrk_connections.

# start_server LABEL [ENV=VALUE…]: a release `hearth serve --dev` on a free port with its own data
# directory, signed in through the dev IdP (headless) as the iOS SDK would, to get real tokens: once
# for the sign-in and lookup runs, and once per connection (other users, so the sign-in run's sessions
# never push them past the per-account cap) for the refresh run. Sets port_LABEL and pid_LABEL.
start_server() {
    local label="$1"; shift
    local dir="$work/$label" port
    mkdir -p "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    env "$@" "${server_binary:-.build/release/hearth}" serve --dev --port "$port" --data-dir "$dir/data" \
        --config "${server_config:-$work/bench.json}" ${server_args:-} \
        > "$dir/server.log" 2>&1 &
    printf -v "pid_$label" '%s' "$!"
    printf -v "port_$label" '%s' "$port"
    for _ in $(seq 100); do grep -qs "Hearth is listening" "$dir/server.log" && break; sleep 0.1; done
    sleep 1
python3 - "$port" "$dir" "$connections" <<'PY'
import base64, hashlib, json, secrets, sys, urllib.parse, urllib.request
port, work, connections = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = f"http://127.0.0.1:{port}"
redirect = "http://127.0.0.1:53682/oauth2callback"
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs): return None
opener = urllib.request.build_opener(NoRedirect)
def google_id_token(email):
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = urllib.parse.urlencode({"response_type": "code", "client_id": "hearth-dev.apps.googleusercontent.com",
        "redirect_uri": redirect, "scope": "email profile", "state": "s", "nonce": "n", "code_challenge": challenge,
        "code_challenge_method": "S256", "login_hint": email, "prompt": "none"})
    try:
        opener.open(f"{base}/dev/google/o/oauth2/v2/auth?{query}")
        raise SystemExit("expected a redirect")
    except urllib.error.HTTPError as redirect_response:
        location = redirect_response.headers["Location"]
    code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
    form = urllib.parse.urlencode({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
        "client_id": "hearth-dev.apps.googleusercontent.com", "code_verifier": verifier}).encode()
    return json.load(urllib.request.urlopen(f"{base}/dev/google/token", form))["id_token"]
def assertion(email):
    return {"requestUri": "http://localhost", "postBody": f"providerId=google.com&id_token={google_id_token(email)}",
        "returnSecureToken": True, "returnIdpCredential": True, "autoCreate": True}
def post(path, body):
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))
sign_in = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=bench"
bench = assertion("bench@example.com")
session = post(sign_in, bench)
# A fresh set of sessions for each refresh run (the first table's, then one per round): with rotation, a
# run leaves its tokens replaced, and presenting them again in a later run would be reuse. Two spare
# sessions per wrk thread, because wrk calls request() once more than it sends (see refresh.lua below).
refresh_runs = [[post(sign_in, assertion(f"refresh-{run}-{i}@example.com"))["refreshToken"] for i in range(connections + 4)]
                for run in range(4)]
done = 'done = function(summary, latency, requests)\n  io.write(string.format("errors=%d non2xx=%d\\n", summary.errors.status, summary.errors.status))\nend\n'
for name, body in {"signin": bench, "lookup": {"idToken": session["idToken"]}}.items():
    with open(f"{work}/{name}.lua", "w") as script:
        script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
        script.write(f"wrk.body = {json.dumps(json.dumps(body))}\n")
        script.write(done)
# Returning users, 64 of them in turn (signin.lua signs one user in over and over, so every request of a run writes
# the same account row).
returning = [assertion(f"returning-{i}@example.com") for i in range(64)]
for body in returning:
    post(sign_in, body)
with open(f"{work}/signin-many.lua", "w") as script:
    script.write("local bodies = {" + ", ".join(json.dumps(json.dumps(body)) for body in returning) + "}\n")
    script.write("""local next = 0
function request()
  next = next % #bodies + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[next])
end
""")
    script.write(done)
# Refresh as clients do with rotation: each request presents the refresh token the previous answer on its
# connection returned. Each wrk thread keeps a pool of its sessions' current tokens (one per connection,
# plus spares): a request takes one, its answer puts the new one back. Only if the pool ran dry would two
# connections present the same token (the `last` fallback), which no client does: one of them would fall
# two rotations behind, and presenting that token is reuse.
for run, refresh_tokens in enumerate(refresh_runs):
    with open(f"{work}/refresh-{run}.lua", "w") as script:
        script.write(f"local tokens = {{{', '.join(json.dumps(t) for t in refresh_tokens)}}}\n")
        script.write('''local threads = 0
function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end
local pool, last = {}, nil
function init(args)
  for i, token in ipairs(tokens) do
    if (i - 1) % 2 == index then table.insert(pool, token) end  -- wrk -t2: every other token
  end
  last = pool[1]
end
function request()
  local token = table.remove(pool) or last
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"},
    '{"grantType":"refresh_token","refreshToken":"' .. token .. '"}')
end
function response(status, headers, body)
  local token = body:match('"refresh_token"%s*:%s*"([^"]+)"')
  if token then
    table.insert(pool, token)
    last = token
  end
end
''')
        script.write(done)
PY
}

run_wrk() { # label name path [script]: one wrk run against server LABEL; prints a table row
    local label="$1" name="$2" path="$3" script="${4:-}" port_var="port_$1"
    local args=(-t2 "-c${wrk_connections:-$connections}" "-d${duration}s" --latency) out="$work/$label/$(tr -c 'a-zA-Z0-9' _ <<<"$name").wrk"
    [ -n "$script" ] && args+=(-s "$work/$label/$script")
    wrk "${args[@]}" "http://127.0.0.1:${!port_var}$path" > "$out"
    local rate p50 p99 non2xx
    rate="$(awk '/Requests\/sec/ {printf "%.0f", $2}' "$out")"
    p50="$(awk '$1=="50%" {print $2}' "$out")"
    p99="$(awk '$1=="99%" {print $2}' "$out")"
    non2xx="$(awk '/Non-2xx/ {print $NF}' "$out")"
    echo "| $name | $rate | $p50 | $p99 | ${non2xx:-0} |"
    last_rate="$rate" last_p99="$p99" last_non2xx="${non2xx:-0}"
}

# write_bench_config FILE: a settings file whose rate limits stay on but out of reach.
write_bench_config() {
python3 - "$1" <<'PY'
import json, sys
buckets = ["signInPerClient", "signInPerAccount", "refreshFailuresPerClient", "mfaPerClient", "mfaPerAccount",
           "accountCreationPerClient"]
# The wrong-password lockouts too: the password flood below has many sign-ins refused by the full hashing gate,
# and those count against the email and the address like wrong passwords.
lockout = {"burst": 10**9, "lockoutSeconds": 1, "maxPerWindow": 10**9, "windowSeconds": 60}
json.dump({"rateLimits": {name: {"burst": 1e9, "perMinute": 1e9} for name in buckets},
           "passwordLockout": {"perEmail": lockout, "perClient": lockout}}, open(sys.argv[1], "w"))
PY
}
