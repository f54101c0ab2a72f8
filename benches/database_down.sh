#!/usr/bin/env bash
# Database-down probe, on loopback only, bounded in time (≈ 40 s). PostgreSQL is
# reached through a small TCP proxy that this script freezes (bytes held, connections open: a
# server that stopped answering, the worst case, not one that refuses) and thaws. It measures:
#   /health, the verification of a sticker scanned before (answered with its last known
#   status) and of one never scanned, and an issuance, all while frozen; the recovery after
#   the thaw without a restart; and a start while the database does not answer.
# Exits non-zero unless /health answers within 1 s, verification within 300 ms, issuance
# with 503, and selo recovers by itself.
#   usage: benches/database_down.sh            (PostgreSQL at $PG_URL, default
#          postgres://postgres@127.0.0.1:5432; a fresh database is created and dropped; needs psql)
#   SELO_BIN=path/to/selo benches/database_down.sh …  measures another build
set -euo pipefail
cd "$(dirname "$0")/.."
pg=${PG_URL:-postgres://postgres@127.0.0.1:5432}
bin=${SELO_BIN:-./target/release/selo}
[ -n "${SELO_BIN:-}" ] || cargo build --release --quiet
work=$(mktemp -d)
db=selo_down_$$
psql "$pg/postgres" -qc "CREATE DATABASE $db" >/dev/null
port=$((20000 + RANDOM % 20000))
proxy_port=$((port + 1))
base="http://127.0.0.1:$port"
rest=${pg#postgres://}
pguser=${rest%@*}
pghost=${rest#*@}
pghost=${pghost%%/*}
# The freezable proxy: SIGUSR1 freezes, SIGUSR2 thaws.
cat >"$work/proxy.py" <<'PY'
import signal, socket, sys, threading, time
listen_port, target = int(sys.argv[1]), sys.argv[2]
host, port = target.rsplit(":", 1)
frozen = threading.Event()
signal.signal(signal.SIGUSR1, lambda *_: frozen.set())
signal.signal(signal.SIGUSR2, lambda *_: frozen.clear())
def pump(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            while frozen.is_set():
                time.sleep(0.01)
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
srv = socket.create_server(("127.0.0.1", listen_port))
while True:
    c, _ = srv.accept()
    try:
        u = socket.create_connection((host, int(port)))
    except OSError:
        c.close()
        continue
    threading.Thread(target=pump, args=(c, u), daemon=True).start()
    threading.Thread(target=pump, args=(u, c), daemon=True).start()
PY
python3 "$work/proxy.py" "$proxy_port" "$pghost" &
proxy=$!
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_ADMIN_TOKEN=down-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL="postgres://$pguser@127.0.0.1:$proxy_port/$db" \
  SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=error SELO_RATE_VERIFY_PER_MINUTE=0
pid=
cleanup() {
  kill -USR2 "$proxy" 2>/dev/null || true
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  kill "$proxy" 2>/dev/null || true
  wait 2>/dev/null || true
  psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
sleep 0.3
start() { "$bin" serve >>"$work/log" 2>&1 & pid=$!; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# "status seconds" of a request.
probe() { curl -s -o "$work/body" -m 20 -w '%{http_code} %{time_total}' "$@"; }
# Polls /health until 200 (15 s at most); $t is when the wait began.
wait_healthy() {
  t=$(date +%s%N)
  until curl -fs -m 2 "$base/health" >/dev/null; do
    [ "$(ms_since "$t")" -lt 15000 ] || { echo "no recovery within 15 s"; exit 1; }
    sleep 0.05
  done
}
failed=0
check() { # what limit_seconds "status seconds" expected_status
  local status=${3% *} secs=${3#* }
  local ok=yes
  awk -v s="$secs" -v l="$2" 'BEGIN { exit !(s <= l) }' || ok=no
  [ "$status" = "$4" ] || ok=no
  printf '%-58s %s in %6.0f ms (limit %4.0f ms, expected %s) %s\n' "$1" "$status" \
    "$(awk -v s="$secs" 'BEGIN { print s * 1000 }')" "$(awk -v l="$2" 'BEGIN { print l * 1000 }')" "$4" \
    "$([ $ok = yes ] && echo ok || echo FAIL)"
  [ $ok = yes ] || failed=1
}

start
for _ in $(seq 100); do curl -fs "$base/health" >/dev/null && break; sleep 0.1; done
today=$(TZ=America/Cuiaba date +%F)
auth=(-H "Authorization: Bearer down-token" -H "Content-Type: application/json")
post() { curl -fs "${auth[@]}" -d "$2" "$base$1"; }
id_of() { sed 's/.*"id":"\([^"]*\)".*/\1/'; }
grant() { # cpf cnh plate renavam → the token of the sticker
  local d v
  d=$(post /api/v1/drivers '{"name":"Probe","cpf":"'"$1"'","cnh":{"number":"'"$2"'","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[{"court":"estadual_1","issued_on":"'"$today"'","clear":true},{"court":"estadual_2","issued_on":"'"$today"'","clear":true},{"court":"federal_1","issued_on":"'"$today"'","clear":true},{"court":"federal_2","issued_on":"'"$today"'","clear":true}]}' | id_of)
  v=$(post /api/v1/vehicles '{"plate":"'"$3"'","renavam":"'"$4"'","make":"Chevrolet","model":"Onix","color":"Prata","model_year":2022,"doors":4,"air_conditioning":true,"capacity_including_driver":5,"registration_municipality_ibge":5101803,"owner_type":"locadora_pj","owner_document":"11222333000181"}' | id_of)
  post /api/v1/app-authorizations "{\"driver_id\":\"$d\",\"vehicle_id\":\"$v\",\"fee_paid_on\":\"$today\"}" \
    | sed 's/.*"verification_url":"[^"]*\/v\/\([^"]*\)".*/\1/'
}
seen=$(grant 52998224725 58316794534 BRA2E19 13824652268)
unseen=$(grant 11144477735 65821310502 ABC1234 08543317523)
curl -fs "$base/api/v1/verify/$seen" | grep -q '"verdict":"valid"'
sleep 6 # past the 5 s an answer is served from memory: the next scan asks the database

echo "== PostgreSQL frozen (selo running)"
kill -USR1 "$proxy"
check "GET /health" 1 "$(probe "$base/health")" 503
check "verify a sticker scanned 6 s before (last known status)" 0.3 "$(probe "$base/api/v1/verify/$seen")" 503
grep -q '"last_known":{"verdict":"valid"' "$work/body" || { echo "  no last known status: $(cat "$work/body")"; failed=1; }
sed 's/.*"reason":"\([^"]*\)".*/  reason: \1/' "$work/body"; echo
check "verify a sticker never scanned (signature only)" 0.3 "$(probe "$base/api/v1/verify/$unseen")" 503
driver='{"name":"Probe","cpf":"12345678909","cnh":{"number":"22571182500","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[]}'
check "POST /api/v1/drivers (issuance)" 3 "$(probe "${auth[@]}" -d "$driver" "$base/api/v1/drivers")" 503

echo "== PostgreSQL answers again (no restart)"
kill -USR2 "$proxy"
wait_healthy
echo "recovered: /health 200 after $(ms_since "$t") ms"
check "verify the sticker again" 0.3 "$(probe "$base/api/v1/verify/$seen")" 200

echo "== selo started while PostgreSQL does not answer"
kill "$pid"; wait "$pid" 2>/dev/null || true
kill -USR1 "$proxy"
t=$(date +%s%N)
start
until curl -s -m 2 -o /dev/null "$base/health"; do
  [ "$(ms_since "$t")" -lt 15000 ] || { echo "selo did not start within 15 s"; exit 1; }
  sleep 0.05
done
echo "serving after $(ms_since "$t") ms"
check "GET /health while the database does not answer" 1 "$(probe "$base/health")" 503
kill -USR2 "$proxy"
wait_healthy
echo "healthy $(ms_since "$t") ms after the database answered"
check "verify after a start with the database down" 0.3 "$(probe "$base/api/v1/verify/$seen")" 200
exit $failed
