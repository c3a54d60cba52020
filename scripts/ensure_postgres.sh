#!/usr/bin/env bash
# Run by `make test` before pytest. The tests start a throwaway PostgreSQL cluster of their own
# (tests/support/postgres.py: initdb + pg_ctl in a temporary folder, 127.0.0.1 only, stopped and
# deleted at the end), so all this script does is make sure PostgreSQL's server programs are
# installed: Debian's `postgresql` package, installed when missing if run as root with apt-get.
# It never starts, stops or reconfigures a cluster, and never changes a user or a password.
# Without the programs the PostgreSQL tests skip, except under CI=true, where they fail.
set -euo pipefail

installed() {
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null
}

if [ -n "${CONTEXTCHEF_PG_URI:-}" ] || installed; then
  exit 0  # the tests use that server, or can make their own cluster
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "[postgres] installing Debian's postgresql package, for the tests' throwaway cluster"
  if DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; then
    exit 0
  fi
  echo "[postgres] installing postgresql failed"
else
  echo "[postgres] PostgreSQL is not installed, and installing it needs root and apt-get"
fi
if [ "${CI:-}" = "true" ]; then
  exit 1
fi
echo "[postgres] the PostgreSQL tests will skip (or set CONTEXTCHEF_PG_URI to a server of yours)"
