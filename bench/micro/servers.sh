# Sourced by ab.sh and perf-breakdown.sh: how they start a server of each mode and read its CPU.

# mode_server <mode> <dist>: sets `settings` (the server's environment) and `server` (node's
# arguments): the demo of <dist> in prod or debug, or Fastify with the loupe-kernel/fastify plugin of
# <dist> (bench/servers/fastify-loupe.js), profiles in Redis. Fails for any other mode.
# PROFILER_SOURCE_ROOT: the demo's own source, as an application's whose copy of Loupe is in
# node_modules (its frames get no source lines); the server runs in the checkout's root.
mode_server() {
  case "$1" in
    debug) settings=(APP_ENV=dev APP_DEBUG=1 PROFILER_MAX_PROFILES=1000000 PROFILER_SOURCE_ROOT=demo); server=("$2/demo/main.js") ;;
    prod) settings=(APP_ENV=prod APP_DEBUG=0 APP_SECRET=bench-micro-secret); server=("$2/demo/main.js") ;;
    fastify) settings=(PROFILER_MAX_PROFILES=1000000); server=("$(cd "$(dirname "${BASH_SOURCE[0]}")/../servers" && pwd)/fastify-loupe.js") ;;
    *) return 1 ;;
  esac
}

# A port free on the loopback.
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'; }

# Waits until the server on port $1 answers (10 s at most).
wait_serving() { for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return; sleep 0.1; done; }

# Clock ticks of CPU (user and system) the process $1 used so far.
cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# Unlinks the Redis keys under the prefix $1 (REDIS_URL, the local Redis by default).
remove_keys() {
  command -v redis-cli > /dev/null || return 0
  local url=${REDIS_URL:-redis://127.0.0.1:6379}
  redis-cli -u "$url" --scan --pattern "$1*" | xargs -r -n 500 redis-cli -u "$url" unlink > /dev/null
}

# start_server <build> <prefix> <port> <output> [node options…]: starts the server mode_server chose
# (`settings`, `server`) in the checkout's root, with the plugin or demo of <build>, its profiles
# under the Redis prefix <prefix> (REDIS_URL, the local Redis by default) and its output to the
# file <output>; sets `pid`.
start_server() {
  local build=$1 prefix=$2 port=$3 output=$4 root
  shift 4
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  (cd "$root" && exec env "${settings[@]}" REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}" LOG_LEVEL=warn REDIS_PREFIX="$prefix" HOST=127.0.0.1 PORT="$port" LOUPE_BUILD="$build" \
    node "$@" "${server[@]}" > "$output" 2>&1) & pid=$!
}
