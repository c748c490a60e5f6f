#!/usr/bin/env bash
# shellcheck disable=SC2016 # backticks in messages and the inline Node script are meant literally
# Makes sure a Redis answers at REDIS_URL (default redis://127.0.0.1:6379), in this order:
#   1. one already answers there: use it;
#   2. a Docker engine runs: `docker compose up -d redis` and wait until it is healthy;
#   3. redis-server is installed and the URL is on this machine: start one daemonized, with its
#      pidfile and log under .redis/;
#   4. otherwise fail and say how to get one.
# Idempotent. Prints one line saying which Redis is in use; errors go to stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
url=${REDIS_URL:-redis://127.0.0.1:6379}
state_dir="$root/.redis"

# First line prefixed, further lines (advice) as they are.
fail() {
  printf 'ensure-redis: %s\n' "$1" >&2
  shift
  (($# == 0)) || printf '%s\n' "$@" >&2
  exit 1
}

# Bounds every probe: a host that drops packets would otherwise hang redis-cli for minutes.
if command -v timeout >/dev/null 2>&1; then bounded=(timeout 5); else bounded=(); fi

# --- Parse redis[s]://[[user]:password@]host[:port][/db] -------------------------------------
percent_decode() {
  local value=${1//\\/\\\\}
  printf '%b' "${value//%/\\x}"
}

scheme=${url%%://*}
[[ $url == *://* && ( $scheme == redis || $scheme == rediss ) ]] ||
  fail "REDIS_URL \"$url\" is not a redis:// or rediss:// URL."
rest=${url#*://}
rest=${rest%%\?*}
rest=${rest%%#*}
user='' pass=''
if [[ $rest == *@* ]]; then
  userinfo=${rest%@*}
  rest=${rest##*@}
  if [[ $userinfo == *:* ]]; then
    user=$(percent_decode "${userinfo%%:*}")
    pass=$(percent_decode "${userinfo#*:}")
  else
    user=$(percent_decode "$userinfo")
  fi
fi
hostport=${rest%%/*}
db=''
[[ $rest == */* ]] && db=${rest#*/} && db=${db%%/*}
port=''
if [[ $hostport == \[* ]]; then
  host=${hostport#\[}
  host=${host%%\]*}
  [[ $hostport == *\]:* ]] && port=${hostport##*\]:}
else
  host=${hostport%%:*}
  [[ $hostport == *:* ]] && port=${hostport##*:}
fi
host=${host:-127.0.0.1}
port=${port:-6379}
[[ $port =~ ^[0-9]+$ ]] || fail "REDIS_URL \"$url\" has an invalid port \"$port\"."
[[ -z $db || $db =~ ^[0-9]+$ ]] || fail "REDIS_URL \"$url\" has an invalid database number \"$db\"."

# The URL as shown to people: never print the password.
shown="$scheme://"
[[ -n $user ]] && shown+="$user"
[[ -n $pass ]] && shown+=':***'
[[ -n $user || -n $pass ]] && shown+='@'
if [[ $host == *:* ]]; then shown+="[$host]:$port"; else shown+="$host:$port"; fi
[[ -n $db ]] && shown+="/$db"

# How to stop a redis-server this script started.
stop_hint="redis-cli -p $port shutdown nosave"
[[ $host == 127.0.0.1 || $host == localhost ]] || stop_hint="redis-cli -h $host -p $port shutdown nosave"
[[ -n $pass ]] && stop_hint="REDISCLI_AUTH=<password> $stop_hint"

# --- Probe: 0 = answered PONG, 1 = nothing answered, 2 = something answered otherwise ---------
reply=''

probe_with_redis_cli() {
  local args=(-h "$host" -p "$port") out errors
  [[ -n $db ]] && args+=(-n "$db")
  [[ $scheme == rediss ]] && args+=(--tls)
  [[ -n $user && -n $pass ]] && args+=(--user "$user")
  errors=$(mktemp)
  out=$(REDISCLI_AUTH=$pass "${bounded[@]}" redis-cli "${args[@]}" ping 2>"$errors") || true
  reply=$(grep -v -e '^Could not connect' -e '^AUTH failed' -e '^\s*$' "$errors" | head -n 3 || true)
  rm -f "$errors"
  [[ $out == PONG ]] && return 0
  # A reply other than PONG (NOAUTH…) or a protocol error: something listens there.
  [[ -n $out ]] && reply=$out
  [[ -n $reply ]] && return 2
  return 1
}

# Without redis-cli: Node is required by the project anyway. Speaks just enough RESP for
# AUTH, SELECT and PING.
probe_with_node() {
  local out status=0
  out=$(node -e '
    const [host, port, secure, user, pass, db] = process.argv.slice(1);
    const command = (...words) =>
      `*${words.length}\r\n` + words.map((w) => `$${Buffer.byteLength(w)}\r\n${w}\r\n`).join("");
    let received = "";
    const socket = require(secure === "1" ? "tls" : "net").connect(
      { host, port: Number(port), servername: host },
      () => {
        let request = "";
        if (pass) request += user ? command("AUTH", user, pass) : command("AUTH", pass);
        if (db) request += command("SELECT", db);
        socket.write(request + command("PING"));
      },
    );
    const lines = () => received.split("\r\n").filter((line) => line !== "");
    socket.setTimeout(3000, () => socket.destroy());
    socket.on("error", () => undefined);
    socket.on("data", (chunk) => {
      received += chunk;
      if (lines().includes("+PONG") || lines().some((line) => line.startsWith("-"))) socket.end();
    });
    socket.on("close", () => {
      if (lines().includes("+PONG")) process.exit(0);
      const error = lines().find((line) => line.startsWith("-"));
      if (error !== undefined || received !== "") {
        process.stdout.write((error ?? lines().slice(0, 3).join("\n")).replace(/^-/, ""));
        process.exit(2);
      }
      process.exit(1);
    });
  ' "$host" "$port" "$([[ $scheme == rediss ]] && echo 1 || echo 0)" "$user" "$pass" "$db") || status=$?
  reply=$out
  return "$status"
}

probe() {
  reply=''
  if command -v redis-cli >/dev/null 2>&1; then probe_with_redis_cli; else probe_with_node; fi
}

wait_for_redis() {
  local tries=$1
  for ((i = 0; i < tries; i++)); do
    probe && return 0
    # A redis-server that could not bind logs "aborting" and exits: no need to wait further.
    [[ -n ${logfile:-} ]] && grep -q 'aborting' "$logfile" 2>/dev/null && return 1
    sleep 0.2
  done
  return 1
}

is_local_host() {
  case $host in
    localhost | ::1 | 127.*) return 0 ;;
    *) return 1 ;;
  esac
}

compose() {
  if docker compose version >/dev/null 2>&1; then
    docker compose --project-directory "$root" -f "$root/docker-compose.yml" "$@"
  elif command -v docker-compose >/dev/null 2>&1; then
    docker-compose --project-directory "$root" -f "$root/docker-compose.yml" "$@"
  else
    echo 'ensure-redis: a Docker engine runs but neither `docker compose` nor `docker-compose` is installed.' >&2
    return 1
  fi
}

# --- 1. Already running ------------------------------------------------------------------------
status=0
probe || status=$?
if [[ $status -eq 0 ]]; then
  pidfile="$state_dir/redis-$port.pid"
  if is_local_host && [[ -f $pidfile ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "Redis: using $shown (the redis-server started earlier by scripts/ensure-redis.sh; stop it with: $stop_hint)"
  else
    echo "Redis: using the Redis already running at $shown"
  fi
  exit 0
fi
if [[ $status -eq 2 ]]; then
  fail "something answers at $shown but not as a usable Redis: \"$reply\"." \
    'If it is a Redis that wants a password, put it in REDIS_URL (redis://:password@host:port), or set REDIS_URL to another Redis.'
fi

how_to_get_one=(
  'Get one in any of these ways:'
  '  docker compose up -d redis           (needs a running Docker engine; publishes 127.0.0.1:6379)'
  '  sudo apt-get install redis-server    (Debian/Ubuntu; `brew install redis` on macOS, `sudo dnf install redis` on Fedora), then run make again'
  '  REDIS_URL=redis://host:port make …   (a Redis you already have)'
)

if ! is_local_host || [[ $scheme != redis ]]; then
  fail "no Redis answers at $shown, and it is not a plain redis:// URL on this machine, so none can be started for it." \
    'Check that Redis is up and reachable, or set REDIS_URL to another Redis.'
fi

# --- 2. Docker -----------------------------------------------------------------------------------
# The compose service publishes on 127.0.0.1 only, so this only serves URLs that point there.
if [[ $host == 127.0.0.1 || $host == localhost ]] && command -v docker >/dev/null 2>&1 &&
  "${bounded[@]}" docker info >/dev/null 2>&1; then
  echo "ensure-redis: no Redis at $shown; starting the docker compose service \"redis\" on port $port…" >&2
  if LOUPE_REDIS_PORT=$port compose up -d redis >&2; then
    container=$(LOUPE_REDIS_PORT=$port compose ps -q redis || true)
    health=''
    for ((i = 0; i < 60; i++)); do
      health=$(docker inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$container" 2>/dev/null || true)
      [[ $health == healthy ]] && break
      sleep 1
    done
    if [[ $health == healthy ]] && wait_for_redis 50; then
      echo "Redis: using the docker compose service \"redis\" at $shown (stop it with: docker compose down)"
      exit 0
    fi
    echo "ensure-redis: the docker compose service \"redis\" did not become healthy within 60 s (status: ${health:-unknown}); see: docker compose logs redis" >&2
  fi
  command -v redis-server >/dev/null 2>&1 || fail "could not start Redis with Docker." "${how_to_get_one[@]}"
  echo 'ensure-redis: falling back to a local redis-server…' >&2
fi

# --- 3. Local redis-server ------------------------------------------------------------------------
if command -v redis-server >/dev/null 2>&1; then
  mkdir -p "$state_dir"
  # The directory ignores itself, so its pidfiles and logs never reach git.
  [[ -f $state_dir/.gitignore ]] || echo '*' >"$state_dir/.gitignore"
  case $host in
    localhost) bind=(127.0.0.1 -::1) ;; # "-": skip ::1 quietly where IPv6 is unavailable
    *) bind=("$host") ;;
  esac
  pidfile="$state_dir/redis-$port.pid"
  logfile="$state_dir/redis-$port.log"
  args=(--daemonize yes --port "$port" --bind "${bind[@]}" --save '' --appendonly no
    --dir "$state_dir" --pidfile "$pidfile" --logfile "$logfile")
  [[ -n $pass ]] && args+=(--requirepass "$pass")
  : >"$logfile"
  redis-server "${args[@]}" >/dev/null || fail "redis-server could not start; see $logfile."
  if wait_for_redis 50; then
    echo "Redis: started redis-server at $shown (pid $(cat "$pidfile" 2>/dev/null || echo '?'), log .redis/redis-$port.log; stop it with: $stop_hint)"
    exit 0
  fi
  tail -n 5 "$logfile" >&2 2>/dev/null || true
  fail "started redis-server on port $port but it does not answer; see $logfile."
fi

# --- 4. Nothing to start ---------------------------------------------------------------------------
fail "no Redis answers at $shown, no Docker engine runs and redis-server is not installed." "${how_to_get_one[@]}"
