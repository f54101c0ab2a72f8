#!/usr/bin/env bash
# Interoperability check of the rendered documents with the tools a person has: poppler's
# pdfinfo and pdftotext read every sample's page size and text, and zbar decodes the QR code
# printed on each to a verification URL. The test suite reads the same with crates (hayro,
# rqrr); this step checks that other readers agree. Needs poppler-utils, zbar-tools and a
# release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SELO_KEYS_DIR="$work/keys" SELO_PUBLIC_URL="https://selo.example.gov.br" RUST_LOG=warn \
  ./target/release/selo samples "$work/samples" >/dev/null
fail=0
check() { # kind, expected page size, expected text
  local pdf="$work/samples/$1.pdf"
  local info text
  info=$(pdfinfo "$pdf" 2>/dev/null)
  text=$(pdftotext -layout "$pdf" - 2>/dev/null)
  if ! grep -q "Page size: *$2" <<<"$info"; then echo "FAIL $1: page size, got: $(grep 'Page size' <<<"$info")"; fail=1; fi
  if ! grep -qF "$3" <<<"$text"; then echo "FAIL $1: pdftotext lacks \"$3\""; fail=1; fi
  pdftoppm -png -r 300 -f 1 -l 1 -singlefile "$pdf" "$work/$1" 2>/dev/null
  local qr
  qr=$(zbarimg --raw -q "$work/$1.png" || true)
  if ! grep -q '^https://selo.example.gov.br/v/' <<<"$qr"; then echo "FAIL $1: zbarimg found no verification URL"; fail=1; fi
  echo "ok   $1: $2, text and QR read by poppler and zbar"
}
check app_sticker "283.465 x 396.85 pts" "VEÍCULO AUTORIZADO"
check app_authorization "595.276 x 841.89 pts (A4)" "AUTORIZAÇÃO PARA TRANSPORTE"
check app_certidao "595.276 x 841.89 pts (A4)" "CERTIDÃO DE SITUAÇÃO CADASTRAL"
check app_auto "595.276 x 841.89 pts (A4)" "AUTO DE INFRAÇÃO"
check charter_termo "595.276 x 841.89 pts (A4)" "TERMO DE AUTORIZAÇÃO"
check charter_selo "297.638 x 419.528 pts" "SELO DE VISTORIA"
check charter_certidao "595.276 x 841.89 pts (A4)" "CERTIDÃO"
check charter_auto "595.276 x 841.89 pts (A4)" "AUTO DE INFRAÇÃO"

# Both faces of the sticker carry the QR code, and the outside face still reads
# after a 15 % smear, a 15° tilt and JPEG quality 30 (Pillow degrades it, zbar reads it).
pdftoppm -png -r 300 -f 2 -l 2 -singlefile "$work/samples/app_sticker.pdf" "$work/face2"
if zbarimg --raw -q "$work/face2.png" | grep -q '^https://selo.example.gov.br/v/'; then
  echo "ok   app_sticker: the inside face's QR code reads"
else echo "FAIL app_sticker: no QR code on the inside face"; fail=1; fi
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pillow
"$work/venv/bin/python" tests/interop/degrade.py "$work/app_sticker.png" "$work/road.jpg"
if zbarimg --raw -q "$work/road.jpg" | grep -q '^https://selo.example.gov.br/v/'; then
  echo "ok   app_sticker: zbar reads the QR code smeared 15 %, turned 15° and as a JPEG of quality 30"
else echo "FAIL app_sticker: zbar cannot read the degraded sticker (box: $box)"; fail=1; fi
exit $fail
