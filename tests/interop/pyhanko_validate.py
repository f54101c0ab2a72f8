"""Validate selo PDF signatures with pyHanko, the municipal root as the only trust anchor.

usage: python pyhanko_validate.py [--policy OID] [--tsa-root PEM] [--dss] ROOT_PEM PDF [PDF ...]
       python pyhanko_validate.py --expect-invalid ROOT_PEM PDF [PDF ...]
Prints pyHanko's summary for each file. Exits 0 when every file is INTACT:TRUSTED,UNTOUCHED
(or, with --expect-invalid, when none is intact and trusted). With --policy, each signature
must also name that signature policy (ICP-Brasil AD-RB: 2.16.76.1.7.1.11.1.1, AD-RT:
2.16.76.1.7.1.12.1.1) with the policy's own signPolicyHash. With --tsa-root, each signature
must carry a signature timestamp, intact and trusted under that root. With --dss, each file
must carry a Document Security Store with certificates and revocation data (CRLs or OCSP
answers), added after the signature as its only change (pyHanko: EXTENDED_WITH_LTA_UPDATES, acceptable to DocMDP).
"""

import sys

from asn1crypto import pem, x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.dss import DocumentSecurityStore
from pyhanko_certvalidator import ValidationContext


def load_root(path):
    data = open(path, "rb").read()
    if pem.detect(data):
        _, _, data = pem.unarmor(data)
    return x509.Certificate.load(data)


# The signPolicyHash inside PA_PAdES_AD_RB_v1_1.der and PA_PAdES_AD_RT_v1_1.der (what ITI's
# VALIDAR compares), not the SHA-256 of the files (95752d26…, 953f7a20…).
POLICY_HASHES = {
    "2.16.76.1.7.1.11.1.1": "44fc5816eb2d705d8c8f022a7f93b3fb49edfae1a7b9149ef6fab833e9bb63f8",
    "2.16.76.1.7.1.12.1.1": "fa1d44e76ad91e2f6cd471b6987e9c0f1c70d4b70da0956e7becf4dc792c0c1f",
}


def policy_of(sig):
    for attr in sig.signer_info["signed_attrs"]:
        if attr["type"].native == "signature_policy_identifier":
            pol = attr["values"][0].chosen
            return pol["sig_policy_id"].dotted, pol["sig_policy_hash"]["digest"].native.hex()
    return None, None


def summary(path, vc, policy=None, timestamped=False, dss=False):
    try:
        with open(path, "rb") as f:
            reader = PdfFileReader(f, strict=False)
            sigs = reader.embedded_signatures
            if not sigs:
                return "NO SIGNATURE", False
            status = validate_pdf_signature(sigs[-1], vc)
            s = status.summary()
            ok = status.intact and status.valid and status.trusted
            if dss:
                store = DocumentSecurityStore.read_dss(reader)
                s += f" dss=certs:{len(store.certs)},crls:{len(store.crls)},ocsps:{len(store.ocsps)}"
                revinfo = len(store.crls) + len(store.ocsps)
                ok = ok and "EXTENDED_WITH_LTA_UPDATES" in s and revinfo > 0
                ok = ok and len(store.certs) > 0 and status.docmdp_ok is True
            else:
                ok = ok and s.endswith("UNTOUCHED")
            # A certification signature, DocMDP P 2 (form filling and signatures allowed).
            level = sigs[-1].docmdp_level
            s += f" docmdp={getattr(level, 'name', None)} docmdp_ok={status.docmdp_ok}"
            ok = ok and level is not None and level.value == 2 and status.docmdp_ok is not False
            if policy:
                oid, digest = policy_of(sigs[-1])
                s += f" policy={oid}"
                ok = ok and oid == policy and digest == POLICY_HASHES.get(policy)
            if timestamped:
                ts = status.timestamp_validity
                if ts is None:
                    s += " timestamp=None"
                else:
                    s += f" timestamp=intact:{ts.intact},valid:{ts.valid},trusted:{ts.trusted}"
                    s += f" at={ts.timestamp.isoformat()}"
                ok = ok and ts is not None and ts.intact and ts.valid and ts.trusted
            return s, ok
    except Exception as e:  # a broken file is not a valid signature
        return f"ERROR {type(e).__name__}: {e}", False


def main():
    args = sys.argv[1:]
    expect_invalid = args and args[0] == "--expect-invalid"
    if expect_invalid:
        args = args[1:]
    policy = None
    if args and args[0] == "--policy":
        policy, args = args[1], args[2:]
    roots = []
    if args and args[0] == "--tsa-root":
        roots.append(load_root(args[1]))
        args = args[2:]
    timestamped = bool(roots)
    dss = bool(args) and args[0] == "--dss"
    if dss:
        args = args[1:]
    vc = ValidationContext(trust_roots=[load_root(args[0])] + roots)
    failures = 0
    for path in args[1:]:
        s, ok = summary(path, vc, policy, timestamped, dss)
        print(f"{path}: {s}")
        if ok == expect_invalid:
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
