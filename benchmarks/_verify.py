"""Correctness checks run before any timing.

* every peer: ``decode(encode(x)) == x`` on every workload it implements;
* protobuf peers: their bytes against Google's (protoattr must match exactly;
  the others are reported, with the known, explained differences);
* protoattr and Google read each other's bytes back to the same objects;
* GoogleMessage1 (proto2): protoattr's message is as long as Google's dataset payload.
"""

from __future__ import annotations

from typing import Any

from benchmarks.google_message1 import GM1_PAYLOAD_SIZE
from benchmarks.peers import BASELINE, load
from benchmarks.workloads import make_data

# Peers whose bytes are expected to equal Google's, and the known exceptions.
SAME_BYTES = {
    "protoattr": {},
    "protobuf-py": {},
    "pure-protobuf": {},
    "betterproto": {"dns": "proto3 only: writes type='A' and ttl=86400 (no proto2 defaults)"},
}


def verify(libs: list[str], workloads: list[str], scale: float) -> dict[str, Any]:
    """Return ``{"checks": [...], "failed": bool}``; each check is a dict with ``ok``."""
    data = make_data(scale, tuple(workloads))
    peers: dict[str, Any] = {}
    checks: list[dict[str, Any]] = []

    def check(kind: str, lib: str, workload: str, ok: bool, detail: str = "") -> None:
        checks.append({"kind": kind, "lib": lib, "workload": workload, "ok": ok, "detail": detail})

    for lib in libs:
        try:
            peers[lib] = load(lib)
        except Exception as exc:
            check("import", lib, "*", False, f"{type(exc).__name__}: {exc}")
    encoded: dict[tuple[str, str], bytes] = {}
    for lib, peer in peers.items():
        for w in workloads:
            if w not in peer.CODECS:
                continue
            enc, dec = peer.CODECS[w]
            try:
                b = enc(data[w])
                back = dec(b)
            except Exception as exc:
                check("round trip", lib, w, False, f"{type(exc).__name__}: {exc}")
                continue
            encoded[lib, w] = b
            ok = back == data[w]
            check("round trip", lib, w, ok, "" if ok else _first_difference(back, data[w]))

    if ("protoattr", "gm1_proto2") in encoded and scale == 1.0:
        n = len(encoded["protoattr", "gm1_proto2"])
        ok = n == GM1_PAYLOAD_SIZE
        check("size == Google's dataset payload", "protoattr", "gm1_proto2", ok, f"{n} bytes")

    base = peers.get(BASELINE)
    for lib, known in SAME_BYTES.items():
        for w in workloads:
            if (lib, w) not in encoded or (BASELINE, w) not in encoded:
                continue
            same = encoded[lib, w] == encoded[BASELINE, w]
            if w in known:
                check("bytes == google (informational)", lib, w, True, known[w])
            elif same:
                check("bytes == google", lib, w, True)
            else:
                mine, theirs = encoded[lib, w], encoded[BASELINE, w]
                check("bytes == google", lib, w, False, _byte_difference(mine, theirs))
            if lib == "protoattr" and base is not None:
                p = peers[lib]
                for kind, dec, b in (
                    ("google reads protoattr's bytes", base.CODECS[w][1], encoded[lib, w]),
                    ("protoattr reads google's bytes", p.CODECS[w][1], encoded[BASELINE, w]),
                ):
                    try:
                        ok = dec(b) == data[w]
                        detail = "" if ok else "decoded object differs"
                    except Exception as exc:
                        ok, detail = False, f"{type(exc).__name__}: {exc}"
                    check(kind, lib, w, ok, detail)
    return {"checks": checks, "failed": not all(c["ok"] for c in checks)}


def _byte_difference(mine: bytes, theirs: bytes) -> str:
    n = next(
        (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
        min(len(mine), len(theirs)),
    )
    return (
        f"{len(mine)} vs {len(theirs)} bytes, first difference at offset {n}: "
        f"{mine[max(0, n - 8) : n + 16].hex(' ')} vs {theirs[max(0, n - 8) : n + 16].hex(' ')}"
    )


def _first_difference(got: Any, want: Any) -> str:
    if isinstance(got, list) and isinstance(want, list):
        if len(got) != len(want):
            return f"{len(got)} items, expected {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            if g != w:
                return f"item {i}: {g!r} != {w!r}"
    for attr in ("boilers", "records"):
        if hasattr(want, attr) and hasattr(got, attr):
            return _first_difference(getattr(got, attr), getattr(want, attr))
    return f"{got!r:.300} != {want!r:.300}"


def format_checks(result: dict[str, Any], verbose: bool = False) -> str:
    """Failures, explained differences and protoattr's checks; a count of the rest."""
    lines = []
    quiet = 0
    for c in result["checks"]:
        if not verbose and c["ok"] and not c["detail"] and c["lib"] != "protoattr":
            quiet += 1
            continue
        mark = "ok  " if c["ok"] else "FAIL"
        detail = f"  ({c['detail']})" if c["detail"] else ""
        lines.append(f"  {mark} {c['kind']:<32} {c['lib']:<15} {c['workload']:<8}{detail}")
    if quiet:
        lines.append(f"  ok   {quiet} more checks (other peers' round trips and bytes)")
    return "\n".join(lines)
