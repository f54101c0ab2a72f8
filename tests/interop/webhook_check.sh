#!/usr/bin/env bash
# Webhooks against a third-party verifier: start the release binary on a fresh SQLite
# database and a platform's endpoint (tests/interop/webhook_receiver.py, which checks
# signatures with PyPI's http-message-signatures and the published JWK Set); the platform
# sets its webhook with its own credential and registers a driver; the driver is suspended;
# the endpoint must accept the signed event, and refuse it replayed, with a changed body, and
# with a changed body whose digest was recomputed. Needs python3 (venv) and a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "http-message-signatures>=3,<4" requests cryptography
port=$((20000 + RANDOM % 20000))
hook=$((port + 1))
base="http://127.0.0.1:$port"
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_ADMIN_TOKEN=interop-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=sqlite://$work/selo.db SELO_OUVIDORIA_PHONE="(66) 3401-9999" \
  SELO_WEBHOOK_POLL_SECS=1 RUST_LOG=warn
./target/release/selo serve >"$work/log" 2>&1 &
pid=$!
"$work/venv/bin/python" tests/interop/webhook_receiver.py "$hook" "$base/.well-known/selo-keys.json" "$work" &
receiver=$!
trap 'kill $receiver 2>/dev/null; kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "$base/health" >/dev/null && break; sleep 0.1; done
today=$(TZ=America/Cuiaba date +%F)
auth=(-H "Authorization: Bearer interop-token" -H "Content-Type: application/json")
json() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
driver=$(curl -fs "${auth[@]}" -d '{"name":"Interop","cpf":"52998224725","cnh":{"number":"58316794534","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[{"court":"estadual_1","issued_on":"'"$today"'","clear":true},{"court":"estadual_2","issued_on":"'"$today"'","clear":true},{"court":"federal_1","issued_on":"'"$today"'","clear":true},{"court":"federal_2","issued_on":"'"$today"'","clear":true}]}' "$base/api/v1/drivers" | json id)
vehicle=$(curl -fs "${auth[@]}" -d '{"plate":"BRA2E19","renavam":"13824652268","make":"Chevrolet","model":"Onix","color":"Prata","model_year":2022,"doors":4,"air_conditioning":true,"capacity_including_driver":5,"registration_municipality_ibge":5101803,"owner_type":"locadora_pj","owner_document":"11222333000181"}' "$base/api/v1/vehicles" | json id)
grant=$(curl -fs "${auth[@]}" -d "{\"driver_id\":\"$driver\",\"vehicle_id\":\"$vehicle\",\"fee_paid_on\":\"$today\"}" "$base/api/v1/app-authorizations")
authorization=$(echo "$grant" | json id)
number=$(echo "$grant" | json number)
platform=$(curl -fs "${auth[@]}" -d '{"name":"Plataforma Exemplo Ltda.","cnpj":"11.222.333/0001-81","fee_paid_on":"'"$today"'","app_insurance":{"policy":"APP-123","insurer":"Seguradora Exemplo S.A.","cover_centavos":5000000,"valid_until":"2030-06-30"}}' "$base/api/v1/platforms" | json id)
credential=$(curl -fs "${auth[@]}" -d '{"label":"Eventos"}' "$base/api/v1/platforms/$platform/credentials" | json access_token)
plat=(-H "Authorization: Bearer $credential" -H "Content-Type: application/json")
curl -fs "${plat[@]}" -X PUT -d "{\"url\":\"http://127.0.0.1:$hook/selo/eventos\"}" "$base/api/v1/platform/webhook" >/dev/null
curl -fs "${plat[@]}" -d "{\"authorization_number\":\"$number\",\"cpf\":\"52998224725\"}" "$base/api/v1/platform/drivers" >/dev/null
sleep 2
curl -fs "${auth[@]}" -d "{\"kind\":\"suspension\",\"effective_from\":\"$today\",\"days\":30,\"reason\":\"Reincidência\",\"legal_basis\":\"art. 26, §1º\"}" \
  "$base/api/v1/app-authorizations/$authorization/sanctions" >/dev/null
for _ in $(seq 100); do grep -q '"accepted"' "$work/outcomes.jsonl" 2>/dev/null && break; sleep 0.2; done
echo "the endpoint's verdicts so far:"
cat "$work/outcomes.jsonl"
grep -q '"outcome": "accepted", "type": "authorization.suspended"' "$work/outcomes.jsonl"
echo "http-message-signatures verifies the suspension event with the published key: ok"

# Replayed as received, with another body, and with another body under its own digest.
"$work/venv/bin/python" - "$work/last.json" "$hook" <<'PY'
import base64, hashlib, json, sys
import requests
last = json.load(open(sys.argv[1]))
url = f"http://127.0.0.1:{sys.argv[2]}{last['path']}"
headers = {k.lower(): v for k, v in last["headers"].items() if k.lower() not in ("content-length", "host")}
replay = requests.post(url, data=last["body"].encode(), headers=headers)
assert replay.status_code == 409, ("replay", replay.status_code)
forged = last["body"].replace('"suspended"', '"active"').encode()
assert forged != last["body"].encode()
changed = requests.post(url, data=forged, headers=headers)
assert changed.status_code == 400, ("changed body", changed.status_code)
headers["content-digest"] = "sha-256=:" + base64.b64encode(hashlib.sha256(forged).digest()).decode() + ":"
redigested = requests.post(url, data=forged, headers=headers)
assert redigested.status_code == 401, ("changed body, new digest", redigested.status_code)
print("the endpoint refuses the delivery replayed (409), altered (400) and altered with a new digest (401): ok")
PY
# The delivery log the back office shows.
curl -fs "${plat[@]}" "$base/api/v1/platform/webhook" | python3 -c '
import json, sys
w = json.load(sys.stdin)
d = w["deliveries"][0]
assert d["event_type"] == "authorization.suspended" and d["status"] == "delivered", w
print("the delivery log shows it delivered: ok")'
