#!/usr/bin/env bash
# Server CPU per request of this checkout's build (A) and another's (B), served at once and loaded in
# turn, for a before/after of one change over HTTP: the order alternates every round (A B, B A, …) so
# that neither is favoured by a machine that slows down or speeds up during the run.
#   bash bench/micro/ab.sh ../before debug /hello/anna        # 6 rounds of 3 s each
#   bash bench/micro/ab.sh ../before prod /config.yaml 10 4   # 10 rounds of 4 s
#   bash bench/micro/ab.sh ../before fastify /config.yaml     # Fastify + the loupe-kernel/fastify plugin of each build
# B_ENV="REQUEST_CONTEXT=0" compares the same build with a setting (pass `.` as the checkout).
# Needs wrk, a Redis (REDIS_URL) for debug and fastify, and `npm run build` in both checkouts. Prints each round
# and the median of each side; read the pairs as well as the medians: a difference smaller than the
# spread of the pairs is noise on a shared machine.
set -euo pipefail
other=${1:?usage: ab.sh <other-checkout> <prod|debug|fastify> <path> [rounds] [seconds]}
mode=${2:-prod}; path=${3:-/hello/anna}; rounds=${4:-6}; seconds=${5:-3}
here=$(cd "$(dirname "$0")/../.." && pwd)
there=$(cd "$other" && pwd)
command -v wrk > /dev/null || { echo "wrk is missing: make test-tools" >&2; exit 1; }
for dir in "$here" "$there"; do [ -f "$dir/dist/demo/main.js" ] || { echo "No build in $dir: run npm run build there." >&2; exit 1; }; done
# PROFILER_SOURCE_ROOT: the demo's own source, as an application's whose copy of Loupe is in node_modules (its frames get no source lines).
if [ "$mode" = debug ]; then settings=(APP_ENV=dev APP_DEBUG=1 PROFILER_MAX_PROFILES=1000000 PROFILER_SOURCE_ROOT=demo); else settings=(APP_ENV=prod APP_DEBUG=0 APP_SECRET=ab-bench-secret); fi
# fastify: bench/servers/fastify-loupe.js of this checkout, with each checkout's build of the plugin, profiles in Redis.
server=(node dist/demo/main.js)
if [ "$mode" = fastify ]; then settings=(REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}" PROFILER_MAX_PROFILES=1000000); server=(node "$here/bench/servers/fastify-loupe.js"); fi
prefix="loupe-ab:$$:"
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'; }
port_a=$(free_port); port_b=$(free_port)
# Each server's log goes to a pipe that is read, as in `make bench` (LOG_LEVEL=warn: a line per 4xx).
(cd "$here" && exec env "${settings[@]}" LOG_LEVEL=warn REDIS_PREFIX="${prefix}a:" HOST=127.0.0.1 PORT="$port_a" LOUPE_BUILD="$here/dist" "${server[@]}" > >(cat > /dev/null)) & pid_a=$!
(cd "$there" && exec env "${settings[@]}" ${B_ENV:-} LOG_LEVEL=warn REDIS_PREFIX="${prefix}b:" HOST=127.0.0.1 PORT="$port_b" LOUPE_BUILD="$there/dist" "${server[@]}" > >(cat > /dev/null)) & pid_b=$!
cleanup() {
  kill "$pid_a" "$pid_b" 2> /dev/null || true
  wait "$pid_a" "$pid_b" 2> /dev/null || true
  if [ "$mode" != prod ] && command -v redis-cli > /dev/null; then
    redis-cli -u "${REDIS_URL:-redis://127.0.0.1:6379}" --scan --pattern "${prefix}*" | xargs -r -n 500 redis-cli -u "${REDIS_URL:-redis://127.0.0.1:6379}" unlink > /dev/null
  fi
}
trap cleanup EXIT
for port in "$port_a" "$port_b"; do
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
done
ticks=$(getconf CLK_TCK)
cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# µs of server CPU per request, for one load of `seconds` on the server of pid $1 and port $2.
measure() {
  local before after requests
  before=$(cpu_of "$1")
  requests=$(wrk -t1 -c64 -d"${seconds}s" "http://127.0.0.1:$2$path" | awk '/requests in/ { print $1 }')
  after=$(cpu_of "$1")
  awk -v c=$((after - before)) -v r="$requests" -v t="$ticks" 'BEGIN { printf "%.1f", c * 1e6 / t / r }'
}
# Warmed alike before anything counts.
measure "$pid_a" "$port_a" > /dev/null; measure "$pid_b" "$port_b" > /dev/null
a=(); b=()
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then x=$(measure "$pid_a" "$port_a"); y=$(measure "$pid_b" "$port_b"); else y=$(measure "$pid_b" "$port_b"); x=$(measure "$pid_a" "$port_a"); fi
  a+=("$x"); b+=("$y")
  echo "round $round: A $x  B $y µs CPU/req"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "$mode $path: A (this checkout) median $(median "${a[@]}"), B ($there${B_ENV:+ with $B_ENV}) median $(median "${b[@]}") µs CPU/req; B lower in $(for i in "${!a[@]}"; do awk -v x="${a[$i]}" -v y="${b[$i]}" 'BEGIN { if (y < x) print 1 }'; done | wc -l) of $rounds rounds"
