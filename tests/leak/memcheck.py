"""The workload valgrind's memcheck runs (tests/leak/memcheck.sh): a few leak cycles.

``python -m tests.leak.memcheck [CYCLES]`` (default 3) builds the model, runs the
operations of every feature group of tests/leak/cycles.py ``CYCLES`` times on the
native backend (encode, decode, merge, the error paths and the hand-overs to the
Python codec), then drops the model and collects, so that what the engine still
holds at exit is a leak and not a live plan.
"""

from __future__ import annotations

import gc
import sys

import protoattr as pa
import protoattr._native as native
from tests.leak.cycles import workload


def main() -> int:
    if not native.available():
        print("memcheck: the C engine is not built", file=sys.stderr)
        return 2
    cycles = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    model = pa.TypeModel(backend="native")
    cycle = workload(model)
    for _ in range(cycles):
        cycle()
    del cycle, model
    gc.collect()
    print(f"memcheck workload: {cycles} cycles done", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
