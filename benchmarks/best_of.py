"""Interleaved best-of-N timings in one process: a quick, low-noise check of ratios.

``python -m benchmarks.best_of [--rounds 15] [--libs protoattr,google-upb,...]``

The full harness (``python -m benchmarks``) times each library in its own
process and reports medians; on a busy machine its run-to-run spread can hide
differences.  Here every library's encode and decode of every workload are timed
round-robin in the same process, GC off (as timeit does), and the *fastest*
round of each is kept, the least disturbed figure.  Ratios are to google-upb.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from benchmarks.peers import BASELINE, load
from benchmarks.workloads import WORKLOADS, make_data

K = TypeVar("K")


def per_call(fn: Any, arg: Any, target: float = 0.02) -> float:
    """Seconds per ``fn(arg)``: the loop grows until one timing takes ``target`` s."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn(arg)
        dt = time.perf_counter() - t0
        if dt >= target:
            return dt / n
        n *= 2 if dt * 4 < target else 1 + int(target / max(dt, 1e-9))


def interleaved_best(
    cases: Mapping[K, tuple[Callable[[Any], Any], Any]], rounds: int, target: float = 0.02
) -> dict[K, float]:
    """Seconds per call of each ``fn(arg)`` in ``cases``: every case timed once per
    round, round-robin, GC off, and the fastest round of each kept."""
    best: dict[K, float] = {}
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for key, (fn, arg) in cases.items():
                t = per_call(fn, arg, target)
                best[key] = min(best.get(key, t), t)
    finally:
        gc.enable()
    return best


def measure(
    libs: list[str], rounds: int, scale: float = 1.0, target: float = 0.02
) -> dict[tuple[str, str, str], float]:
    """Seconds per call, ``{(lib, workload, "ser" | "de"): best}``, for every workload a
    library implements, all interleaved (:func:`interleaved_best`)."""
    peers = {lib: load(lib) for lib in libs}
    for peer in peers.values():
        getattr(peer, "warm_up", lambda: None)()
    data = make_data(scale, WORKLOADS)
    cases: dict[tuple[str, str, str], tuple[Any, Any]] = {}
    for w in WORKLOADS:
        for lib, peer in peers.items():
            if w not in peer.CODECS:
                continue
            enc, dec = peer.CODECS[w]
            cases[lib, w, "ser"] = (enc, data[w])
            cases[lib, w, "de"] = (dec, enc(data[w]))
    return interleaved_best(cases, rounds, target)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.best_of", description=__doc__)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--libs", default="protoattr,protoattr-python,google-upb,msgspec")
    p.add_argument("--scale", type=float, default=1.0)
    a = p.parse_args(argv)
    libs = [x for x in a.libs.split(",") if x]
    best = measure(libs, a.rounds, a.scale)
    print(f"best of {a.rounds} interleaved rounds, µs per call (ratio to {BASELINE})")
    print(f"{'workload':8} {'library':17} {'serialize':>20} {'deserialize':>20}")
    for w in WORKLOADS:
        for lib in libs:
            if (lib, w, "ser") not in best:
                continue
            cells = []
            for op in ("ser", "de"):
                t = best[lib, w, op] * 1e6
                base = best.get((BASELINE, w, op))
                r = best[lib, w, op] / base if base else 0
                cells.append(f"{t:11.2f} ({r:5.2f}x)")
            print(f"{w:8} {lib:17} {cells[0]:>20} {cells[1]:>20}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
