#!/usr/bin/env bash
# Upload-abuse probe, on loopback only, bounded in time.
# Starts the release binary on a fresh SQLite database, grants one authorization, then opens
# N connections to POST /api/v1/verify/pdf that each declare a 5 MB body, send part of it
# and stall (the slow-loris of the issue), while a client verifies a token every 100 ms.
# Reports the process's peak RSS, the answers the uploaders got, and the token latencies.
# Exits non-zero if RSS reaches 300 MB or a token verification takes 50 ms or more.
#
#   usage: benches/upload_abuse.sh [connections=200] [seconds=20]
#   SELO_BIN=path/to/selo benches/upload_abuse.sh …   measures another build
set -euo pipefail
cd "$(dirname "$0")/.."
conns=${1:-200}
secs=${2:-20}
bin=${SELO_BIN:-./target/release/selo}
[ -n "${SELO_BIN:-}" ] || cargo build --release --quiet
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
base="http://127.0.0.1:$port"
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_ADMIN_TOKEN=abuse-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=sqlite://$work/selo.db SELO_OUVIDORIA_PHONE="(66) 3401-9999" \
  RUST_LOG=warn SELO_RATE_UPLOAD_PER_MINUTE=0 SELO_RATE_VERIFY_PER_MINUTE=0
"$bin" serve >"$work/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "$base/health" >/dev/null && break; sleep 0.1; done
auth=(-H "Authorization: Bearer abuse-token" -H "Content-Type: application/json")
today=$(TZ=America/Cuiaba date +%F)
id_of() { sed 's/.*"id":"\([^"]*\)".*/\1/'; }
driver=$(curl -fs "${auth[@]}" -d '{"name":"Abuse","cpf":"52998224725","cnh":{"number":"58316794534","category":"B","first_license_date":"2015-01-01","ear":true,"expires_on":"2030-01-01"},"criminal_certificates":[{"court":"estadual_1","issued_on":"'"$today"'","clear":true},{"court":"estadual_2","issued_on":"'"$today"'","clear":true},{"court":"federal_1","issued_on":"'"$today"'","clear":true},{"court":"federal_2","issued_on":"'"$today"'","clear":true}]}' "$base/api/v1/drivers" | id_of)
vehicle=$(curl -fs "${auth[@]}" -d '{"plate":"BRA2E19","renavam":"13824652268","make":"Chevrolet","model":"Onix","color":"Prata","model_year":2022,"doors":4,"air_conditioning":true,"capacity_including_driver":5,"registration_municipality_ibge":5101803,"owner_type":"locadora_pj","owner_document":"11222333000181"}' "$base/api/v1/vehicles" | id_of)
url=$(curl -fs "${auth[@]}" -d "{\"driver_id\":\"$driver\",\"vehicle_id\":\"$vehicle\",\"fee_paid_on\":\"$today\"}" "$base/api/v1/app-authorizations" | sed 's/.*"verification_url":"\([^"]*\)".*/\1/')
token=${url##*/v/}

python3 - "$port" "$pid" "$conns" "$secs" "$token" <<'PY'
import asyncio, sys, time
port, pid, conns, secs, token = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
answers, peak, lat = {}, 0, []

def rss_kb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

async def uploader(i):
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(b"POST /api/v1/verify/pdf HTTP/1.1\r\nHost: selo\r\nContent-Type: application/pdf\r\n"
                b"Content-Length: 5000000\r\n\r\n")
        chunk = b"%PDF-1.7\n" + b"0" * (64 * 1024)
        end = time.monotonic() + secs
        sent = 0
        # Send about 4.9 MB as fast as the server takes it, then stall.
        while sent < 4_900_000 and time.monotonic() < end:
            w.write(chunk); sent += len(chunk)
            try:
                await asyncio.wait_for(w.drain(), timeout=max(0.1, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if r.at_eof() or len(r._buffer):
                break
        line = await asyncio.wait_for(r.readline(), timeout=max(0.1, end - time.monotonic()))
        key = line.split(b" ")[1].decode() if line.startswith(b"HTTP/") else "closed"
    except (asyncio.TimeoutError, ConnectionError, OSError):
        key = "stalled until the end" if 'line' not in dir() else "closed"
    answers[key] = answers.get(key, 0) + 1

async def verifier():
    end = time.monotonic() + secs
    while time.monotonic() < end:
        t = time.monotonic()
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(f"GET /api/v1/verify/{token} HTTP/1.1\r\nHost: selo\r\nConnection: close\r\n\r\n".encode())
        await w.drain()
        status = await r.readline()
        await r.read()
        w.close()
        lat.append((time.monotonic() - t) * 1000)
        await asyncio.sleep(0.1)

async def sampler():
    global peak
    end = time.monotonic() + secs + 1
    while time.monotonic() < end:
        peak = max(peak, rss_kb())
        await asyncio.sleep(0.05)

async def main():
    await asyncio.gather(sampler(), verifier(), *(uploader(i) for i in range(conns)))

asyncio.run(main())
lat.sort()
p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
print(f"upload abuse: {conns} connections declaring 5 MB, {secs:.0f} s")
print(f"  peak RSS:               {peak / 1024:.0f} MB")
print(f"  uploaders' answers:     {dict(sorted(answers.items()))}")
print(f"  token verifications:    {len(lat)}, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {lat[-1]:.1f} ms")
ok = peak < 300 * 1024 and lat[-1] < 50
sys.exit(0 if ok else 1)
PY
