"""Seeds a selo register through its API for benches/scale.sh: N ride-hailing grants (two
signed documents each, authorization and sticker) from several clients, then revokes one in
ten and suspends one in twenty, so the status list has real entries. Identifiers are
generated with their check digits. Prints nothing but a summary; writes the tokens, one per
line, to the file named by TOKENS_OUT, and the authorizations' ids, in the order of the grants
(the first neither revoked nor suspended), to IDS_OUT.

    usage: python3 benches/scale_seed.py BASE_URL ADMIN_TOKEN N CLIENTS TODAY
"""

import json
import os
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def mod11(total):
    r = total % 11
    return 0 if r < 2 else 11 - r


def cpf(i):
    d = [int(c) for c in f"{100000000 + i:09d}"]
    d.append(mod11(sum(x * w for x, w in zip(d, range(10, 1, -1)))))
    d.append(mod11(sum(x * w for x, w in zip(d, range(11, 1, -1)))))
    return "".join(map(str, d))


def cnh(i):
    d = [int(c) for c in f"{200000000 + i:09d}"]
    dv1 = mod11(sum(x * w for x, w in zip(d, range(2, 11))))
    dv2 = mod11(sum(x * w for x, w in zip(d, range(3, 12))) + dv1 * 2)
    return "".join(map(str, d + [dv1, dv2]))


def renavam(i):
    d = [int(c) for c in f"{3000000000 + i:010d}"]
    r = (sum(x * w for x, w in zip(d, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2])) * 10) % 11
    return "".join(map(str, d + [0 if r == 10 else r]))


def plate(i):
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    a, rest = divmod(i, 26 * 26 * 10 * 26 * 100)
    b, rest = divmod(rest, 26 * 10 * 26 * 100)
    c, rest = divmod(rest, 10 * 26 * 100)
    n, rest = divmod(rest, 26 * 100)
    m, nn = divmod(rest, 100)
    return f"{letters[a % 26]}{letters[b]}{letters[c]}{n}{letters[m]}{nn:02d}"


def main():
    base, admin, n, clients, today = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    headers = {"Authorization": f"Bearer {admin}", "Content-Type": "application/json"}

    def post(path, body):
        req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(req, timeout=60) as res:
            return json.load(res)

    certificates = [{"court": c, "issued_on": today, "clear": True}
                    for c in ("estadual_1", "estadual_2", "federal_1", "federal_2")]

    def grant(i):
        driver = post("/api/v1/drivers", {
            "name": f"Condutor {i}", "cpf": cpf(i),
            "cnh": {"number": cnh(i), "category": "B", "first_license_date": "2015-01-01",
                    "ear": True, "expires_on": "2030-01-01"},
            "criminal_certificates": certificates})
        vehicle = post("/api/v1/vehicles", {
            "plate": plate(i), "renavam": renavam(i), "make": "Chevrolet", "model": "Onix",
            "color": "Prata", "model_year": 2022, "doors": 4, "air_conditioning": True,
            "capacity_including_driver": 5, "registration_municipality_ibge": 5101803,
            "owner_type": "locadora_pj", "owner_document": "11222333000181"})
        a = post("/api/v1/app-authorizations", {
            "driver_id": driver["id"], "vehicle_id": vehicle["id"], "fee_paid_on": today})
        if i % 10 == 1:
            post(f"/api/v1/app-authorizations/{a['id']}/revocation", {"reason": "Cassação (ensaio de escala)"})
        elif i % 20 == 2:
            post(f"/api/v1/app-authorizations/{a['id']}/sanctions", {
                "kind": "suspension", "effective_from": today, "days": 5,
                "reason": "Infração grave (ensaio de escala)", "legal_basis": "art. 26, §1º"})
        return a["id"], [d["verification_url"].rsplit("/v/", 1)[1] for d in a["documents"]]

    tokens, ids = [], []
    with ThreadPoolExecutor(clients) as pool:
        for authorization, got in pool.map(grant, range(n)):
            ids.append(authorization)
            tokens.extend(got)
    with open(os.environ["TOKENS_OUT"], "w") as f:
        f.write("\n".join(tokens) + "\n")
    with open(os.environ["IDS_OUT"], "w") as f:
        f.write("\n".join(ids) + "\n")
    print(f"seeded {n} grants, {len(tokens)} documents")


if __name__ == "__main__":
    main()
