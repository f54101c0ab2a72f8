#!/usr/bin/env bash
# Load test of the public verification endpoint against the release binary, on loopback only.
# Starts selo on a fresh SQLite database, grants one authorization, then runs wrk with
# keep-alive for a bounded time. Needs wrk (Debian package `wrk`).
#   usage: benches/load.sh [seconds=10] [connections=64]
#   SELO_BIN=path/to/selo benches/load.sh …  measures another build (e.g. an older commit's)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-64}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
bin=${SELO_BIN:-./target/release/selo}
[ -n "${SELO_BIN:-}" ] || cargo build --release --quiet
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=http://127.0.0.1:$port SELO_ADMIN_TOKEN=bench-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=sqlite://$work/selo.db SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn \
  SELO_RATE_VERIFY_PER_MINUTE=0  # one client address measuring throughput, not a limit
"$bin" serve >"$work/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
today=$(TZ=America/Cuiaba date +%F)
auth=(-H "Authorization: Bearer bench-token" -H "Content-Type: application/json")
driver=$(curl -fs "${auth[@]}" -d '{"name":"Bench","cpf":"52998224725","cnh":{"number":"58316794534","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[{"court":"estadual_1","issued_on":"'"$today"'","clear":true},{"court":"estadual_2","issued_on":"'"$today"'","clear":true},{"court":"federal_1","issued_on":"'"$today"'","clear":true},{"court":"federal_2","issued_on":"'"$today"'","clear":true}]}' "http://127.0.0.1:$port/api/v1/drivers" | sed 's/.*"id":"\([^"]*\)".*/\1/')
vehicle=$(curl -fs "${auth[@]}" -d '{"plate":"BRA2E19","renavam":"13824652268","make":"Chevrolet","model":"Onix","color":"Prata","model_year":2022,"doors":4,"air_conditioning":true,"capacity_including_driver":5,"registration_municipality_ibge":5101803,"owner_type":"locadora_pj","owner_document":"11222333000181"}' "http://127.0.0.1:$port/api/v1/vehicles" | sed 's/.*"id":"\([^"]*\)".*/\1/')
url=$(curl -fs "${auth[@]}" -d "{\"driver_id\":\"$driver\",\"vehicle_id\":\"$vehicle\",\"fee_paid_on\":\"$today\"}" "http://127.0.0.1:$port/api/v1/app-authorizations" | sed 's/.*"verification_url":"\([^"]*\)".*/\1/')
token=${url##*/v/}
echo "verify endpoint, $conns connections, ${secs}s, keep-alive:"
wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$port/api/v1/verify/$token"
