#!/usr/bin/env bash
# The city's own certificate signs the PDFs. OpenSSL builds throw-away chains (root
# → intermediate → A1-like leaf under an ICP-Brasil-like certificate policy) as the CAs
# deliver them: RSA 2048 in OpenSSL 3's default PKCS#12 (PBES2, AES-256, HMAC-SHA-256),
# ECDSA P-256 in the legacy one (PKCS#12 PBE with 3DES, HMAC-SHA-1), and RSA in the oldest
# (RC2-40 certificates, `-legacy`). Each is imported with `selo keys import-pkcs12`, then every
# document kind is signed (`selo samples`) and checked by:
# - poppler's pdfsig, with the root trusted in an NSS database: "Signature is Valid" and
#   "Certificate is Trusted"; and, with one byte changed, not valid;
# - pyHanko with the root as its only trust anchor: INTACT:TRUSTED,UNTOUCHED, naming the
#   AD-RB signature policy with its hash; with one byte changed, rejected.
# Needs openssl, pdfsig, certutil (libnss3-tools), python3 (venv) and a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
selo=$PWD/target/release/selo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pyhanko
cd "$work"
cat > ext.cnf <<'CNF'
[ca]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, nonRepudiation
certificatePolicies = 2.16.76.1.2.1.99
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF
# A root and an intermediate in the current folder (root.key/.pem, int.key/.pem, and cas.pem
# with both), named ROOT_CN and INT_CN, the intermediate with ext.cnf's [ca] extensions.
make_cas() { # ROOT_CN INT_CN
  openssl req -x509 -newkey rsa:2048 -nodes -keyout root.key -out root.pem -days 3650 \
    -subj "/C=BR/O=ICP-Brasil TESTE/CN=$1" \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout int.key -out int.csr \
    -subj "/C=BR/O=ICP-Brasil TESTE/CN=$2" 2>/dev/null
  openssl x509 -req -in int.csr -CA root.pem -CAkey root.key -out int.pem -days 3650 -extfile ext.cnf -extensions ca 2>/dev/null
  cat int.pem root.pem > cas.pem
}
make_cas "Raiz de TESTE" "AC Intermediaria de TESTE"
leaf() { # NAME KEYGEN-ARGS…
  local name=$1; shift
  openssl req -new "$@" -nodes -keyout "$name.key" -out "$name.csr" \
    -subj "/C=BR/O=ICP-Brasil TESTE/CN=PREFEITURA MUNICIPAL DE TESTE $name:11222333000181" 2>/dev/null
  openssl x509 -req -in "$name.csr" -CA int.pem -CAkey int.key -out "$name.pem" -days 30 -extfile ext.cnf -extensions leaf 2>/dev/null
}
leaf rsa -newkey rsa:2048
leaf ec -newkey ec -pkeyopt ec_paramgen_curve:P-256
openssl pkcs12 -export -inkey rsa.key -in rsa.pem -certfile cas.pem -passout pass:segredo -out rsa.p12
openssl pkcs12 -export -inkey ec.key -in ec.pem -certfile cas.pem -passout pass:segredo \
  -keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1 -out ec.p12
files=(rsa.p12 ec.p12)
if openssl pkcs12 -export -legacy -inkey rsa.key -in rsa.pem -certfile cas.pem -passout pass:segredo -out legacy.p12 2>/dev/null; then
  files+=(legacy.p12)
fi
mkdir nss
certutil -N -d sql:nss --empty-password
certutil -A -d sql:nss -n raiz-teste -t "CT,C,C" -i root.pem
for p12 in "${files[@]}"; do
  name=${p12%.p12}
  echo "== $p12 ($(openssl pkcs12 -in "$p12" -passin pass:segredo -info -noout -legacy 2>&1 | grep -m1 -o 'PKCS7 Encrypted data: [^,]*'))"
  "$selo" keys generate "keys-$name" >/dev/null
  # A wrong password is refused and writes nothing.
  if echo errada | RUST_BACKTRACE=0 "$selo" keys import-pkcs12 "$p12" "keys-$name" 2>/dev/null; then
    echo "a wrong password was accepted" >&2; exit 1
  fi
  test ! -e "keys-$name/pdf-signer.key"
  echo segredo | "$selo" keys import-pkcs12 "$p12" "keys-$name"
  SELO_KEYS_DIR="keys-$name" RUST_LOG=warn "$selo" samples "out-$name" >/dev/null
  pdfs=("out-$name"/*.pdf)
  test "${#pdfs[@]}" -eq 8
  mkdir "tampered-$name"
  for f in "${pdfs[@]}"; do
    report=$(pdfsig -nssdir sql:nss "$f")
    grep -q "Signature Validation: Signature is Valid." <<<"$report" || { echo "$report"; exit 1; }
    grep -q "Certificate Validation: Certificate is Trusted." <<<"$report" || { echo "$report"; exit 1; }
    echo "pdfsig: $f: valid, trusted ($(grep -o 'Signing Hash Algorithm: .*' <<<"$report"))"
    python3 - "$f" "tampered-$name/$(basename "$f")" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 3] ^= 0x01  # inside the first signed range, before the signature
open(sys.argv[2], "wb").write(data)
PY
    if pdfsig -nssdir sql:nss "tampered-$name/$(basename "$f")" | grep -q "Signature is Valid."; then
      echo "pdfsig accepted a changed copy of $f" >&2; exit 1
    fi
  done
  "$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_validate.py" --policy 2.16.76.1.7.1.11.1.1 root.pem "${pdfs[@]}"
  "$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_validate.py" --expect-invalid root.pem "tampered-$name"/*.pdf
done
echo "every document kind, signed with each imported certificate, validates in pdfsig and pyHanko"

# Signature timestamps: OpenSSL's time-stamping authority (`openssl ts -reply`, its own root,
# a certificate whose only use is time-stamping) behind a small HTTP wrapper answers selo's
# RFC 3161 requests; the RSA signer's samples then name AD-RT v1.1 and carry the token, which
# pyHanko validates with the TSA's root trusted beside the signer's.
mkdir tsa
source "$OLDPWD/tests/interop/openssl_tsa.sh" "$PWD/tsa"
trap 'kill $TSA_PID 2>/dev/null; rm -rf "$work"' EXIT
SELO_KEYS_DIR=keys-rsa SELO_TSA_URL="$TSA_URL" RUST_LOG=warn "$selo" keys policy | tee policy.txt
grep -q "AD-RT v1.1" policy.txt
SELO_KEYS_DIR=keys-rsa SELO_TSA_URL="$TSA_URL" RUST_LOG=warn "$selo" samples out-stamped >/dev/null
stamped=(out-stamped/*.pdf)
test "${#stamped[@]}" -eq 8
test "$(cat tsa/tsaserial)" != 01
"$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_validate.py" --policy 2.16.76.1.7.1.12.1.1 --tsa-root tsa/tsaroot.pem root.pem "${stamped[@]}"
for f in "${stamped[@]}"; do
  report=$(pdfsig -nssdir sql:nss "$f")
  grep -q "Signature Validation: Signature is Valid." <<<"$report" || { echo "$report"; exit 1; }
done
echo "every document kind, timestamped by OpenSSL's TSA, validates in pyHanko (AD-RT, timestamp intact and trusted) and pdfsig"

# Long-term validation data (PAdES B-LT): a chain whose intermediate and leaf name their
# issuers' CRLs, which OpenSSL's `ca -gencrl` makes and Python's http.server serves on
# loopback. selo fetches and checks them when it signs and keeps them with the chain in the
# DSS, after the signature; pyHanko reads that DSS, finds it the only change after the
# signature (EXTENDED_WITH_LTA_UPDATES, acceptable to DocMDP P 2) and still validates the
# signature, AD-RT and its timestamp; pdfsig still reports the signature valid.
mkdir ltv
make_crls() { # in ltv/: each CA's current list, PEM and DER
  for ca in root int; do
    openssl ca -gencrl -config "crl-$ca.cnf" -keyfile "$ca.key" -cert "$ca.pem" -out "$ca.crl.pem" 2>/dev/null
    openssl crl -in "$ca.crl.pem" -outform DER -out "$ca.crl"
  done
}
crl_port=$((20000 + RANDOM % 20000))
crl_url="http://127.0.0.1:$crl_port"
(
  cd ltv
  printf '[ca]\nbasicConstraints = critical, CA:true\nkeyUsage = critical, keyCertSign, cRLSign\ncrlDistributionPoints = URI:%s/root.crl\n[leaf]\nbasicConstraints = critical, CA:false\nkeyUsage = critical, digitalSignature, nonRepudiation\ncertificatePolicies = 2.16.76.1.2.1.99\ncrlDistributionPoints = URI:%s/int.crl\n' "$crl_url" "$crl_url" > ext.cnf
  make_cas "Raiz LCR de TESTE" "AC LCR de TESTE"
  openssl req -newkey rsa:2048 -nodes -keyout leaf.key -out leaf.csr \
    -subj "/C=BR/O=ICP-Brasil TESTE/CN=PREFEITURA MUNICIPAL DE TESTE LCR:11222333000181" 2>/dev/null
  openssl x509 -req -in leaf.csr -CA int.pem -CAkey int.key -out leaf.pem -days 30 -extfile ext.cnf -extensions leaf 2>/dev/null
  for ca in root int; do
    mkdir "db-$ca" && touch "db-$ca/index.txt" && echo 01 > "db-$ca/crlnumber"
    printf '[ca]\ndefault_ca = this\n[this]\ndatabase = db-%s/index.txt\ncrlnumber = db-%s/crlnumber\ndefault_md = sha256\ndefault_crl_days = 7\ncrl_extensions = crl_ext\n[crl_ext]\nauthorityKeyIdentifier = keyid:always\n' "$ca" "$ca" > "crl-$ca.cnf"
  done
  make_crls
  openssl pkcs12 -export -inkey leaf.key -in leaf.pem -certfile cas.pem -passout pass:segredo -out leaf.p12
)
python3 -m http.server "$crl_port" --bind 127.0.0.1 --directory ltv >/dev/null 2>&1 &
crl_pid=$!
trap 'kill $TSA_PID $crl_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$crl_port") 2>/dev/null && break; sleep 0.1; done
"$selo" keys generate keys-ltv >/dev/null
echo segredo | "$selo" keys import-pkcs12 ltv/leaf.p12 keys-ltv >/dev/null
SELO_KEYS_DIR=keys-ltv SELO_TSA_URL="$TSA_URL" RUST_LOG=warn "$selo" samples out-ltv >/dev/null
ltv=(out-ltv/*.pdf)
test "${#ltv[@]}" -eq 8
"$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_validate.py" --policy 2.16.76.1.7.1.12.1.1 --tsa-root tsa/tsaroot.pem --dss ltv/root.pem "${ltv[@]}"
certutil -A -d sql:nss -n raiz-lcr -t "CT,C,C" -i ltv/root.pem
for f in "${ltv[@]}"; do
  report=$(pdfsig -nssdir sql:nss "$f")
  grep -q "Signature Validation: Signature is Valid." <<<"$report" || { echo "$report"; exit 1; }
done
echo "every document kind, with its chain's CRLs in the DSS, validates in pyHanko and pdfsig"

# A certificate that names only an OCSP responder (Authority Information Access, no CRL):
# OpenSSL's responder (`openssl ocsp -index`) answers for the intermediate's certificates,
# selo checks the answer (signed by the issuer, about this certificate, current, good) and
# keeps it in the DSS and the signature's VRI; pyHanko validates with it.
ocsp_port=$((20000 + RANDOM % 20000))
(
  cd ltv
  printf '[ocsp]\nbasicConstraints = critical, CA:false\nkeyUsage = critical, digitalSignature, nonRepudiation\ncertificatePolicies = 2.16.76.1.2.1.99\nauthorityInfoAccess = OCSP;URI:http://127.0.0.1:%s\n' "$ocsp_port" >> ext.cnf
  openssl req -newkey rsa:2048 -nodes -keyout ocsp-leaf.key -out ocsp-leaf.csr \
    -subj "/C=BR/O=ICP-Brasil TESTE/CN=PREFEITURA MUNICIPAL DE TESTE OCSP:11222333000181" 2>/dev/null
  openssl x509 -req -in ocsp-leaf.csr -CA int.pem -CAkey int.key -out ocsp-leaf.pem -days 30 -extfile ext.cnf -extensions ocsp 2>/dev/null
  serial=$(openssl x509 -in ocsp-leaf.pem -noout -serial | cut -d= -f2)
  until=$(date -u -d "$(openssl x509 -in ocsp-leaf.pem -noout -enddate | cut -d= -f2)" +%y%m%d%H%M%SZ)
  printf 'V\t%s\t\t%s\tunknown\t%s\n' "$until" "$serial" "$(openssl x509 -in ocsp-leaf.pem -noout -subject -nameopt compat | cut -d= -f2-)" >> db-int/index.txt
  openssl pkcs12 -export -inkey ocsp-leaf.key -in ocsp-leaf.pem -certfile cas.pem -passout pass:segredo -out ocsp-leaf.p12
)
openssl ocsp -index ltv/db-int/index.txt -port "$ocsp_port" -rsigner ltv/int.pem -rkey ltv/int.key \
  -CA ltv/int.pem -rmd sha256 -nmin 60 >ocsp.log 2>&1 &
ocsp_pid=$!
trap 'kill $TSA_PID $crl_pid $ocsp_pid 2>/dev/null; rm -rf "$work"' EXIT
# Ready when it says so (a bare connection to probe the port would hold it: it answers one
# connection at a time and waits for that one's request).
for _ in $(seq 50); do grep -q "waiting for OCSP client" ocsp.log && break; sleep 0.1; done
"$selo" keys generate keys-ocsp >/dev/null
echo segredo | "$selo" keys import-pkcs12 ltv/ocsp-leaf.p12 keys-ocsp >/dev/null
SELO_KEYS_DIR=keys-ocsp SELO_TSA_URL="$TSA_URL" RUST_LOG=warn "$selo" samples out-ocsp >/dev/null
by_ocsp=(out-ocsp/*.pdf)
test "${#by_ocsp[@]}" -eq 8
"$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_validate.py" --policy 2.16.76.1.7.1.12.1.1 --tsa-root tsa/tsaroot.pem --dss ltv/root.pem "${by_ocsp[@]}"
echo "every document kind, with its signer's OCSP answer (OpenSSL's responder) in the DSS, validates in pyHanko"

# Archiving (PAdES B-LTA): `selo documents ltv --file` adds to signed files fresh validation
# data and a document timestamp from OpenSSL's TSA over the whole file. pyHanko's long-term
# validation, its clock a year past the signer's certificate's expiry and only the files' own
# data to go on, finds the archived signatures PASSED as of their archive timestamp — and the
# same files before archiving not (the control that the check can fail). The signer here is
# issued by the root itself: pyHanko 0.38's past validation looks for the signer's revocation
# list only along a path whose anchor is the signer's issuer, which it cannot build for an
# intermediate (`ValidationPath.truncate_to_issuer_and_append`); selo's side does not differ.
(
  cd ltv
  printf '[direct]\nbasicConstraints = critical, CA:false\nkeyUsage = critical, digitalSignature, nonRepudiation\ncertificatePolicies = 2.16.76.1.2.1.99\ncrlDistributionPoints = URI:%s/root.crl\n' "$crl_url" >> ext.cnf
  openssl req -newkey rsa:2048 -nodes -keyout direct.key -out direct.csr \
    -subj "/C=BR/O=ICP-Brasil TESTE/CN=PREFEITURA MUNICIPAL DE TESTE ARQUIVO:11222333000181" 2>/dev/null
  openssl x509 -req -in direct.csr -CA root.pem -CAkey root.key -out direct.pem -days 30 -extfile ext.cnf -extensions direct 2>/dev/null
  openssl pkcs12 -export -inkey direct.key -in direct.pem -certfile root.pem -passout pass:segredo -out direct.p12
)
"$selo" keys generate keys-lta >/dev/null
echo segredo | "$selo" keys import-pkcs12 ltv/direct.p12 keys-lta >/dev/null
SELO_KEYS_DIR=keys-lta SELO_TSA_URL="$TSA_URL" RUST_LOG=warn "$selo" samples out-signed >/dev/null
signed=(out-signed/*.pdf)
test "${#signed[@]}" -eq 8
# The CAs issue their next lists after the signatures, as real ones do every few hours: the
# archive holds lists issued after signing, which is what proves the certificates unrevoked.
sleep 2
(cd ltv && make_crls)
mkdir out-lta
for f in "${signed[@]}"; do
  SELO_KEYS_DIR=keys-lta SELO_TSA_URL="$TSA_URL" RUST_LOG=warn "$selo" documents ltv --file "$f" "out-lta/${f##*/}" >/dev/null
done
lta=(out-lta/*.pdf)
test "${#lta[@]}" -eq 8
"$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_lta.py" --tsa-root tsa/tsaroot.pem ltv/root.pem ltv/direct.pem "${lta[@]}"
"$work/venv/bin/python" "$OLDPWD/tests/interop/pyhanko_lta.py" --expect-failure --tsa-root tsa/tsaroot.pem ltv/root.pem ltv/direct.pem "${signed[@]}"
for f in "${lta[@]}"; do
  report=$(pdfsig -nssdir sql:nss "$f")
  grep -q "Signature Validation: Signature is Valid." <<<"$report" || { echo "$report"; exit 1; }
done
echo "every document kind, archived with a document timestamp, passes pyHanko's long-term validation a year after its certificate expired"
