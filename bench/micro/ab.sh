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
source "$here/bench/micro/servers.sh"
# fastify: bench/servers/fastify-loupe.js of this checkout, with each checkout's build of the plugin.
mode_server "$mode" "$here/dist" || { echo "usage: ab.sh <other-checkout> <prod|debug|fastify> <path> [rounds] [seconds]" >&2; exit 1; }
server_a=("${server[@]}")
mode_server "$mode" "$there/dist"
server_b=("${server[@]}")
prefix="loupe-ab:$$:"
port_a=$(free_port); port_b=$(free_port)
redis=${REDIS_URL:-redis://127.0.0.1:6379}
# Each server's log goes to a pipe that is read, as in `make bench` (LOG_LEVEL=warn: a line per 4xx).
(cd "$here" && exec env "${settings[@]}" REDIS_URL="$redis" LOG_LEVEL=warn REDIS_PREFIX="${prefix}a:" HOST=127.0.0.1 PORT="$port_a" LOUPE_BUILD="$here/dist" node "${server_a[@]}" > >(cat > /dev/null)) & pid_a=$!
(cd "$there" && exec env "${settings[@]}" ${B_ENV:-} REDIS_URL="$redis" LOG_LEVEL=warn REDIS_PREFIX="${prefix}b:" HOST=127.0.0.1 PORT="$port_b" LOUPE_BUILD="$there/dist" node "${server_b[@]}" > >(cat > /dev/null)) & pid_b=$!
cleanup() {
  kill "$pid_a" "$pid_b" 2> /dev/null || true
  wait "$pid_a" "$pid_b" 2> /dev/null || true
  if [ "$mode" != prod ]; then remove_keys "$prefix"; fi
}
trap cleanup EXIT
wait_serving "$port_a"; wait_serving "$port_b"
ticks=$(getconf CLK_TCK)
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
