#!/usr/bin/env bash
# The API against a third-party fuzzer: PyPI's schemathesis generates requests from the served
# OpenAPI document (with an official's token) for a bounded time and runs every check but
# `positive_data_acceptance`. CI fails on any failure it reports: a server error, a status,
# content type or header the document does not declare, a 405 without `Allow`, a response
# that breaks its schema, an operation that ignores authentication.
#
# Left out, `positive_data_acceptance` ("schema-valid request rejected"): the document states
# the shape of a request, not the law. A CPF, CNPJ, CNH or RENAVAM whose check digits are
# wrong, a plate of no pattern, a date the law places elsewhere, an id of a record that does
# not exist — each fits its schema and is refused (422, 404) by the rules selo exists to apply.
# Needs python3 (venv) and a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "schemathesis>=4.3,<5"
port=$((20000 + RANDOM % 20000))
base="http://127.0.0.1:$port"
token="schemathesis-$(date +%s)-token"
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_ADMIN_TOKEN=$token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=sqlite://$work/selo.db SELO_OUVIDORIA_PHONE="(66) 3401-9999" \
  SELO_RATE_VERIFY_PER_MINUTE=1000000 SELO_RATE_CODE_PER_MINUTE=1000000 \
  SELO_RATE_UPLOAD_PER_MINUTE=1000000 SELO_RATE_REPORT_PER_MINUTE=1000000 \
  SELO_RATE_AUTH_FAILURES_PER_MINUTE=1000000 RUST_LOG=warn
./target/release/selo serve >"$work/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "$base/health" >/dev/null && break; sleep 0.1; done
set +e
"$work/venv/bin/schemathesis" run "$base/api/v1/openapi.json" \
  -H "Authorization: Bearer $token" \
  --checks all --exclude-checks positive_data_acceptance \
  --max-time "${SCHEMATHESIS_SECONDS:-150}" --workers 2 --max-response-time 20 \
  --seed 20261205 >"$work/report.txt" 2>&1
status=$?
set -e
sed -n '/=== SUMMARY ===/,$p' "$work/report.txt"
# Failures are the service's; a runtime error inside the fuzzer itself is not, and is shown.
if grep -q "^Failures:" "$work/report.txt"; then
  sed -n '/^___/,/^=== SUMMARY/p' "$work/report.txt" | head -200
  echo "schemathesis found failures (exit $status)" >&2
  exit 1
fi
if grep -q "Server error" "$work/report.txt"; then
  echo "schemathesis saw a server error" >&2
  exit 1
fi
# What the fuzzer reported of its own failures, for the record.
grep -A2 "^Runtime Error" "$work/report.txt" | head -6 || true
tested=$(sed -n 's/^  Tested: \([0-9]*\).*/\1/p' "$work/report.txt")
if [ -z "$tested" ] || [ "$tested" -lt 100 ]; then
  echo "schemathesis tested ${tested:-no} operations: treating as a failure" >&2
  exit 1
fi
echo "schemathesis: $tested operations, no failure (exit $status; errors above, if any, are the fuzzer's own)"
