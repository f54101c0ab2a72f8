"""Third-party check of a selo QR token with an off-the-shelf COSE library (pycose).

usage: python pycose_verify.py JWKS_FILE TOKEN
       python pycose_verify.py JWKS_FILE @FILE    (raw COSE bytes: the signed status list)
Prints the decoded payload (bytes as hex) and exits 0 when the signature verifies with the
published key named by the kid; exits 1 otherwise. Uses nothing from selo but docs/verification-formats.md's
format. Works for QR tokens, audit checkpoints and the status list alike.
"""

import base64
import json
import sys

import cbor2
from pycose.algorithms import EdDSA
from pycose.headers import KID, Algorithm
from pycose.keys import OKPKey
from pycose.keys.curves import Ed25519
from pycose.messages import Sign1Message


def b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def readable(value):
    """The payload as JSON can print it: bytes as hex, nested maps and arrays kept."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: readable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [readable(v) for v in value]
    return value


def main() -> int:
    jwks = json.load(open(sys.argv[1]))
    arg = sys.argv[2]
    raw = open(arg[1:], "rb").read() if arg.startswith("@") else b64url(arg)
    msg = Sign1Message.decode(raw)  # tagged COSE_Sign1 (tag 18)
    assert msg.phdr[Algorithm] is EdDSA, "alg must be EdDSA (-8)"
    kid = msg.phdr[KID].decode("ascii")
    jwk = next(k for k in jwks["keys"] if k["kid"] == kid)
    assert jwk["kty"] == "OKP" and jwk["crv"] == "Ed25519"
    msg.key = OKPKey(crv=Ed25519, x=b64url(jwk["x"]))
    if not msg.verify_signature():
        print("signature does NOT verify", file=sys.stderr)
        return 1
    payload = cbor2.loads(msg.payload)
    print(json.dumps(readable(payload), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
