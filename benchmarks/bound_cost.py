"""What ``TypeModel(max_messages=N)`` costs: decoding the workloads with and without it.

``python -m benchmarks.bound_cost [--rounds 15] [--backend native]``

Each workload is decoded by two models of the same backend, one unbounded and one
with a bound no input here reaches (``max_messages=10**9``: the count runs, the
check never fires), interleaved best-of-N in one process (see ``best_of``).  The
ratio is bounded / unbounded: what a server pays for the bound on inputs it
accepts.  docs/errors.md quotes its output.
"""

from __future__ import annotations

import argparse
from typing import Any

import protoattr as pa
from benchmarks.best_of import interleaved_best
from benchmarks.peers import load
from benchmarks.workloads import WORKLOADS, make_data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bound_cost", description=__doc__)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--backend", default="native", choices=("native", "python"))
    p.add_argument("--scale", type=float, default=1.0)
    a = p.parse_args(argv)
    peer = load("protoattr")  # declares the workload contracts
    data = make_data(a.scale, WORKLOADS)
    models = {
        "unbounded": pa.TypeModel(backend=a.backend),
        "bounded": pa.TypeModel(backend=a.backend, max_messages=10**9),
    }
    cases: dict[tuple[str, str], tuple[Any, Any]] = {}
    for w in WORKLOADS:
        enc, dec = peer.CODECS[w]
        cls = dec.args[0]
        payload = enc(data[w])
        for name, model in models.items():
            model.deserialize(cls, payload)  # compiled before timing
            cases[w, name] = (lambda b, m=model, c=cls: m.deserialize(c, b), payload)
    best = interleaved_best(cases, a.rounds)
    print(f"{a.backend} backend, best of {a.rounds} interleaved rounds, µs per deserialize")
    print(f"{'workload':8} {'unbounded':>11} {'max_messages':>13} {'ratio':>7}")
    for w in WORKLOADS:
        u, b = best[w, "unbounded"] * 1e6, best[w, "bounded"] * 1e6
        print(f"{w:8} {u:11.2f} {b:13.2f} {b / u:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
