# Sourced by Benchmarks/run after scripts/http.sh: what metrics cost on the hot paths. Two servers alike but
# for HEARTH_METRICS=off on one; refresh and signInWithIdp on both, alternating, three rounds each; the median
# of each side. Then, from $metrics_bin (metrics-bench), the CPU time metrics add to one refresh, next to the CPU
# time a refresh takes at the rate measured (cores / rate): a figure the machine's other load hardly moves.
# Sets pid_metrics_on and pid_metrics_off (stopped at the end).
compare_metrics() {
    start_server metrics_on
    start_server metrics_off HEARTH_METRICS=off
    echo
    echo "### Metrics on vs off (same run; median of 3 alternating rounds)"
    echo
    echo "| run | requests/s | p50 | p99 | non-2xx |"
    echo "|---|---|---|---|---|"
    local round label
    local -A metric_rates
    for round in 1 2 3; do
        for label in metrics_on metrics_off; do
            run_wrk "$label" "refresh, $label, round $round" "/securetoken.googleapis.com/v1/token?key=bench" "refresh-$round.lua"
            metric_rates[refresh_$label]+="$last_rate "
            run_wrk "$label" "signInWithIdp, $label, round $round" \
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=bench" signin.lua
            metric_rates[signin_$label]+="$last_rate "
        done
    done
    kill "$pid_metrics_on" "$pid_metrics_off" 2>/dev/null || true
python3 - "${metric_rates[refresh_metrics_on]}" "${metric_rates[refresh_metrics_off]}" \
    "${metric_rates[signin_metrics_on]}" "${metric_rates[signin_metrics_off]}" <<'PY'
import statistics, sys
refresh_on, refresh_off, signin_on, signin_off = (statistics.median(map(float, a.split())) for a in sys.argv[1:5])
print()
print("| endpoint | metrics on | metrics off (`HEARTH_METRICS=off`) | on / off | aim |")
print("|---|---|---|---|---|")
print(f"| token refresh | {refresh_on:,.0f}/s | {refresh_off:,.0f}/s | {refresh_on / refresh_off:.0%} | ≥ 95% |")
print(f"| signInWithIdp | {signin_on:,.0f}/s | {signin_off:,.0f}/s | {signin_on / signin_off:.0%} | ≥ 95% |")
PY
    "$metrics_bin" > "$work/metrics-bench.txt"
python3 - "$work/metrics-bench.txt" "${metric_rates[refresh_metrics_off]}" "$(nproc)" <<'PY'
import statistics, sys
values = dict(line.strip().split("=") for line in open(sys.argv[1]) if "=" in line)
refresh_off, cores = statistics.median(map(float, sys.argv[2].split())), int(sys.argv[3])
per_refresh_ns = cores / refresh_off * 1e9
added = float(values["refresh_metrics_ns"])
print()
print(f"Metrics' own CPU time (metrics-bench, in process): {float(values['request_metrics_ns']):,.0f} ns per request, "
      f"{added:,.0f} ns per refresh (request, outcome and two store transactions) = {added / per_refresh_ns:.2%} of "
      f"the {per_refresh_ns / 1000:,.0f} µs of CPU a refresh takes at {refresh_off:,.0f}/s on {cores} cores.")
PY
}
