"""Time one library in a process of its own; print the results as one JSON line.

``python -m benchmarks._worker LIBRARY [--min-time S] [--repeat N] [--scale F]``

The harness (``benchmarks/run.py``) starts one of these per library per run, so
no library's imports, caches or heap disturb another's timings.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import traceback
from typing import Any

from benchmarks import _timing
from benchmarks.peers import load
from benchmarks.workloads import WORKLOADS, make_data


def measure(
    lib: str, *, min_time: float, repeat: int, scale: float, workloads: list[str]
) -> dict[str, Any]:
    peer = load(lib)
    warm_up = getattr(peer, "warm_up", None)
    if warm_up is not None:
        warm_up()
    data = make_data(scale, tuple(w for w in workloads if w in peer.CODECS))
    out: dict[str, Any] = {"lib": lib, "version": peer.version(), "workloads": {}}
    for name in workloads:
        if name not in peer.CODECS:
            continue
        enc, dec = peer.CODECS[name]
        obj = data[name]
        res: dict[str, Any] = {}
        out["workloads"][name] = res
        try:
            # The first calls double as the warm-up (protoattr compiles here if
            # warm_up() did not) and as the correctness check.
            encoded = enc(obj)
            if not isinstance(encoded, bytes):
                raise TypeError(f"encode returned {type(encoded).__name__}, not bytes")
            if dec(encoded) != obj:
                raise AssertionError("decode(encode(x)) != x")
        except Exception as exc:
            res["error"] = f"{type(exc).__name__}: {exc}"
            res["traceback"] = traceback.format_exc()
            continue
        res["size"] = len(encoded)
        res["gzip_size"] = len(gzip.compress(encoded))
        res["serialize_ns"] = _timing.time_call(enc, obj, min_time=min_time, repeat=repeat)
        res["deserialize_ns"] = _timing.time_call(dec, encoded, min_time=min_time, repeat=repeat)
        res["roundtrip_ns"] = _timing.time_roundtrip(
            enc, dec, obj, min_time=min_time, repeat=repeat
        )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks._worker")
    p.add_argument("lib")
    p.add_argument("--min-time", type=float, default=0.2)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    a = p.parse_args(argv)
    try:
        out = measure(
            a.lib,
            min_time=a.min_time,
            repeat=a.repeat,
            scale=a.scale,
            workloads=a.workloads.split(","),
        )
    except Exception as exc:
        out = {
            "lib": a.lib,
            "error": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc(),
        }
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
