#!/usr/bin/env bash
# The restore drill on PostgreSQL: eight clients issue while `selo backup` drives pg_dump on an
# exported snapshot; the dump is restored with pg_restore into a fresh database, checked by
# verify-restore, and served by a second instance that must answer like the first
# (tests/api/backup.rs). Needs PostgreSQL at $PG (default postgres://postgres@127.0.0.1:5432)
# and its client tools (pg_dump, pg_restore) of the server's version. Bounded: one test, a
# few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
pg=${PG:-postgres://postgres@127.0.0.1:5432}
db="selo_drill_$(date +%s)_$$"
psql "$pg/postgres" -qc "CREATE DATABASE $db"
trap 'psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
TEST_DATABASE_URL="$pg/$db" cargo test --release --test api backup:: -- --nocapture
