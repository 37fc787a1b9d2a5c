# Sourced by scripts/test: make sure a PostgreSQL server runs on this machine (installing
# Debian's package if needed) with a database for the tests, and export its URL as
# KORAPSYON_TEST_POSTGRES. Without root or apt, the PostgreSQL tests are skipped.
set -euo pipefail
PG_USER=korapsyon
PG_DB=korapsyon_test
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing PostgreSQL (Debian's postgresql)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    else
        echo "PostgreSQL is not installed and cannot be installed here: its tests will be skipped" >&2
        return 0
    fi
fi
VERSION="$(ls /usr/lib/postgresql | sort -n | tail -1)"
if ! pg_lsclusters -h 2>/dev/null | grep -q "^$VERSION "; then
    pg_createcluster "$VERSION" main >/dev/null
fi
if ! pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
    pg_ctlcluster "$VERSION" main start
fi
PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $3}')"
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$1"; else sh -c "$1"; fi; }
as_postgres "psql -p $PORT -tAc \"SELECT 1 FROM pg_roles WHERE rolname='$PG_USER'\"" | grep -q 1 \
    || as_postgres "psql -p $PORT -qc \"CREATE ROLE $PG_USER LOGIN SUPERUSER PASSWORD '$PG_USER'\""
as_postgres "psql -p $PORT -tAc \"SELECT 1 FROM pg_database WHERE datname='$PG_DB'\"" | grep -q 1 \
    || as_postgres "createdb -p $PORT -O $PG_USER $PG_DB"
export KORAPSYON_TEST_POSTGRES="postgresql+psycopg://$PG_USER:$PG_USER@127.0.0.1:$PORT/$PG_DB"
