#!/usr/bin/env bash
# Instructions per captured call of bench/micro/app-io.js, which a loaded machine does not change:
# for a before/after of a change to app I/O capture where CPU timers are too noisy.
#   bash bench/micro/app-io-instructions.sh                      # N = 100 measured requests
#   bash bench/micro/app-io-instructions.sh 100 ../other-checkout
# Runs callgrind four times side by side — capture on and off, each with N and 2N measured
# requests after the same warm-up (APP_IO_WARMUP, 200) — with V8 made deterministic, and prints
# ((Ir_on(2N) - Ir_on(N)) - (Ir_off(2N) - Ir_off(N))) / N / 20: the instructions one captured call
# adds (its entry, origin, span, and its share of collecting, redacting and storing the profile).
# Needs valgrind (Debian: apt-get install valgrind), Redis, PostgreSQL and `npm run build` in the
# checkout measured.
set -euo pipefail
n=${1:-100}; dir=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v valgrind > /dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
  (cd "$dir" && APP_IO_WARMUP=${APP_IO_WARMUP:-200} REDIS_CONNECT_TIMEOUT_MS=60000 REDIS_COMMAND_TIMEOUT_MS=60000 \
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1.$2" \
    node --single-threaded --predictable --random-seed=1 --hash-seed=1 bench/micro/app-io.js --child "$1" "$2" > "$out/log.$1.$2" 2>&1) ||
    { grep -v '^==' "$out/log.$1.$2" | tail -20 >&2; exit 1; }
}
pids=()
for mode in on off; do for count in "$n" $((2 * n)); do run "$mode" "$count" & pids+=($!); done; done
for pid in "${pids[@]}"; do wait "$pid"; done
total() { awk '/^summary:/ { print $2 }' "$out/cg.$1.$2"; }
per_request() { echo $(( ($(total "$1" $((2 * n))) - $(total "$1" "$n")) / n )); }
on=$(per_request on); off=$(per_request off)
echo "capture on: $on, off: $off instructions per request; per captured call: $(( (on - off) / 20 )) instructions ($dir)"
