# Sourced by Benchmarks/run after scripts/http.sh: what a switchable feature (metrics, the audit log) costs on the hot
# paths. Two servers alike but for one environment setting that turns the feature off; refresh and signInWithIdp on
# both, alternating, three rounds each; the median of each side, and the server's CPU time per request (utime + stime
# from /proc, which other load on the machine moves far less than requests/s).

# compare_switch NAME OFF_SETTING: prints the rounds and the on/off table of NAME (`metrics`) between a server as
# configured and one started with OFF_SETTING (`HEARTH_METRICS=off`). Writes the median server CPU µs of a refresh
# with the feature off to $work/NAME-refresh-cpu-off, for the caller's own notes.
compare_switch() {
    local name="$1" off_setting="$2"
    start_server "${name}_on"
    start_server "${name}_off" "$off_setting"
    echo
    echo "### ${name^} on vs off (same run; median of 3 alternating rounds)"
    echo
    echo "| run | requests/s | p50 | p99 | non-2xx |"
    echo "|---|---|---|---|---|"
    local round label pid_var before
    local -A rates cpu
    # cpu_ticks PID: the process' user + system time in clock ticks.
    cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
    for round in 1 2 3; do
        for label in "${name}_on" "${name}_off"; do
            pid_var="pid_$label"
            before="$(cpu_ticks "${!pid_var}")"
            run_wrk "$label" "refresh, $label, round $round" "/securetoken.googleapis.com/v1/token?key=bench" "refresh-$round.lua"
            rates[refresh_$label]+="$last_rate "
            cpu[refresh_$label]+="$(( $(cpu_ticks "${!pid_var}") - before )):$last_rate "
            before="$(cpu_ticks "${!pid_var}")"
            run_wrk "$label" "signInWithIdp, $label, round $round" \
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=bench" signin.lua
            rates[signin_$label]+="$last_rate "
            cpu[signin_$label]+="$(( $(cpu_ticks "${!pid_var}") - before )):$last_rate "
        done
    done
    pid_var="pid_${name}_on"; kill "${!pid_var}" 2>/dev/null || true
    pid_var="pid_${name}_off"; kill "${!pid_var}" 2>/dev/null || true
    python3 - "$name" "$off_setting" "${rates[refresh_${name}_on]}" "${rates[refresh_${name}_off]}" \
        "${rates[signin_${name}_on]}" "${rates[signin_${name}_off]}" \
        "${cpu[refresh_${name}_on]}" "${cpu[refresh_${name}_off]}" \
        "${cpu[signin_${name}_on]}" "${cpu[signin_${name}_off]}" "$duration" "$(getconf CLK_TCK)" "$work/$name-refresh-cpu-off" <<'PY'
import statistics, sys
name, off_setting = sys.argv[1:3]
refresh_on, refresh_off, signin_on, signin_off = (statistics.median(map(float, a.split())) for a in sys.argv[3:7])
duration, ticks = float(sys.argv[11]), float(sys.argv[12])
def cpu_us(runs):  # median CPU µs per request over the rounds ("ticks:rate" each)
    return statistics.median(int(t) / ticks / (float(r) * duration) * 1e6 for t, r in (run.split(":") for run in runs.split()))
cpu = [cpu_us(a) for a in sys.argv[7:11]]
print()
print(f"| endpoint | {name} on | {name} off (`{off_setting}`) | on / off | aim |")
print("|---|---|---|---|---|")
print(f"| token refresh | {refresh_on:,.0f}/s | {refresh_off:,.0f}/s | {refresh_on / refresh_off:.0%} | ≥ 95% |")
print(f"| signInWithIdp | {signin_on:,.0f}/s | {signin_off:,.0f}/s | {signin_on / signin_off:.0%} | ≥ 95% |")
print(f"| token refresh, server CPU per request | {cpu[0]:,.0f} µs | {cpu[1]:,.0f} µs | {cpu[1] / cpu[0]:.0%} (off / on) | ≥ 95% |")
print(f"| signInWithIdp, server CPU per request | {cpu[2]:,.0f} µs | {cpu[3]:,.0f} µs | {cpu[3] / cpu[2]:.0%} (off / on) | ≥ 95% |")
open(sys.argv[13], "w").write(f"{cpu[1]}")
PY
}

# compare_metrics: metrics on vs HEARTH_METRICS=off, then from $metrics_bin (metrics-bench) the CPU time metrics add
# to one refresh, measured in process, next to the server CPU time of a refresh without metrics.
compare_metrics() {
    compare_switch metrics HEARTH_METRICS=off
    "$metrics_bin" > "$work/metrics-bench.txt"
    python3 - "$work/metrics-refresh-cpu-off" "$work/metrics-bench.txt" <<'PY'
import sys
refresh_off_us = float(open(sys.argv[1]).read())
values = dict(line.strip().split("=") for line in open(sys.argv[2]) if "=" in line)
added = float(values["refresh_metrics_ns"]) / 1000
print()
print(f"Metrics' own CPU time (metrics-bench, in process): {float(values['request_metrics_ns']):,.0f} ns per request, "
      f"{added * 1000:,.0f} ns per refresh (request, outcome and two store transactions) = {added / refresh_off_us:.2%} of the "
      f"{refresh_off_us:,.0f} µs of server CPU a refresh takes without metrics.")
PY
}
