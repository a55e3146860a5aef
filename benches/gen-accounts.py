#!/usr/bin/env python3
"""Writes N platform account records as JSON Lines, shaped as the engine hands them to templates.

Each line is {"account": {...}, "serverVariables": {...}}: the input of an account-create
template. Records vary (with and without a currency, one to three addresses of which one is the
billing address, optional fax and website) so that every branch of the template is exercised.
Deterministic for a given seed.

    python3 benches/gen-accounts.py 1000000 > benches/data/accounts.jsonl
"""
import json
import random
import sys

CITIES = [("Athens", "Greece", "10558", "Attica"), ("Berlin", "Germany", "10115", "Berlin"),
          ("Lyon", "France", "69001", "Auvergne-Rhone-Alpes"), ("Austin", "United States", "78701", "TX"),
          ("Toronto", "Canada", "M5H 2N2", "ON"), ("Leeds", "United Kingdom", "LS1 4AP", "West Yorkshire")]
CURRENCIES = [("EUR", "Euro"), ("USD", "US Dollar"), ("GBP", "Pound Sterling"), ("CAD", "Canadian Dollar")]
WORDS = ["Acme", "Northwind", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell", "Cyberdyne", "Hooli"]


def address(rng, i, billing):
    city, country, post, region = rng.choice(CITIES)
    return {
        "id": i,
        "isBilling": billing,
        "isShipping": not billing,
        "address1": f"{rng.randint(1, 999)} {rng.choice(WORDS)} Street",
        "address2": f"Suite {rng.randint(1, 99)}" if rng.random() < 0.4 else None,
        "city": city,
        "countryName": country,
        "postCode": post,
        "region": region,
    }


def account(rng, n):
    name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {n}"
    slug = name.lower().replace(" ", "")
    count = rng.randint(1, 3)
    billing = rng.randrange(count)
    rec = {
        "id": n,
        "code": f"ACC{n:07d}",
        "name": name,
        "phone": f"+30 210 {rng.randint(1000000, 9999999)}",
        "fax": f"+30 210 {rng.randint(1000000, 9999999)}" if rng.random() < 0.3 else None,
        "corpEmail": f"billing@{slug}.example",
        "webSite": f"https://{slug}.example" if rng.random() < 0.7 else None,
        "isTaxable": rng.random() < 0.8,
        "creditLimit": rng.choice([0, 1000, 2500.5, 10000]),
        "createdAt": "2025-0%d-1%dT09:30:00Z" % (rng.randint(1, 9), rng.randint(0, 9)),
        "updatedAt": "2026-0%d-2%dT17:05:00Z" % (rng.randint(1, 9), rng.randint(0, 8)),
        "addresses": [address(rng, n * 10 + i, i == billing) for i in range(count)],
    }
    if rng.random() < 0.85:
        mnemonic, cname = rng.choice(CURRENCIES)
        rec["accountCurrency"] = {"currency": {"mnemonic": mnemonic, "name": cname}}
    else:
        rec["accountCurrency"] = None
    return rec


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 42)
    out = sys.stdout
    variables = {"realmId": "9130354937154096", "minorVersion": "75"}
    for i in range(1, n + 1):
        out.write(json.dumps({"account": account(rng, i), "serverVariables": variables}, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
