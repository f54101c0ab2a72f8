"""A platform's webhook endpoint that checks selo's deliveries with an off-the-shelf RFC 9421
library (http-message-signatures) and the published JWK Set, as a platform would.

usage: python webhook_receiver.py PORT JWKS_URL OUT_DIR

Each POST is answered 204 when the body matches Content-Digest (RFC 9530), the signature
verifies with the key its keyid names, `created` is under five minutes old and the nonce was
never seen; 400 (digest), 401 (signature) or 409 (replayed nonce) otherwise. Every outcome is
appended to OUT_DIR/outcomes.jsonl; the last accepted request is kept in OUT_DIR/last.json so
that the check can send it again.
"""

import base64
import datetime
import hashlib
import json
import os
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import requests
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from http_message_signatures import (
    ContentDigest,
    HTTPMessageVerifier,
    HTTPSignatureKeyResolver,
    algorithms,
)

PORT, JWKS_URL, OUT = int(sys.argv[1]), sys.argv[2], sys.argv[3]
seen_nonces = set()


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class JwksResolver(HTTPSignatureKeyResolver):
    def resolve_public_key(self, key_id):
        jwks = json.load(urllib.request.urlopen(JWKS_URL))
        for k in jwks["keys"]:
            if k["kid"] == key_id and k["kty"] == "OKP" and k["crv"] == "Ed25519":
                return Ed25519PublicKey.from_public_bytes(b64url(k["x"]))
        raise KeyError(key_id)


def record(entry):
    with open(os.path.join(OUT, "outcomes.jsonl"), "a") as f:
        f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, entry):
        record(entry)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        headers = {k: v for k, v in self.headers.items()}
        url = f"http://127.0.0.1:{PORT}{self.path}"
        try:
            ContentDigest.verify(self.headers.get("Content-Digest", ""), body)
        except Exception as e:
            return self.answer(400, {"outcome": "refused", "reason": "digest", "detail": str(e)})
        message = requests.Request("POST", url, data=body, headers=headers).prepare()
        verifier = HTTPMessageVerifier(
            signature_algorithm=algorithms.ED25519, key_resolver=JwksResolver()
        )
        try:
            result = verifier.verify(
                message,
                max_age=datetime.timedelta(minutes=5),
                require_components=("@method", "@target-uri", "content-digest", "content-type"),
                body=body,
            )[0]
        except Exception as e:
            return self.answer(401, {"outcome": "refused", "reason": "signature", "detail": str(e)})
        nonce = str(result.parameters.get("nonce"))
        if nonce in seen_nonces:
            return self.answer(409, {"outcome": "refused", "reason": "replay", "nonce": nonce})
        seen_nonces.add(nonce)
        event = json.loads(body)
        with open(os.path.join(OUT, "last.json"), "w") as f:
            json.dump({"headers": headers, "body": body.decode(), "path": self.path}, f)
        self.answer(204, {"outcome": "accepted", "type": event["type"], "id": event["id"],
                          "keyid": result.parameters.get("keyid")})


HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
