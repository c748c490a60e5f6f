#!/usr/bin/env bash
# Instructions per request of the demo application's kernel (bench/micro/kernel.js), which a loaded
# machine does not change: for a before/after of a change where timers are too noisy.
#   bash bench/micro/instructions.sh /hello/anna prod        # N = 1000 measured requests
#   bash bench/micro/instructions.sh /config.yaml debug      # N = 200 (needs Redis)
#   bash bench/micro/instructions.sh /hello/anna prod 500 ../other-checkout
#   MICRO=fastify bash bench/micro/instructions.sh /config.yaml on 200 [../other-checkout]
# MICRO=fastify counts a Fastify application with Loupe's profiler (bench/micro/fastify.js, `on` or
# `off`) instead of the kernel; with another checkout, this script measures that checkout's build.
# Runs callgrind twice side by side, with N and 2N measured requests after the same warm-up
# (KERNEL_WARMUP: 2000 prod, 1000 debug), V8 made deterministic (--predictable, fixed seeds,
# --single-threaded), and prints (Ir(2N) - Ir(N)) / N: two runs of one build differ by < 0.01 %.
# Compare figures of the same N only: a smaller N holds fewer garbage collections and counts less.
# Needs valgrind (Debian: apt-get install valgrind) and `npm run build` in the checkout measured.
set -euo pipefail
path=${1:-/hello/anna}; mode=${2:-prod}; dir=${4:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ "$mode" = debug ] || [ "$mode" = on ]; then n=${3:-200}; warmup=${KERNEL_WARMUP:-1000}; else n=${3:-1000}; warmup=${KERNEL_WARMUP:-2000}; fi
if [ "${MICRO:-kernel}" = fastify ]; then script="$(cd "$(dirname "$0")" && pwd)/fastify.js"; else script=bench/micro/kernel.js; fi
command -v valgrind > /dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
  # valgrind starts node slowly: Redis's timeouts are raised to their maximum.
  (cd "$dir" && REDIS_CONNECT_TIMEOUT_MS=60000 REDIS_COMMAND_TIMEOUT_MS=60000 KERNEL_WARMUP=$warmup FASTIFY_WARMUP=$warmup LOUPE_BUILD="$dir/dist" \
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" \
    node --single-threaded --predictable --random-seed=1 --hash-seed=1 "$script" "$path" "$mode" "$1" > "$out/log.$1" 2>&1) ||
    { grep -v '^==' "$out/log.$1" | tail -20 >&2; exit 1; }
}
run "$n" & first=$!
run $((2 * n)) & second=$!
wait "$first"; wait "$second"
total() { awk '/^summary:/ { print $2 }' "$out/cg.$1"; }
echo "$path $mode: $(( ($(total $((2 * n))) - $(total "$n")) / n )) instructions per request ($(grep -v '^==' "$out/log.$n" | tail -1))"
