#!/usr/bin/env bash
# Makes the machine's PostgreSQL able to run the test suite: builds pgvector from Debian's
# source package (Debian 12 ships none) and creates the extension. Idempotent.
set -euo pipefail
PGVER=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
[ -n "$PGVER" ] || { echo "no PostgreSQL cluster found"; exit 1; }
PG_CONFIG=/usr/lib/postgresql/$PGVER/bin/pg_config
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

# The Debian archive this machine already uses (its own mirror or proxy), read from its apt configuration:
# deb822 `URIs:` fields and one-line `deb` entries, the first that serves the main archive (not -security).
debian_archive() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' "$f"
  done
  return 0
}
pg_ctlcluster --skip-systemctl-redirect "$PGVER" main start 2>/dev/null || true
if [ ! -f "$($PG_CONFIG --sharedir)/extension/vector.control" ]; then
  echo "building pgvector for PostgreSQL $PGVER"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "postgresql-server-dev-$PGVER" dpkg-dev make gcc >/dev/null
  ARCHIVE=$(debian_archive | grep -Ev 'security' | grep -E '/debian/?$' | head -1 || true)
  [ -n "$ARCHIVE" ] || { echo "no Debian archive found in /etc/apt/sources.list(.d): cannot fetch the pgvector source"; exit 1; }
  # pgvector's source comes from the next release (trixie), from the same archive.
  echo "deb-src ${ARCHIVE%/} trixie main" | $SUDO tee /etc/apt/sources.list.d/trixie-src.list >/dev/null
  $SUDO apt-get update -qq
  work=$(mktemp -d); cd "$work"
  apt-get source --download-only pgvector >/dev/null
  tar xzf pgvector_*.orig.tar.gz
  cd pgvector-*/
  make -s OPTFLAGS="" PG_CONFIG=$PG_CONFIG >/dev/null
  $SUDO make -s install PG_CONFIG=$PG_CONFIG >/dev/null
  cd /; rm -rf "$work"
fi
psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -qc "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
# template1 gets the extensions so every per-test database created from it has them
psql -h 127.0.0.1 -U postgres -d template1 -v ON_ERROR_STOP=1 -qc "CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm" >/dev/null
echo "pgvector ready on PostgreSQL $PGVER"
