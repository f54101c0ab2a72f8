#!/usr/bin/env bash
# Render + sign with a signature timestamp: starts OpenSSL's RFC 3161 authority on loopback
# (tests/interop/openssl_tsa.sh: `openssl ts -reply` behind a small HTTP wrapper, one process
# per request) and runs the render benchmark with SELO_BENCH_TSA_URL pointing at it.
# Needs openssl and python3. Usage: benches/timestamp.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
source tests/interop/openssl_tsa.sh "$work"
trap 'kill $TSA_PID 2>/dev/null; rm -rf "$work"' EXIT
SELO_BENCH_TSA_URL="$TSA_URL" cargo bench --bench render_verify
