#!/usr/bin/env bash
# Where a loaded server's CPU goes, by phase of the profiler: Linux perf samples the whole process
# (JavaScript, V8's C++ and its GC threads, and the kernel's time in its system calls), which
# `node --cpu-prof` does not see. Each sample is put in the first phase its call stack belongs to,
# and the phase's share of the samples is turned into µs per request with the CPU the process used.
#   bash bench/micro/perf-breakdown.sh fastify /nope            # Fastify + loupe-kernel/fastify, 404s
#   bash bench/micro/perf-breakdown.sh debug /hello/anna 8      # Loupe debug, 8 s sampled
#   LOUPE_BUILD=../other/dist bash bench/micro/perf-breakdown.sh fastify /nope
# Needs perf (Debian: apt-get install linux-perf; in a container, perf_event_paranoid ≤ 1 or root),
# wrk, a Redis (REDIS_URL) for debug and fastify, and `npm run build`.
set -euo pipefail
mode=${1:-fastify}; path=${2:-/nope}; seconds=${3:-6}
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${LOUPE_BUILD:-$here/dist}
for tool in perf wrk; do command -v "$tool" > /dev/null || { echo "$tool is missing (perf: apt-get install linux-perf; wrk: make test-tools)" >&2; exit 1; }; done
[ -f "$build/demo/main.js" ] || { echo "No build in $build: run npm run build." >&2; exit 1; }
source "$here/bench/micro/servers.sh"
mode_server "$mode" "$build" || { echo "usage: perf-breakdown.sh <fastify|debug|prod> [path] [seconds]" >&2; exit 1; }
prefix="loupe-perf:$$:"
out=$(mktemp -d)
port=$(free_port)
# --perf-basic-prof: V8 writes /tmp/perf-<pid>.map, which names the JIT-compiled functions in the samples.
start_server "$build" "$prefix" "$port" /dev/null --perf-basic-prof
cleanup() {
  kill "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  rm -rf "$out" "/tmp/perf-$pid.map"
  if [ "$mode" != prod ]; then remove_keys "$prefix"; fi
}
trap cleanup EXIT
wait_serving "$port"
wrk -t1 -c64 -d3s "http://127.0.0.1:$port$path" > /dev/null
before=$(cpu_of "$pid")
perf record -F 999 -g -p "$pid" -o "$out/perf.data" -- sleep "$seconds" > /dev/null 2>&1 & recorder=$!
requests=$(wrk -t1 -c64 -d"${seconds}s" "http://127.0.0.1:$port$path" | awk '/requests in/ { print $1 }')
wait "$recorder" || true
after=$(cpu_of "$pid")
us=$(awk -v c=$((after - before)) -v r="$requests" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", c * 1e6 / t / r }')
echo "$mode $path: $requests requests in ${seconds} s, $us µs CPU per request"
perf script -i "$out/perf.data" -F ip,sym 2> /dev/null | node "$here/bench/micro/perf-phases.js" "$us"
