#!/usr/bin/env bash
# Applicants' sign-in against a third-party OpenID Connect provider: npm's oidc-provider
# (tests/interop/oidc/provider.mjs, configured like gov.br's Login Único) and the release
# binary on a fresh SQLite database. A prata citizen signs in through the whole redirect
# chain and reaches the applicant's home; the same answer replayed is refused; a bronze
# citizen is refused with the level page and no session. Needs node and npm, and a release
# build.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$(mktemp -d)
cp tests/interop/oidc/provider.mjs "$work/"
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "oidc-provider@^9" >/dev/null)
port=$((20000 + RANDOM % 20000))
op=$((port + 1))
base="http://127.0.0.1:$port"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# provider LEVELS: (re)starts the provider with a citizen of those levels.
provider() {
  if [ ${#pids[@]} -gt 1 ]; then kill "${pids[1]}" 2>/dev/null || true; wait "${pids[1]}" 2>/dev/null || true; fi
  (cd "$work" && exec node provider.mjs "$op" "$base/servicos/entrar/oidc/retorno" 52998224725 cidada@exemplo.com.br "$1") >"$work/op.log" 2>&1 &
  pids[1]=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$op/.well-known/openid-configuration" >/dev/null && return; sleep 0.1; done
  cat "$work/op.log"; echo "the provider did not start" >&2; exit 1
}

export SELO_LISTEN=127.0.0.1:$port SELO_PUBLIC_URL=$base SELO_KEYS_DIR=$work/keys \
  DATABASE_URL=sqlite://$work/selo.db SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn \
  SELO_OIDC_ISSUER=http://127.0.0.1:$op SELO_OIDC_CLIENT_ID=selo-interop \
  SELO_OIDC_CLIENT_SECRET=segredo-interop SELO_OIDC_LEVEL_CLAIM=nivel
"$root/target/release/selo" serve >"$work/selo.log" 2>&1 &
pids[0]=$!
provider "1,2"
for _ in $(seq 100); do curl -fs "$base/health" >/dev/null && break; sleep 0.1; done

# sign_in JAR: follows "Entrar com gov.br" through the provider back to selo; prints the
# status and the address of the last answer.
sign_in() {
  curl -s -L --max-redirs 20 -c "$1" -b "$1" -o "$1.page" -w '%{http_code} %{url_effective}' "$base/servicos/entrar/oidc"
}

out=$(sign_in "$work/prata"); status=${out%% *}; last=${out#* }
grep -q "Você entrou com sua conta gov.br" "$work/prata.page" || { cat "$work/prata.page" "$work/selo.log"; exit 1; }
[ "$status" = 200 ]
home=$(curl -s -b "$work/prata" "$base/servicos/inicio")
echo "$home" | grep -q "cidada@exemplo.com.br" || { echo "$home"; exit 1; }
echo "oidc-provider: a prata citizen signs in through the authorization code flow with PKCE and reaches the home page: ok"
replayed=$(curl -s -o /dev/null -w '%{http_code}' -b "$work/prata" "$last")
[ "$replayed" = 400 ] || { echo "replayed answer: $replayed" >&2; exit 1; }
echo "oidc-provider: the same answer replayed is refused (400): ok"

provider "1"
out=$(sign_in "$work/bronze"); status=${out%% *}
[ "$status" = 403 ] || { cat "$work/bronze.page"; exit 1; }
grep -q "é de nível bronze" "$work/bronze.page"
code=$(curl -s -o /dev/null -w '%{http_code}' -b "$work/bronze" "$base/servicos/inicio")
[ "$code" = 303 ]
echo "oidc-provider: a bronze citizen is refused with the level page and no session: ok"
