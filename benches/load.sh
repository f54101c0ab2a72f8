#!/usr/bin/env bash
# Load test of the public verification endpoint against the release binary, on loopback only
#. Starts selo on a fresh database, grants one authorization, then runs wrk with
# keep-alive for a bounded time against the JWK Set endpoint (the ceiling: a static answer
# through the same server, middleware and limits) and against the verification of the
# sticker's token, in the same run, and prints verification's share of the JWK Set's req/s and
# its p99 beside the targets (≥ 20 % on SQLite, ≥ 10 % on PostgreSQL, p99 ≤ 20 ms).
# Needs wrk (Debian package `wrk`).
#   usage: benches/load.sh [seconds=10] [connections=64]
#   SELO_BIN=path/to/selo benches/load.sh …  measures another build (e.g. an older commit's)
#   DATABASE_URL=postgres://…/fresh_db benches/load.sh   runs it on PostgreSQL
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
  SELO_KEYS_DIR=$work/keys DATABASE_URL=${DATABASE_URL:-sqlite://$work/selo.db} SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn \
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
[ -n "$token" ] && [ "$token" != "$url" ] || { echo "grant failed" >&2; tail "$work/log" >&2; exit 1; }
backend=sqlite; target=20
case "$DATABASE_URL" in postgres*) backend=postgres; target=10 ;; esac
run() { # name path → prints wrk's output, keeps it in $work/$name
  echo "== $1: GET $2, $conns connections, ${secs}s, keep-alive"
  wrk -t2 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$port$2" | tee "$work/$1"
}
rps() { awk '/^Requests\/sec/ {print $2}' "$work/$1"; }
p99_ms() { awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}' "$work/$1"; }
non2xx() { awk '/Non-2xx/ {print $NF}' "$work/$1"; }
run jwks /.well-known/selo-keys.json
run verify "/api/v1/verify/$token"
[ -z "$(non2xx verify)" ] || { echo "verification answered non-2xx: $(non2xx verify)" >&2; exit 1; }
curl -fs "http://127.0.0.1:$port/api/v1/verify/$token" | grep -q '"verdict":"valid"' || { echo "the token does not verify valid" >&2; exit 1; }
awk -v b="$backend" -v j="$(rps jwks)" -v v="$(rps verify)" -v p="$(p99_ms verify)" -v t="$target" 'BEGIN {
  share = 100 * v / j
  printf "\n%s: verification %.0f req/s = %.1f %% of the JWK Set (%.0f req/s), p99 %.2f ms (targets: >= %d %%, p99 <= 20 ms)\n", b, v, share, j, p, t
  exit !(share >= t && p <= 20)
}' || { echo "below target" >&2; exit 1; }
