"""Validate selo PDF signatures with pyHanko, the municipal root as the only trust anchor.

usage: python pyhanko_validate.py ROOT_PEM PDF [PDF ...]
       python pyhanko_validate.py --expect-invalid ROOT_PEM PDF [PDF ...]
Prints pyHanko's summary for each file. Exits 0 when every file is INTACT:TRUSTED,UNTOUCHED
(or, with --expect-invalid, when none is intact and trusted).
"""

import sys

from asn1crypto import pem, x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext


def load_root(path):
    data = open(path, "rb").read()
    if pem.detect(data):
        _, _, data = pem.unarmor(data)
    return x509.Certificate.load(data)


def summary(path, vc):
    try:
        with open(path, "rb") as f:
            reader = PdfFileReader(f, strict=False)
            sigs = reader.embedded_signatures
            if not sigs:
                return "NO SIGNATURE", False
            status = validate_pdf_signature(sigs[-1], vc)
            s = status.summary()
            ok = status.intact and status.valid and status.trusted and s.endswith("UNTOUCHED")
            return s, ok
    except Exception as e:  # a broken file is not a valid signature
        return f"ERROR {type(e).__name__}: {e}", False


def main():
    args = sys.argv[1:]
    expect_invalid = args and args[0] == "--expect-invalid"
    if expect_invalid:
        args = args[1:]
    vc = ValidationContext(trust_roots=[load_root(args[0])])
    failures = 0
    for path in args[1:]:
        s, ok = summary(path, vc)
        print(f"{path}: {s}")
        if ok == expect_invalid:
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
