#!/usr/bin/env bash
# deps.sh - installs the Debian packages godeye needs that are missing.
#   scripts/deps.sh          build dependencies
#   scripts/deps.sh --test   build and test dependencies
#   scripts/deps.sh --bench  build and bench/run.sh dependencies
set -euo pipefail
pkgs=(build-essential cmake pkg-config libjansson-dev libsqlite3-dev libcurl4-openssl-dev
      check zlib1g-dev libzip-dev python3)
if [ "${1:-}" = "--test" ]; then
  # zip and unzip: tests/cli/bugreport-stored.test re-packs a bugreport with stored members
  # proguard-cli and a JDK: tests/retrace_proguard.sh compares godeye retrace with ProGuard's
  # python3-scipy: tests/oracle/diff_check.py checks diff's p-values and intervals against scipy
  # zip, unzip: tests/cli/bugreport-stored.test re-packs a real bugreport with zip -0
  # nodejs, npm: tests/mcp/sdk_client.mjs drives godeye mcp with the MCP SDK's client (npm ci in scripts/test.sh)
  # (a machine whose Node.js already has npm, e.g. NodeSource's, keeps it:
  # Debian's npm conflicts with that nodejs)
  command -v node >/dev/null || pkgs+=(nodejs)
  command -v npm >/dev/null || pkgs+=(npm)
  pkgs+=(python3-scipy zip unzip gzip curl clickhouse-server chromium clang libclang-rt-14-dev valgrind proguard-cli default-jdk-headless)
fi
if [ "${1:-}" = "--bench" ]; then
  # bench/run.sh: the sqlite3 -json and curl baselines, a loopback ClickHouse for push
  pkgs+=(sqlite3 curl clickhouse-server)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
