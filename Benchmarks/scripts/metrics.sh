# Sourced by Benchmarks/run after scripts/http.sh: what metrics cost on the hot paths. Two servers alike but
# for HEARTH_METRICS=off on one; refresh and signInWithIdp on both, alternating, three rounds each; the median
# of each side, and the server's CPU time per request (utime + stime from /proc, which other load on the machine
# moves far less than requests/s). Then, from $metrics_bin (metrics-bench), the CPU time metrics add to one
# refresh, measured in process, next to the server CPU time of a refresh without metrics.
# Sets pid_metrics_on and pid_metrics_off (stopped at the end).
compare_metrics() {
    start_server metrics_on
    start_server metrics_off HEARTH_METRICS=off
    echo
    echo "### Metrics on vs off (same run; median of 3 alternating rounds)"
    echo
    echo "| run | requests/s | p50 | p99 | non-2xx |"
    echo "|---|---|---|---|---|"
    local round label pid_var before
    local -A metric_rates metric_cpu
    # cpu_ticks PID: the process' user + system time in clock ticks.
    cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
    for round in 1 2 3; do
        for label in metrics_on metrics_off; do
            pid_var="pid_$label"
            before="$(cpu_ticks "${!pid_var}")"
            run_wrk "$label" "refresh, $label, round $round" "/securetoken.googleapis.com/v1/token?key=bench" "refresh-$round.lua"
            metric_rates[refresh_$label]+="$last_rate "
            metric_cpu[refresh_$label]+="$(( $(cpu_ticks "${!pid_var}") - before )):$last_rate "
            before="$(cpu_ticks "${!pid_var}")"
            run_wrk "$label" "signInWithIdp, $label, round $round" \
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=bench" signin.lua
            metric_rates[signin_$label]+="$last_rate "
            metric_cpu[signin_$label]+="$(( $(cpu_ticks "${!pid_var}") - before )):$last_rate "
        done
    done
    kill "$pid_metrics_on" "$pid_metrics_off" 2>/dev/null || true
    "$metrics_bin" > "$work/metrics-bench.txt"
python3 - "${metric_rates[refresh_metrics_on]}" "${metric_rates[refresh_metrics_off]}" \
    "${metric_rates[signin_metrics_on]}" "${metric_rates[signin_metrics_off]}" \
    "${metric_cpu[refresh_metrics_on]}" "${metric_cpu[refresh_metrics_off]}" \
    "${metric_cpu[signin_metrics_on]}" "${metric_cpu[signin_metrics_off]}" "$duration" "$(getconf CLK_TCK)" \
    "$work/metrics-bench.txt" <<'PY'
import statistics, sys
refresh_on, refresh_off, signin_on, signin_off = (statistics.median(map(float, a.split())) for a in sys.argv[1:5])
duration, ticks = float(sys.argv[9]), float(sys.argv[10])
def cpu_us(runs):  # median CPU µs per request over the rounds ("ticks:rate" each)
    return statistics.median(int(t) / ticks / (float(r) * duration) * 1e6 for t, r in (run.split(":") for run in runs.split()))
cpu = [cpu_us(a) for a in sys.argv[5:9]]
print()
print("| endpoint | metrics on | metrics off (`HEARTH_METRICS=off`) | on / off | aim |")
print("|---|---|---|---|---|")
print(f"| token refresh | {refresh_on:,.0f}/s | {refresh_off:,.0f}/s | {refresh_on / refresh_off:.0%} | ≥ 95% |")
print(f"| signInWithIdp | {signin_on:,.0f}/s | {signin_off:,.0f}/s | {signin_on / signin_off:.0%} | ≥ 95% |")
print(f"| token refresh, server CPU per request | {cpu[0]:,.0f} µs | {cpu[1]:,.0f} µs | {cpu[1] / cpu[0]:.0%} (off / on) | ≥ 95% |")
print(f"| signInWithIdp, server CPU per request | {cpu[2]:,.0f} µs | {cpu[3]:,.0f} µs | {cpu[3] / cpu[2]:.0%} (off / on) | ≥ 95% |")
values = dict(line.strip().split("=") for line in open(sys.argv[11]) if "=" in line)
added = float(values["refresh_metrics_ns"]) / 1000
print()
print(f"Metrics' own CPU time (metrics-bench, in process): {float(values['request_metrics_ns']):,.0f} ns per request, "
      f"{added * 1000:,.0f} ns per refresh (request, outcome and two store transactions) = {added / cpu[1]:.2%} of the "
      f"{cpu[1]:,.0f} µs of server CPU a refresh takes without metrics.")
PY
}
