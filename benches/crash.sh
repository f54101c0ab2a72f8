#!/usr/bin/env bash
# Crash probe of official numbering, on loopback only, bounded in time.
# Starts the release binary, lets N clients issue across both laws (ride-hailing certidões,
# signed and numbered; charter autos de infração, numbered), kills the process with SIGKILL
# at random moments R times, restarts it, then audits the register:
#   duplicates (a number on two documents), stuck reservations (numbers neither issued nor
#   voided), unexplained gaps (a sequence value with no number row), and how many numbers were
#   voided as "emissão interrompida". Exits non-zero unless the first three are all 0.
#
#   usage: benches/crash.sh [clients=12] [kills=5]
#   SELO_BIN=path/to/selo benches/crash.sh …   measures another build
#   DATABASE_URL=postgres://…/fresh_db benches/crash.sh   runs it on PostgreSQL (needs psql)
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-12}
kills=${2:-5}
bin=${SELO_BIN:-./target/release/selo}
[ -n "${SELO_BIN:-}" ] || cargo build --release --quiet
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
base="http://127.0.0.1:$port"
db=${DATABASE_URL:-sqlite://$work/selo.db}
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_ADMIN_TOKEN=crash-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=$db SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn \
  SELO_RESERVATION_TIMEOUT_SECS=2
pid=
start() {
  "$bin" serve >>"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -fs "$base/health" >/dev/null && return; sleep 0.1; done
  echo "selo did not start" >&2; tail "$work/log" >&2; exit 1
}
cleanup() {
  kill "${loops[@]}" 2>/dev/null || true
  [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  rm -rf "$work"
}
loops=()
trap cleanup EXIT
start

auth=(-H "Authorization: Bearer crash-token" -H "Content-Type: application/json")
today=$(TZ=America/Cuiaba date +%F)
post() { curl -fs "${auth[@]}" -d "$2" "$base$1"; }
id_of() { sed 's/.*"id":"\([^"]*\)".*/\1/'; }
driver=$(post /api/v1/drivers '{"name":"Crash","cpf":"52998224725","cnh":{"number":"58316794534","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[{"court":"estadual_1","issued_on":"'"$today"'","clear":true},{"court":"estadual_2","issued_on":"'"$today"'","clear":true},{"court":"federal_1","issued_on":"'"$today"'","clear":true},{"court":"federal_2","issued_on":"'"$today"'","clear":true}]}' | id_of)
vehicle=$(post /api/v1/vehicles '{"plate":"BRA2E19","renavam":"13824652268","make":"Chevrolet","model":"Onix","color":"Prata","model_year":2022,"doors":4,"air_conditioning":true,"capacity_including_driver":5,"registration_municipality_ibge":5101803,"owner_type":"locadora_pj","owner_document":"11222333000181"}' | id_of)
authorization=$(post /api/v1/app-authorizations "{\"driver_id\":\"$driver\",\"vehicle_id\":\"$vehicle\",\"fee_paid_on\":\"$today\"}" | id_of)
company=$(post /api/v1/charter/companies '{"cnpj":"11.222.333/0001-81","name":"Crash Fretamentos","address":"Av. Ministro João Alberto, 100","phone":"(66) 3401-0000","email":"crash@example.test","modality":"continuo","protocol":"SIS-1","applied_on":"'"$today"'"}' | id_of)

client() {
  local i=$1 n=0
  while :; do
    n=$((n + 1))
    if [ $((n % 2)) -eq 0 ]; then
      curl -s -o /dev/null -m 10 "${auth[@]}" -d '{"subject":"app_driver","protocol":"C-'"$i-$n"'"}' \
        "$base/api/v1/app-authorizations/$authorization/certidoes" || sleep 0.05
    else
      curl -s -o /dev/null -m 10 "${auth[@]}" -d '{"infraction":"FRET-ART19-I","committed_on":"'"$today"'","place":"Rodoviária","facts":"Crash probe","inspector":"Fiscal"}' \
        "$base/api/v1/charter/companies/$company/autos" || sleep 0.05
    fi
  done
}
for i in $(seq "$clients"); do client "$i" & loops+=($!); done
for k in $(seq "$kills"); do
  sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 1 + (r % 200) / 100 }')"
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  echo "kill -9 #$k"
  start
done
sleep 2
kill "${loops[@]}" 2>/dev/null || true
wait "${loops[@]}" 2>/dev/null || true
loops=()
# Let the sweep see every reservation older than the timeout (it runs every 2 s here).
sleep 5

audit_sql=(
  "SELECT (SELECT count(*) FROM (SELECT 1 FROM documents GROUP BY number, kind HAVING count(*) > 1) d) + (SELECT count(*) FROM (SELECT 1 FROM charter_autos GROUP BY number HAVING count(*) > 1) a)"
  "SELECT count(*) FROM document_numbers WHERE state = 'reserved'"
  "SELECT coalesce(sum(m - c), 0) FROM (SELECT max(seq) AS m, count(*) AS c FROM document_numbers GROUP BY series, year) g"
  "SELECT count(*) FROM document_numbers WHERE state = 'voided' AND void_reason = 'emissão interrompida'"
  "SELECT count(*) FROM document_numbers WHERE state = 'issued'"
)
query() {
  if [[ $db == postgres* ]]; then
    psql "$db" -Atc "$1"
  else
    python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' \
      "${db#sqlite://}" "$1"
  fi
}
dups=$(query "${audit_sql[0]}")
stuck=$(query "${audit_sql[1]}")
gaps=$(query "${audit_sql[2]}")
interrupted=$(query "${audit_sql[3]}")
issued=$(query "${audit_sql[4]}")
backend=${db%%:*}
echo "crash probe ($backend): $clients clients, $kills × kill -9"
echo "  numbers issued:                    $issued"
echo "  voided as 'emissão interrompida':  $interrupted"
echo "  duplicates:                        $dups"
echo "  stuck reservations:                $stuck"
echo "  unexplained gaps:                  $gaps"
# The audit log's hash chain survived the kills too.
chain=$("$bin" audit verify) || { echo "$chain"; echo "the audit chain is broken" >&2; exit 1; }
echo "  audit chain:                       $(echo "$chain" | head -1 | cut -d: -f2- | cut -d';' -f1 | xargs), $(echo "$chain" | tail -1)"
[ "$dups" = 0 ] && [ "$stuck" = 0 ] && [ "$gaps" = 0 ]
