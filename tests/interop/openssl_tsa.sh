#!/usr/bin/env bash
# OpenSSL's RFC 3161 time-stamping authority over HTTP, for the checks and the benchmarks:
#   source tests/interop/openssl_tsa.sh DIR     (DIR: a scratch folder of the caller's)
# makes in DIR a root (tsaroot.pem) and a certificate whose only use is time-stamping, starts a
# small HTTP wrapper around `openssl ts -reply` on a free loopback port, and sets TSA_URL and
# TSA_PID (the caller kills it). Needs openssl and python3.
tsa_dir=$1
(
  cd "$tsa_dir"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout tsaroot.key -out tsaroot.pem -days 3650 \
    -subj "/C=BR/O=ACT TESTE/CN=Raiz de carimbo de TESTE" \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout tsa.key -out tsa.csr \
    -subj "/C=BR/O=ACT TESTE/CN=Carimbo do tempo de TESTE" 2>/dev/null
  printf 'extendedKeyUsage = critical, timeStamping\nkeyUsage = critical, digitalSignature\n' > tsa.ext
  openssl x509 -req -in tsa.csr -CA tsaroot.pem -CAkey tsaroot.key -out tsa.pem -days 3650 -extfile tsa.ext 2>/dev/null
  echo 01 > tsaserial
  cat > ts.cnf <<CNF
[ tsa ]
default_tsa = act
[ act ]
serial = $PWD/tsaserial
crypto_device = builtin
signer_cert = $PWD/tsa.pem
certs = $PWD/tsaroot.pem
signer_key = $PWD/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_alg = sha256
CNF
)
tsa_port=$((20000 + RANDOM % 20000))
python3 - "$tsa_port" "$tsa_dir/ts.cnf" <<'PY' &
import http.server, subprocess, sys, tempfile
port, cnf = int(sys.argv[1]), sys.argv[2]
class Tsa(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        query = self.rfile.read(int(self.headers["Content-Length"]))
        with tempfile.TemporaryDirectory() as d:
            open(f"{d}/q.tsq", "wb").write(query)
            subprocess.run(["openssl", "ts", "-reply", "-config", cnf, "-queryfile", f"{d}/q.tsq",
                            "-out", f"{d}/r.tsr"], check=True, capture_output=True)
            reply = open(f"{d}/r.tsr", "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Tsa).serve_forever()
PY
TSA_PID=$!
TSA_URL="http://127.0.0.1:$tsa_port/"
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$tsa_port") 2>/dev/null && break; sleep 0.1; done
export TSA_URL TSA_PID
