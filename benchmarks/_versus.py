"""What the one-process "protoattr against its peers" benchmarks share.

``json_bench`` and ``text_bench`` time protoattr and one or more peers on the same
objects, alternating the sides loop after loop so that a change in the machine's
load falls on all of them, and print one row per workload and operation with
each peer's time and protoattr's time over it.  The timing loop, the table and
the command line live here once.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import _timing


def alternate_best(
    sides: Sequence[tuple[Callable[[Any], Any], Any]], min_time: float, repeat: int
) -> list[float]:
    """Nanoseconds per call of each ``fn(arg)``: ``repeat`` rounds, every side timed
    once per round in turn, each side's fastest round kept."""
    best = [float("inf")] * len(sides)
    for _ in range(repeat):
        for i, (fn, arg) in enumerate(sides):
            best[i] = min(best[i], _timing.time_call(fn, arg, min_time=min_time, repeat=1))
    return best


def row(workload: str, op: str, peers: Sequence[str], best: Sequence[float]) -> dict[str, Any]:
    """``{workload, op, <peer>_us..., ratio_<peer>...}``; the first peer is protoattr, and
    the ratios are its time over each other peer's."""
    out: dict[str, Any] = {"workload": workload, "op": op}
    for peer, t in zip(peers, best, strict=True):
        out[f"{peer}_us"] = t / 1000
    for peer, t in zip(peers[1:], best[1:], strict=True):
        out[f"ratio_{peer}"] = best[0] / t
    # kept for older readers of the JSON: protoattr against the first peer
    out["protoattr_us"], out["google_us"] = best[0] / 1000, best[1] / 1000
    out["ratio"] = best[0] / best[1]
    return out


def print_table(rows: list[dict[str, Any]], peers: Sequence[str]) -> None:
    """µs per call, and in brackets protoattr's time over each peer's."""
    print("µs per call; in brackets protoattr's time over the peer's (below 1: protoattr faster)")
    print(f"{'workload':<9} {'op':<10}" + "".join(f"{p:>22}" for p in peers))
    for r in rows:
        cells = [f"{r[peers[0] + '_us']:>22.1f}"]
        for p in peers[1:]:
            cells.append(f"{r[p + '_us']:>13.1f} ({r['ratio_' + p]:5.2f}x)")
        print(f"{r['workload']:<9} {r['op']:<10}" + "".join(cells))


def main(
    argv: list[str] | None,
    description: str,
    run: Callable[[float, int], list[dict[str, Any]]],
    about: Callable[[], dict[str, Any]],
    peers: Sequence[str],
) -> int:
    """The command line: ``--min-time``, ``--repeat``, ``--json``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per timed loop")
    parser.add_argument("--repeat", type=int, default=5, help="loops per figure (best kept)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    rows = run(args.min_time, args.repeat)
    if args.json:
        print(json.dumps({"about": about(), "rows": rows}, indent=2))
        return 0
    info = about()
    print(f"protoattr {info['protoattr']}, protobuf {info['protobuf']}, {info['python']}")
    print_table(rows, peers)
    return 0
