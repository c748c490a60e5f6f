#!/usr/bin/env bash
# shellcheck disable=SC2016 # backticks in messages are meant literally
# Makes sure a PostgreSQL answers for the tests and the demo's SQL routes, at PGHOST:PGPORT
# (default 127.0.0.1:5432), in this order:
#   1. one already answers there: use it;
#   2. a PostgreSQL cluster is installed on this machine (Debian's postgresql-common): start it
#      with pg_ctlcluster;
#   3. a Docker engine runs: `docker compose up -d postgres` and wait until it answers;
#   4. otherwise fail and say how to get one.
# Idempotent. Prints one line saying which PostgreSQL is in use; errors go to stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
host=${PGHOST:-127.0.0.1}
port=${PGPORT:-5432}

fail() {
  printf 'ensure-postgres: %s\n' "$1" >&2
  shift
  (($# == 0)) || printf '%s\n' "$@" >&2
  exit 1
}

# 0: accepting connections. Without pg_isready, a TCP connect is enough to say something listens.
answers() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$host" -p "$port" -t 3
  else
    node -e '
      const socket = require("net").connect(Number(process.argv[2]), process.argv[1], () => process.exit(0));
      socket.setTimeout(3000, () => process.exit(1));
      socket.on("error", () => process.exit(1));
    ' "$host" "$port"
  fi
}

wait_until_answers() {
  for ((i = 0; i < 60; i++)); do
    answers && return 0
    sleep 0.5
  done
  return 1
}

how_to_get_one=(
  'Get one in any of these ways:'
  '  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start   (Debian/Ubuntu, installed but stopped)'
  '  docker compose up -d postgres        (needs a running Docker engine; publishes 127.0.0.1:5432)'
  '  sudo apt-get install postgresql      (then run make again)'
  '  TEST_DATABASE_URL=postgres://user@host:port/db make test   (a PostgreSQL you have)'
)

if answers; then
  echo "PostgreSQL: using the one already running at $host:$port"
  exit 0
fi

case $host in
  localhost | 127.* | ::1) ;;
  *) fail "no PostgreSQL answers at $host:$port, and it is not on this machine, so none can be started for it." "${how_to_get_one[@]}" ;;
esac

# --- Installed here: start its cluster ------------------------------------------------------------
if command -v pg_ctlcluster >/dev/null 2>&1 && [[ -d /etc/postgresql ]]; then
  for version in $(ls /etc/postgresql); do
    [[ -d /etc/postgresql/$version/main ]] || continue
    echo "ensure-postgres: no PostgreSQL at $host:$port; starting cluster $version/main…" >&2
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
    if wait_until_answers; then
      echo "PostgreSQL: started cluster $version/main at $host:$port (stop it with: pg_ctlcluster --skip-systemctl-redirect $version main stop)"
      exit 0
    fi
  done
fi

# --- Docker ---------------------------------------------------------------------------------------
if command -v docker >/dev/null 2>&1 && timeout 5 docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  echo "ensure-postgres: no PostgreSQL at $host:$port; starting the docker compose service \"postgres\"…" >&2
  if docker compose --project-directory "$root" -f "$root/docker-compose.yml" up -d postgres >&2 && wait_until_answers; then
    echo "PostgreSQL: using the docker compose service \"postgres\" at $host:$port (stop it with: docker compose down)"
    exit 0
  fi
fi

fail "no PostgreSQL answers at $host:$port and none could be started." "${how_to_get_one[@]}"
