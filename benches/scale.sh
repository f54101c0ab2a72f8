#!/usr/bin/env bash
# Scale probe, on loopback only, bounded by its sizes: grows one register of ride-hailing
# documents to each size given (documents, e.g. 10000 100000 1000000) and prints, at each, in
# one run: the database's size (and without the PDF bytes) and the process's RSS; the signed
# status list's time and size when judged in full, then after one act (judged incrementally
# from the change log) and the documents each judged; with wrk, the verification of one token
# and of every token in rotation as a share of the JWK Set's req/s, with p50/p99, alone and
# while a writer commits about 10 acts a second; and the back office's search, a register
# list and the worklist, p50/p99. The first grants go through the API (issuance per second,
# and the files the rest reuse); the rest are written by the bulk seeder (benches/scale_seed.rs:
# the store's own commits, every document its own token; one grant in ten revoked, one in
# twenty suspended, one in ten expired, one in twenty with its car replaced). Needs wrk and
# python3 (benches/scale_seed.py generates valid identifiers).
#   usage: benches/scale.sh [documents…=10000]      (each size larger than the one before)
#   CLIENTS=4 SECS=10 API_GRANTS=200 benches/scale.sh …
#   SELO_BIN=path/to/selo SELO_SEEDER=path/to/scale_seed benches/scale.sh …   another build
#   DATABASE_URL=postgres://…/fresh_db benches/scale.sh …   runs it on PostgreSQL (needs psql)
#   SCALE_KEEP=1 benches/scale.sh …   keeps the register, keys and tokens (the folder is printed)
#   SCALE_REUSE=folder benches/scale.sh …   measures (and grows) a register kept before
# With eatmydata installed, the bulk seeder's commits on SQLite do not wait for the disk (what
# is measured after does).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 10000
clients=${CLIENTS:-4}
secs=${SECS:-10}
api_grants=${API_GRANTS:-200}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
bin=${SELO_BIN:-./target/release/selo}
[ -n "${SELO_BIN:-}" ] || cargo build --release --quiet
seeder=${SELO_SEEDER:-}
[ -n "$seeder" ] || seeder=$(cargo build --release --quiet --bench scale_seed --message-format=json |
  python3 -c 'import json, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "scale_seed":
        print(m["executable"])')
work=${SCALE_REUSE:-$(mktemp -d)}
[ -z "${SCALE_REUSE:-}" ] || SCALE_KEEP=1
port=$((20000 + RANDOM % 20000))
base="http://127.0.0.1:$port"
db=${DATABASE_URL:-sqlite://$work/selo.db}
export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_ADMIN_TOKEN=scale-token \
  SELO_KEYS_DIR=$work/keys DATABASE_URL=$db SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn \
  SELO_RATE_VERIFY_PER_MINUTE=0 SELO_METRICS_TOKEN=scale-metrics
pid=
start() {
  "$bin" serve >>"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 300); do curl -fs "$base/health" >/dev/null && return; sleep 0.1; done
  echo "the service did not start" >&2; tail "$work/log" >&2; exit 1
}
stop() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; }
if [ -n "${SCALE_KEEP:-}" ]; then
  trap 'stop; echo "register kept in $work" >&2' EXIT
else
  trap 'stop; rm -rf "$work"' EXIT
fi
start
today=$(TZ=America/Cuiaba date +%F)
backend=sqlite
case "$db" in postgres*) backend=postgres ;; esac

if [ -s "$work/tokens" ]; then
  # A register kept before: its grants (42 documents for 20 grants when not recorded).
  api_rate=
  grants=$(cat "$work/grants" 2>/dev/null || echo $(($(wc -l <"$work/tokens") * 20 / 42)))
else
  t0=$(date +%s.%N)
  TOKENS_OUT=$work/tokens IDS_OUT=$work/ids python3 benches/scale_seed.py "$base" scale-token "$api_grants" "$clients" "$today"
  t1=$(date +%s.%N)
  api_rate=$(awk -v a="$t0" -v b="$t1" -v n="$api_grants" 'BEGIN {printf "%.1f", n / (b - a)}')
  grants=$api_grants
  echo "$grants" >"$work/grants"
fi
template=$(head -1 "$work/ids")
# Every token in turn, each of wrk's two threads from its own half of the list. The tokens
# are one string and their places an FFI array, which Lua's collector does not walk: a table
# of a million strings made each collection stall its thread for tens of milliseconds, which
# wrk counted as the service's latency (p99 8 ms with 10⁵ tokens, 46–80 ms for the same
# requests with 10⁶ strings held).
cat >"$work/rotate.lua" <<LUA
local ffi = require("ffi")
local f = assert(io.open("$work/tokens"))
local all = f:read("*a")
f:close()
-- Found by position, making no string a token long (nor garbage for the collector).
local function lines(each)
  local n, at = 0, 1
  while true do
    local stop = all:find("\n", at, true)
    if not stop then return n end
    if stop > at then each(n, at, stop - 1); n = n + 1 end
    at = stop + 1
  end
end
local n = lines(function() end)
local from, to = ffi.new("int32_t[?]", n), ffi.new("int32_t[?]", n)
lines(function(k, a, b) from[k], to[k] = a, b end)
local threads = 0
function setup(thread) thread:set("half", threads); threads = threads + 1 end
local i = 0
function init(args) i = math.floor(n * (half or 0) / 2) end
request = function()
  i = (i + 1) % n
  return wrk.format("GET", "/api/v1/verify/" .. all:sub(from[i], to[i]))
end
LUA
run() { # name path [script]
  wrk -t2 -c64 -d"${secs}s" --latency ${3:+-s "$3"} "$base$2" >"$work/$1"
}
rps() { awk '/^Requests\/sec/ {print $2}' "$work/$1"; }
pct_ms() { awk -v q="$2" '$1 == q {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}' "$work/$1"; }
# A writer committing about 10 acts a second (a one-day suspension of a grant in force each,
# which touches that driver's documents only) for as long as `$1` runs.
writer() {
  local i=0 ids pids=()
  mapfile -t ids <"$work/ids"
  while kill -0 "$1" 2>/dev/null; do
    i=$(( (i + 1) % ${#ids[@]} ))
    [ $((i % 10)) -eq 1 ] && continue
    curl -fs -o /dev/null -H "Authorization: Bearer scale-token" -H "Content-Type: application/json" \
      -d '{"kind":"suspension","effective_from":"'"$today"'","days":1,"reason":"Ensaio de escala","legal_basis":"art. 26, §1º"}' \
      "$base/api/v1/app-authorizations/${ids[$i]}/sanctions" &
    pids+=($!)
    echo >>"$work/acts"
    sleep 0.1
  done
  # The acts only (the server is a child of this shell too).
  wait "${pids[@]}" || true
}
busy() { # name path [script]: wrk while the writer commits
  : >"$work/acts"
  run "$@" &
  local w=$!
  writer "$w"
  wait "$w"
  wc -l <"$work/acts" >"$work/$1.acts"
}
# The back office: an official signs in (the form, its CSRF field, the session cookie) and
# times, 50 requests each in sequence, the search for a plate, a CPF, part of a name and an
# authorization's number, the first and the tenth page of the authorizations' list, and the
# worklist. The identifiers are those the API gave its seventh grant.
password="senha do ensaio de escala"
"$bin" officials add ensaio --name "Servidora de ensaio" --role admin <<<"$password" >/dev/null 2>&1 ||
  [ -n "${SCALE_REUSE:-}" ]
jar=$work/jar
sign_in() {
  curl -fs -c "$jar" -o "$work/login.html" "$base/painel/entrar"
  local csrf
  csrf=$(grep -o 'name="_csrf" value="[^"]*"' "$work/login.html" | sed 's/.*value="//; s/"$//')
  curl -fs -b "$jar" -c "$jar" -o /dev/null --data-urlencode "_csrf=$csrf" --data-urlencode "volta=/painel" \
    --data-urlencode "login=ensaio" --data-urlencode "password=$password" "$base/painel/entrar"
}
read -r s_plate s_cpf < <(python3 -c 'import sys; sys.path.insert(0, "benches"); import scale_seed as s; print(s.plate(7), s.cpf(7))')
s_number=$(curl -fs -H "Authorization: Bearer scale-token" "$base/api/v1/app-authorizations/$(sed -n 8p "$work/ids")" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["number"])')
office() { # path [form] → "p50 p99 first" in ms over 50 requests (GET, or POST of the form;
  # each answer must be a page, not the sign-in)
  local f=$work/office
  for _ in $(seq 50); do
    curl -s -b "$jar" -o /dev/null -w '%{http_code} %{time_total}\n' ${2:+--data "$2"} "$base$1"
  done >"$f"
  if awk '$1 != 200 {bad = 1} END {exit !bad}' "$f"; then echo "refused refused refused"; return; fi
  local first
  first=$(awk 'NR == 1 {printf "%.2f", $2 * 1000}' "$f")
  awk '{print $2 * 1000}' "$f" | sort -n | awk -v first="$first" '{v[NR] = $1} END {printf "%.2f %.2f %s\n", v[int((NR + 1) * 0.5)], v[int(NR * 0.99)], first}'
}
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
metric() { curl -fs -H "Authorization: Bearer scale-metrics" "$base/metrics" | awk -v m="$1" 'index($0, m " ") == 1 {print $2}'; }
timed_list() { # → seconds bytes, asking again while the list is still being built (a request
  # that reaches its deadline leaves the build running)
  local t0 bytes
  t0=$(date +%s.%N)
  until bytes=$(curl -fs -o "$work/list" -w '%{size_download}' "$base/api/v1/status-list"); do sleep 1; done
  echo "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}') $bytes"
}
db_bytes() { # → the database's bytes, those of the PDFs' bytes in it, and those of its free
  # pages (SQLite: pages freed, by the change log's pruning, that the next writes take first)
  if [ "$backend" = sqlite ]; then
    du -cb "$work"/selo.db* | awk 'END {printf "%s ", $1}'
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute("SELECT SUM(LENGTH(pdf)) FROM pdf_contents").fetchone()[0], c.execute("PRAGMA freelist_count").fetchone()[0] * c.execute("PRAGMA page_size").fetchone()[0])' "$work/selo.db"
  else
    psql "$db" -tAc "SELECT pg_database_size(current_database()) || ' ' || pg_total_relation_size('pdf_contents') || ' 0'"
  fi
}

measure() { # documents wanted
  local want=$1 more t0 t1
  more=$(( (want - $(wc -l <"$work/tokens")) * 20 / 42 ))
  t0=$(date +%s.%N)
  if [ "$more" -gt 0 ]; then
    stop
    # On PostgreSQL the bulk commits do not wait for the disk (the measurements after do).
    [ "$backend" = postgres ] && psql "$db" -qc "ALTER DATABASE $(psql "$db" -tAc 'SELECT current_database()') SET synchronous_commit = off"
    local nosync=
    [ "$backend" = sqlite ] && command -v eatmydata >/dev/null && nosync=eatmydata
    TOKENS_OUT=$work/tokens IDS_OUT=$work/ids $nosync "$seeder" "$db" "$work/keys" "$template" "$grants" "$more" "$clients" >"$work/bulk"
    [ "$backend" = postgres ] && psql "$db" -qc "ALTER DATABASE $(psql "$db" -tAc 'SELECT current_database()') RESET synchronous_commit"
    # The statistics a server with autovacuum (on by default) gathers by itself after such a
    # growth; a server with it off (this machine's CI) plans the searches on guesses.
    [ "$backend" = postgres ] && psql "$db" -qc "ANALYZE"
    grants=$((grants + more))
    echo "$grants" >"$work/grants"
    start
  fi
  t1=$(date +%s.%N)
  local docs size pdf_bytes free_bytes
  docs=$(wc -l <"$work/tokens")
  local judged0 judged1 judged2 full_s full_b act_s act_b first
  judged0=$(metric selo_status_list_judged_documents_total); judged0=${judged0:-0}
  read -r full_s full_b < <(timed_list)
  judged1=$(metric selo_status_list_judged_documents_total)
  # One act: a revocation of a grant in force (its driver's two documents).
  curl -fs -o /dev/null -H "Authorization: Bearer scale-token" -H "Content-Type: application/json" \
    -d '{"reason":"Cassação (ensaio de escala)"}' "$base/api/v1/app-authorizations/$(tail -1 "$work/ids")/revocation"
  sed -i '$d' "$work/ids"
  read -r act_s act_b < <(timed_list)
  judged2=$(metric selo_status_list_judged_documents_total)
  # The size once the list has pruned the change log it read.
  read -r size pdf_bytes free_bytes < <(db_bytes)
  # The single scan measured below is of a document in force (the fourth grant's).
  first=$(sed -n 7p "$work/tokens")
  run jwks /.well-known/selo-keys.json
  run one "/api/v1/verify/$first"
  run rotation "/api/v1/verify/$first" "$work/rotate.lua"
  busy one_busy "/api/v1/verify/$first"
  busy rotation_busy "/api/v1/verify/$first" "$work/rotate.lua"
  sign_in
  # The search is the start page's form, with the session's CSRF field.
  local csrf
  csrf=$(curl -s -b "$jar" "$base/painel" | grep -o 'name="_csrf" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"$//')
  search() { office /painel "_csrf=$(enc "$csrf")&q=$(enc "$1")"; }
  local q_plate50 q_plate99 q_cpf50 q_cpf99 q_name50 q_name99 q_num50 q_num99 l1_50 l1_99 l10_50 l10_99 w50 w99 wfirst
  read -r q_plate50 q_plate99 _ < <(search "$s_plate")
  read -r q_cpf50 q_cpf99 _ < <(search "$s_cpf")
  read -r q_name50 q_name99 _ < <(search "Condutor 7")
  read -r q_num50 q_num99 _ < <(search "$s_number")
  read -r l1_50 l1_99 _ < <(office "/painel/lista/authorization")
  read -r l10_50 l10_99 _ < <(office "/painel/lista/authorization?pagina=10")
  read -r w50 w99 wfirst < <(office "/painel/pendencias")
  local rss_kb hwm_kb
  rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  hwm_kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")

  awk -v b="$backend" -v n="$grants" -v docs="$docs" -v api="$api_grants" -v api_rate="$api_rate" \
    -v bulk="$([ "$more" -gt 0 ] && cat "$work/bulk")" -v grow="$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
    -v size="$size" -v pdf="$pdf_bytes" -v free="$free_bytes" -v rss="$rss_kb" -v hwm="$hwm_kb" \
    -v fs="$full_s" -v fb="$full_b" -v fj="$((judged1 - judged0))" -v as="$act_s" -v ab="$act_b" -v aj="$((judged2 - judged1))" \
    -v j="$(rps jwks)" -v o="$(rps one)" -v o50="$(pct_ms one 50%)" -v o99="$(pct_ms one 99%)" \
    -v r="$(rps rotation)" -v r50="$(pct_ms rotation 50%)" -v r99="$(pct_ms rotation 99%)" \
    -v ob="$(rps one_busy)" -v ob50="$(pct_ms one_busy 50%)" -v ob99="$(pct_ms one_busy 99%)" -v oa="$(cat "$work/one_busy.acts")" \
    -v rb="$(rps rotation_busy)" -v rb50="$(pct_ms rotation_busy 50%)" -v rb99="$(pct_ms rotation_busy 99%)" -v ra="$(cat "$work/rotation_busy.acts")" -v secs="$secs" 'BEGIN {
    printf "%s, %d grants, %d documents\n", b, n, docs
    if (api_rate == "") print "  issuance through the API: not measured (a register kept before)"
    else printf "  issuance through the API: %d grants, %s grants/s (two signed PDFs each)\n", api, api_rate
    if (bulk != "") printf "  grown in %.0f s (%s)\n", grow, bulk
    printf "  database %.1f MB; without the PDF bytes %.1f MB (%.0f bytes a document); RSS %.0f MB (peak %.0f MB)\n", size / 1e6, (size - pdf) / 1e6, (size - pdf) / docs, rss / 1024, hwm / 1024
    if (free > 0) printf "    of which free pages %.1f MB: in use %.0f bytes a document\n", free / 1e6, (size - pdf - free) / docs
    printf "  status list, judged in full: %.3f s, %d bytes, %d documents judged\n", fs, fb, fj
    printf "  status list after one act:   %.3f s, %d bytes, %d documents judged\n", as, ab, aj
    printf "  JWK Set %.0f req/s\n", j
    printf "  verify one token:            %.0f req/s = %.1f %%, p50 %.2f ms, p99 %.2f ms\n", o, 100 * o / j, o50, o99
    printf "  verify %d tokens in rotation: %.0f req/s = %.1f %%, p50 %.2f ms, p99 %.2f ms\n", docs, r, 100 * r / j, r50, r99
    printf "  while a writer commits (%.1f acts/s):\n", (oa + ra) / (2 * secs)
    printf "    verify one token:            %.0f req/s = %.1f %%, p50 %.2f ms, p99 %.2f ms\n", ob, 100 * ob / j, ob50, ob99
    printf "    verify %d tokens in rotation: %.0f req/s = %.1f %%, p50 %.2f ms, p99 %.2f ms\n", docs, rb, 100 * rb / j, rb50, rb99
  }'
  printf '  back office, p50 / p99 (ms): search by plate %s / %s, CPF %s / %s, name %s / %s, number %s / %s\n' \
    "$q_plate50" "$q_plate99" "$q_cpf50" "$q_cpf99" "$q_name50" "$q_name99" "$q_num50" "$q_num99"
  printf '    authorizations list, page 1 %s / %s, page 10 %s / %s; worklist %s / %s (the first of the day %s)\n' \
    "$l1_50" "$l1_99" "$l10_50" "$l10_99" "$w50" "$w99" "$wfirst"
}

for size in "$@"; do measure "$size"; done
