#!/usr/bin/env bash
# Interoperability check: start the release binary on a fresh SQLite database, grant one
# authorization, and verify its QR token with pycose using only the published JWK Set.
# A token with one changed byte must be rejected. Needs python3 (venv) and a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pycose 'cbor2<6'
port=$((20000 + RANDOM % 20000))
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=http://127.0.0.1:$port SELO_ADMIN_TOKEN=interop-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=sqlite://$work/selo.db SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn
./target/release/selo serve >"$work/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
today=$(TZ=America/Cuiaba date +%F)
auth=(-H "Authorization: Bearer interop-token" -H "Content-Type: application/json")
driver=$(curl -fs "${auth[@]}" -d '{"name":"Interop","cpf":"52998224725","cnh":{"number":"58316794534","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[{"court":"estadual_1","issued_on":"'"$today"'","clear":true},{"court":"estadual_2","issued_on":"'"$today"'","clear":true},{"court":"federal_1","issued_on":"'"$today"'","clear":true},{"court":"federal_2","issued_on":"'"$today"'","clear":true}]}' "http://127.0.0.1:$port/api/v1/drivers" | sed 's/.*"id":"\([^"]*\)".*/\1/')
vehicle=$(curl -fs "${auth[@]}" -d '{"plate":"BRA2E19","renavam":"13824652268","make":"Chevrolet","model":"Onix","color":"Prata","model_year":2022,"doors":4,"air_conditioning":true,"capacity_including_driver":5,"registration_municipality_ibge":5101803,"owner_type":"locadora_pj","owner_document":"11222333000181"}' "http://127.0.0.1:$port/api/v1/vehicles" | sed 's/.*"id":"\([^"]*\)".*/\1/')
grant=$(curl -fs "${auth[@]}" -d "{\"driver_id\":\"$driver\",\"vehicle_id\":\"$vehicle\",\"fee_paid_on\":\"$today\"}" "http://127.0.0.1:$port/api/v1/app-authorizations")
url=$(echo "$grant" | sed 's/.*"verification_url":"\([^"]*\)".*/\1/')
authorization=$(echo "$grant" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
token=${url##*/v/}
curl -fs "http://127.0.0.1:$port/.well-known/selo-keys.json" >"$work/jwks.json"
echo "pycose verifies the sticker token:"
"$work/venv/bin/python" tests/interop/pycose_verify.py "$work/jwks.json" "$token"
# One changed character in the payload part must not verify.
tampered=$(python3 -c "import sys;t=sys.argv[1];i=len(t)//2;print(t[:i]+('A' if t[i]!='A' else 'B')+t[i+1:])" "$token")
if "$work/venv/bin/python" tests/interop/pycose_verify.py "$work/jwks.json" "$tampered" >/dev/null 2>&1; then
  echo "a tampered token verified in pycose" >&2
  exit 1
fi
echo "pycose rejects a tampered token: ok"

# The audit checkpoint selo signs at start verifies with the same keys.
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/api/v1/audit/checkpoints" | grep -q '"token"' && break
  sleep 0.1
done
checkpoint=$(curl -fs "http://127.0.0.1:$port/api/v1/audit/checkpoints" | sed 's/.*"token":"\([^"]*\)".*/\1/')
echo "pycose verifies the audit checkpoint:"
"$work/venv/bin/python" tests/interop/pycose_verify.py "$work/jwks.json" "$checkpoint" | tee "$work/checkpoint.json"
grep -q '"t": "selo-audit-checkpoint"' "$work/checkpoint.json"

# Revoke the authorization; the signed status list (raw COSE) lists its sticker as
# revoked, and pycose verifies it with the published keys.
curl -fs "${auth[@]}" -d '{"reason":"Cassação por fraude"}' \
  "http://127.0.0.1:$port/api/v1/app-authorizations/$authorization/revocation" >/dev/null
curl -fs -o "$work/status-list.cose" "http://127.0.0.1:$port/api/v1/status-list"
echo "pycose verifies the signed status list:"
"$work/venv/bin/python" tests/interop/pycose_verify.py "$work/jwks.json" "@$work/status-list.cose" | tee "$work/status-list.json"
sticker_id=$("$work/venv/bin/python" tests/interop/pycose_verify.py "$work/jwks.json" "$token" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["d"])')
python3 - "$work/status-list.json" "$sticker_id" <<'PY'
import json, sys
payload = json.load(open(sys.argv[1]))
assert payload["t"] == "selo-status-list" and payload["exp"] - payload["iat"] == 86400, payload
listed = {d["d"]: d["s"] for d in payload["docs"]}
assert listed.get(sys.argv[2]) == "revoked", (sys.argv[2], listed)
print("the revoked sticker is listed as revoked: ok")
PY
# One changed byte in the list must not verify.
python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//2]^=1; open(sys.argv[1]+'.x','wb').write(b)" "$work/status-list.cose"
if "$work/venv/bin/python" tests/interop/pycose_verify.py "$work/jwks.json" "@$work/status-list.cose.x" >/dev/null 2>&1; then
  echo "a tampered status list verified in pycose" >&2
  exit 1
fi
echo "pycose rejects a tampered status list: ok"
