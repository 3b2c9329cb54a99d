"""DNS records with proto2 defaults ("thrift vs protocol buffers vs JSON"): 5,000 of them.

The article's schema is proto2 with two defaults::

    message DnsRecord {
      required string key = 1;
      required string value = 2;
      required string first = 3;
      required string last = 4;
      optional string type = 5 [default = "A"];
      optional int32 ttl = 6 [default = 86400];
    }
    message DnsResponse { repeated DnsRecord records = 1; }

"A record that matches the default value does not need to be included in the
serialized output."  protoattr's ``field(5, default="A", wire_default="A")`` has
exactly that meaning (a plain ``default=`` is the constructor's only).  The
article compares sizes raw and gzip-compressed, and times:

* ``get``: turning the Python data (a list of dicts) into the library's classes;
* ``ser``: get + serialize; ``ser_compressed``: get + serialize + compress;
* ``serde``: get + serialize + deserialize.

This script does the same for protoattr and ``json`` and adds one line the
article could only describe: the size the same records take when the defaults
are *not* declared (every ``type`` and ``ttl`` written).

Run: ``python examples/dns_records.py``  (a few seconds)
"""

from __future__ import annotations

import gzip
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import protoattr as pa
from protoattr import field, proto_contract

N = 5000


@proto_contract
@dataclass
class DnsRecord:
    key: str = field(1, required=True)
    value: str = field(2, required=True)
    first: str = field(3, required=True)
    last: str = field(4, required=True)
    type: str = field(5, default="A", wire_default="A")  # [default = "A"]: "A" is not written
    ttl: pa.int32 = field(6, default=86400, wire_default=86400)  # [default = 86400]


@proto_contract
@dataclass
class DnsResponse:
    records: list[DnsRecord] = field(1, default_factory=list)


@proto_contract
@dataclass
class DnsRecordNoDefaults:  # the same fields, without the proto2 defaults
    key: str = field(1, required=True)
    value: str = field(2, required=True)
    first: str = field(3, required=True)
    last: str = field(4, required=True)
    type: str = field(5, required=True)
    ttl: pa.int32 = field(6, required=True)


def make_rows(n: int) -> list[dict[str, object]]:
    """Passive-DNS-like rows: mostly A records with the default TTL."""
    rng = random.Random(4)
    start = datetime(2011, 1, 1)
    rows = []
    for i in range(n):
        kind = rng.choices(["A", "CNAME", "AAAA", "MX"], weights=[80, 10, 5, 5])[0]
        host = f"{rng.choice(['www', 'mail', 'cdn', 'api', 'static'])}{i % 97}.example{i % 13}.com"
        if kind == "A":
            value = ".".join(str(rng.randrange(1, 255)) for _ in range(4))
        elif kind == "AAAA":
            value = "2001:db8::" + format(rng.randrange(1 << 16), "x")
        else:
            value = f"target{rng.randrange(1000)}.example.net"
        first = start + timedelta(seconds=rng.randrange(10**7))
        last = first + timedelta(seconds=rng.randrange(10**7))
        rows.append(
            {
                "key": host,
                "value": value,
                "first": first.isoformat(" "),
                "last": last.isoformat(" "),
                "type": kind,
                "ttl": 86400 if rng.random() < 0.7 else rng.choice([300, 600, 3600, 14400]),
            }
        )
    return rows


def get_pa(rows: list[dict[str, object]]) -> DnsResponse:
    return DnsResponse([DnsRecord(**row) for row in rows])  # type: ignore[arg-type]


def ser_pa(rows: list[dict[str, object]]) -> bytes:
    return pa.serialize(get_pa(rows))


def ser_json(rows: list[dict[str, object]]) -> bytes:
    return json.dumps(rows).encode()


def timed(fn: Callable[[], object], repeat: int = 5) -> tuple[float, object]:
    """Best wall time of ``repeat`` calls, and the result."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    rows = make_rows(N)
    pa.default_model.compile()  # codec generation is a one-off; keep it out of the timings
    ser_pa(rows[:1])

    results: list[tuple[str, float, int | None]] = []

    def run(name: str, fn: Callable[[], object]) -> object:
        seconds, out = timed(fn)
        results.append((name, seconds, len(out) if isinstance(out, bytes) else None))
        return out

    run("get_pa", lambda: get_pa(rows))
    data = run("ser_pa", lambda: ser_pa(rows))
    run("ser_json", lambda: ser_json(rows))
    run("ser_pa_compressed", lambda: gzip.compress(ser_pa(rows)))
    run("ser_json_compressed", lambda: gzip.compress(ser_json(rows)))
    back = run("serde_pa", lambda: pa.deserialize(DnsResponse, ser_pa(rows)))
    again = run("serde_json", lambda: json.loads(ser_json(rows)))

    assert isinstance(back, DnsResponse) and back == get_pa(rows)
    assert again == rows
    assert isinstance(data, bytes)

    print(f"{N} total records (best of 5 runs each)")
    print(f"  {'':22} {'seconds':>8} {'bytes':>9}")
    for name, seconds, size in results:
        shown = f"{size:9,}" if size is not None else ""
        print(f"  {name:22} {seconds:8.3f} {shown:>9}")

    plain_records = [DnsRecordNoDefaults(**row) for row in rows]  # type: ignore[arg-type]
    plain = pa.serialize(plain_records, type=list[DnsRecordNoDefaults])
    defaults = sum(1 for r in rows if r["type"] == "A") + sum(1 for r in rows if r["ttl"] == 86400)
    print()
    print(f"without the proto2 defaults the same records take {len(plain):,} bytes;")
    print(f"the defaults left out {defaults:,} values and saved {len(plain) - len(data):,} bytes")
    a_record = pa.serialize(back.records[0])
    print(f"first record ({back.records[0].type}, ttl {back.records[0].ttl}): {a_record!r}")


if __name__ == "__main__":
    main()
