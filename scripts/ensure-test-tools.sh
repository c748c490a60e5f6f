#!/usr/bin/env bash
# Makes sure the programs the test suite drives are installed: wrk (load tests) and Chromium
# (browser tests of the profiler panel), both from Debian's packages. As root it installs what is
# missing with apt-get; otherwise it says what to install and fails.
set -euo pipefail

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Test tools: installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi

echo "The tests need: ${missing[*]}." >&2
echo "Install them with: sudo apt-get install -y ${missing[*]}   (Debian/Ubuntu package names)" >&2
exit 1
