#!/usr/bin/env bash
# What V8's garbage collector costs a loaded server, per request: the server runs with
# --trace-gc-nvp under wrk, and the collections of the measured seconds are summed. Scavenges cost
# what survives them (copied, then promoted to the old generation), not what dies young; the old
# generation is collected by mark-compacts, which mostly run on helper threads.
#   bash bench/micro/gc-trace.sh fastify /nope       # Fastify + loupe-kernel/fastify, profiles in Redis
#   bash bench/micro/gc-trace.sh otel /nope          # Fastify + OpenTelemetry, spans to a local OTLP sink
#   bash bench/micro/gc-trace.sh debug /hello/anna 8 # Loupe debug, 8 s measured
#   LOUPE_BUILD=../other/dist bash bench/micro/gc-trace.sh fastify /nope
# Needs wrk, a Redis (REDIS_URL) for debug and fastify, and `npm run build`.
set -euo pipefail
mode=${1:-fastify}; path=${2:-/nope}; seconds=${3:-5}
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${LOUPE_BUILD:-$here/dist}
command -v wrk > /dev/null || { echo "wrk is missing: make test-tools" >&2; exit 1; }
[ -f "$build/demo/main.js" ] || { echo "No build in $build: run npm run build." >&2; exit 1; }
source "$here/bench/micro/servers.sh"
sink=
if [ "$mode" = otel ]; then
  sink_port=$(free_port)
  PORT="$sink_port" node "$here/bench/servers/otlp-sink.js" > /dev/null 2>&1 & sink=$!
  settings=(OTLP_SINK_URL="http://127.0.0.1:$sink_port/v1/traces"); server=("$here/bench/servers/fastify-otel.js")
else
  mode_server "$mode" "$build" || { echo "usage: gc-trace.sh <fastify|otel|debug|prod> [path] [seconds]" >&2; exit 1; }
fi
prefix="loupe-gc:$$:"
log=$(mktemp)
port=$(free_port)
start_server "$build" "$prefix" "$port" "$log" --trace-gc-nvp
cleanup() {
  kill "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  if [ -n "$sink" ]; then kill "$sink" 2> /dev/null || true; fi
  rm -f "$log"
  if [ "$mode" != prod ]; then remove_keys "$prefix"; fi
}
trap cleanup EXIT
wait_serving "$port"
wrk -t1 -c64 -d3s "http://127.0.0.1:$port$path" > /dev/null
start=$(wc -l < "$log")
requests=$(wrk -t1 -c64 -d"${seconds}s" "http://127.0.0.1:$port$path" | awk '/requests in/ { print $1 }')
echo "$mode $path: $requests requests in $seconds s"
# Each collection is one line of name=value pairs: gc=s is a scavenge, gc=mc/ms a mark-compact.
tail -n +"$((start + 1))" "$log" | tr -d '\0' | awk -v requests="$requests" '
  /gc=/ {
    delete f
    for (i = 1; i <= NF; i++) { eq = index($i, "="); if (eq > 0) f[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
    if (f["gc"] == "s") { s++; spause += f["pause"]; survived += f["new_space_survived"]; promoted += f["promoted"] }
    else if (f["gc"] == "mc" || f["gc"] == "ms") { m++; mpause += f["pause"] }
  }
  END {
    if (s == 0 || requests == 0) { print "no scavenge seen: too short a run?"; exit }
    printf "scavenges: %d, %.2f ms each, %.1f µs of pause per request; %.0f KB survive each, %.2f KB promoted per request\n", s, spause / s, spause * 1000 / requests, survived / s / 1024, promoted / requests / 1024
    printf "mark-compacts: %d, %.0f ms of pause in all, %.1f µs per request (their helper threads not counted)\n", m, mpause, mpause * 1000 / requests
  }'
