#!/usr/bin/env bash
# The whole test suite: `npm run test:all` (the README's test command) and .ci/run's test stages. It readies the
# machine (scripts/ensure-test-deps.sh), then runs the suites in three steps:
#
# - first, alone, the fast suite, whose files already run in parallel (vitest.config.ts) and keep both cores of a
#   2-core machine busy;
# - then two lanes at once, because the suites that mostly wait (on workers killed and restarted, leases running
#   out, retries, mail and webhook peers) leave a core idle while the browser suites wait on Chromium between
#   bursts: the main lane in the foreground (the browser suite, rendered mode), the side lane in the background,
#   its output kept in a file and printed when it ends (fuzzing, isolation, SSRF, crash safety, brute force,
#   quotas, jobs, crawls); extra stages given as arguments (.ci/run gives the Node.js 22 and 24 runs) are dealt
#   to the two lanes in turn;
# - last, alone again, the suites that measure time on the machine (event-loop delay, hostile peers, load).
#
# Each stage prints its seconds as it ends (the side lane's prefixed with "side:"), and a summary at the end.
# A failure in either lane fails the run; a failed main lane stops the side lane.
set -euo pipefail
cd "$(dirname "$0")/.."

# Extra stages (the arguments: .ci/run's Node.js 22 and 24 runs) are dealt to the lanes in turn, the side lane
# first, so that neither lane waits long on the other.
side_extra=()
main_extra=()
for ((i = 1; i <= $#; i++)); do
  if ((i % 2)); then side_extra+=("${!i}"); else main_extra+=("${!i}"); fi
done

first=("npm test")
main_lane=("npm run test:browser" "npm run test:render" "${main_extra[@]}")
side_lane=(
  "npm run test:fuzz" "npm run test:isolation" "npm run test:ssrf" "npm run test:crash" "npm run test:bruteforce"
  "npm run test:quotas" "npm run test:jobs" "npm run test:crawl" "${side_extra[@]}"
)
alone=("npm run test:hostile" "npm run test:load")

started=$SECONDS
summary=$(mktemp)
side_log=$(mktemp)
side_pid=""
cleanup() {
  # A side lane still running (the main lane failed): stop it and everything it started. A stage the lane was
  # forking as the signal went out escapes it, so the group is signalled until it is empty (at most 5 s), then
  # killed.
  if [ -n "$side_pid" ] && kill -0 "$side_pid" 2> /dev/null; then
    local tries=0
    while kill -TERM -- "-$side_pid" 2> /dev/null && ((tries++ < 50)); do sleep 0.1; done
    kill -KILL -- "-$side_pid" 2> /dev/null || true
  fi
  rm -f "$summary" "$side_log"
}
trap cleanup EXIT

# Runs each command given, in order, printing its seconds; stops at the first failure. $1 is the lane's label.
run_lane() {
  local label=$1 step stage_started line
  shift
  for step in "$@"; do
    stage_started=$SECONDS
    bash -c "$step"
    line=$(printf '%-6s %-52s %5d s' "$label" "$step" $((SECONDS - stage_started)))
    echo "== $line" >&3
    echo "$line" >> "$summary"
  done
}

bash scripts/ensure-test-deps.sh
# Each stage's line reaches the terminal at once, the side lane's too (fd 3: this script's own output).
exec 3>&1

run_lane "first:" "${first[@]}"

# The side lane in a process group of its own (set -m), so that stopping it stops what it started.
set -m
run_lane "side:" "${side_lane[@]}" > "$side_log" 2>&1 &
side_pid=$!
set +m

run_lane "main:" "${main_lane[@]}"

side_status=0
wait "$side_pid" || side_status=$?
side_pid=""
echo
echo "==== the side lane's output ===="
cat "$side_log"
echo "==== end of the side lane's output ===="
if [ "$side_status" -ne 0 ]; then
  echo "The side lane failed (exit code $side_status): its output is above." >&2
  exit "$side_status"
fi

run_lane "alone:" "${alone[@]}"

echo
echo "Test stages (the main and side lanes ran at the same time):"
sed 's/^/  /' "$summary"
printf '  %-59s %5d s\n' "all tests" $((SECONDS - started))
