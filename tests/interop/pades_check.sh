#!/usr/bin/env bash
# Interoperability check of the PDF signatures: `selo samples` renders and signs one document
# of every kind with a fresh key set; pyHanko, with the municipal root as its only trust
# anchor, must report each INTACT:TRUSTED,UNTOUCHED, and must reject each file with one
# changed byte in its signed range. Needs python3 (venv) and a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pyhanko
SELO_KEYS_DIR="$work/keys" SELO_OUVIDORIA_PHONE="(66) 3401-9999" RUST_LOG=warn \
  ./target/release/selo samples "$work/samples" >/dev/null
pdfs=("$work"/samples/*.pdf)
echo "pyHanko validates every sample (${#pdfs[@]} kinds):"
"$work/venv/bin/python" tests/interop/pyhanko_validate.py "$work/samples/root-ca.pem" "${pdfs[@]}"
mkdir "$work/tampered"
for f in "${pdfs[@]}"; do
  python3 - "$f" "$work/tampered/$(basename "$f")" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 3] ^= 0x01  # inside the first signed range, before the signature
open(sys.argv[2], "wb").write(data)
PY
done
echo "pyHanko rejects every sample with one changed byte:"
"$work/venv/bin/python" tests/interop/pyhanko_validate.py --expect-invalid "$work/samples/root-ca.pem" "$work"/tampered/*.pdf
