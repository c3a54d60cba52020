# Sourced by `make test`: makes a PostgreSQL server reachable on 127.0.0.1 for the tests and
# exports CONTEXTCHEF_PG_URI. Uses Debian's packages and cluster tools (installs them when run
# as root and they are missing). Without a server the PostgreSQL tests skip, except under
# CI=true, where they fail.
_cc_pg_setup() {
  if [ -n "${CONTEXTCHEF_PG_URI:-}" ]; then return 0; fi
  if ! command -v pg_lsclusters >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "[postgres] installing Debian's postgresql package"
      DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null \
        || { echo "[postgres] install failed"; return 1; }
    else
      echo "[postgres] no PostgreSQL installed and not root: PostgreSQL tests will skip"
      return 0
    fi
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "[postgres] not root: set CONTEXTCHEF_PG_URI to test against your own server"
    return 0
  fi
  local ver
  ver=$(pg_lsclusters -h | awk 'NR==1 {print $1}')
  if [ -z "$ver" ]; then
    ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
    pg_createcluster "$ver" main >/dev/null || return 1
  fi
  local name
  name=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v {print $2; exit}')
  local port
  port=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v {print $3; exit}')
  pg_ctlcluster "$ver" "$name" start 2>/dev/null || pg_ctlcluster "$ver" "$name" status >/dev/null || return 1
  for _ in $(seq 1 30); do
    su postgres -c "pg_isready -q -h 127.0.0.1 -p $port" && break
    sleep 1
  done
  su postgres -c "psql -q -p $port -c \"ALTER USER postgres PASSWORD 'contextchef'\"" >/dev/null || return 1
  export CONTEXTCHEF_PG_URI="postgresql://postgres:contextchef@127.0.0.1:$port/postgres"
  echo "[postgres] server ready on 127.0.0.1:$port"
}
_cc_pg_setup || { echo "[postgres] setup failed"; [ "${CI:-}" != "true" ]; }
