"""A bcl.DateTime field against a Timestamp field on the C engine (and both backends).

``python -m benchmarks.bcl_dates [--rounds 15] [--events 2000]``

Two lists of the same events: one with its instant as protobuf-net's ``bcl.DateTime``
(``pa.bcl.DateTime``, what a .NET service at compatibility level 200 writes), the other
as ``google.protobuf.Timestamp`` (a plain ``datetime``).  The instants have
milliseconds, as most real ones do, so bcl.DateTime takes its millisecond scale.  The
target (issue #19): the engine within 1.5x of the Timestamp field.  Interleaved
best-of-N in one process, GC off, as ``benchmarks.best_of``.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import protoattr as pa
from benchmarks.best_of import interleaved_best
from protoattr import field, proto_contract


@proto_contract
@dataclass
class BclEvent:
    at: pa.bcl.DateTime = field(2)
    id: int = field(1, default=0)


@proto_contract
@dataclass
class TsEvent:
    at: datetime = field(2)  # a declared default would make the engine merge in Python
    id: int = field(1, default=0)


@proto_contract
@dataclass
class BclEvents:
    events: list[BclEvent] = field(1, default_factory=list)


@proto_contract
@dataclass
class TsEvents:
    events: list[TsEvent] = field(1, default_factory=list)


def make(n: int) -> tuple[BclEvents, TsEvents]:
    rnd = random.Random(19)
    start = datetime(2020, 1, 1, tzinfo=timezone.utc)
    instants = [start + timedelta(milliseconds=rnd.randrange(10**11)) for _ in range(n)]
    return (
        BclEvents([BclEvent(t.replace(tzinfo=None), i) for i, t in enumerate(instants)]),
        TsEvents([TsEvent(t, i) for i, t in enumerate(instants)]),
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bcl_dates", description=__doc__)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--events", type=int, default=2000)
    a = p.parse_args(argv)
    bcl, ts = make(a.events)
    cases: dict[tuple[str, str, str], tuple[Any, Any]] = {}
    for backend in ("native", "python"):
        model = pa.TypeModel(backend=backend)
        for form, obj in (("bcl.DateTime", bcl), ("Timestamp", ts)):
            wire = model.serialize(obj)
            cls = type(obj)
            assert model.deserialize(cls, wire) == obj
            cases[backend, form, "serialize"] = (model.serialize, obj)
            cases[backend, form, "deserialize"] = (
                lambda b, m=model, c=cls: m.deserialize(c, b),
                wire,
            )
        if backend == "native":
            assert model._native is not None and model._native.explain(BclEvent) == "native"
    best = interleaved_best(cases, a.rounds, target=0.05)
    print(f"{a.events} events; best of {a.rounds} rounds")
    print(f"{'':10} {'':14} {'serialize':>12} {'deserialize':>12}")
    for backend in ("native", "python"):
        for form in ("bcl.DateTime", "Timestamp"):
            ser, de = best[backend, form, "serialize"], best[backend, form, "deserialize"]
            print(f"{backend:10} {form:14} {ser * 1e3:9.3f} ms {de * 1e3:9.3f} ms")
        r_ser = best[backend, "bcl.DateTime", "serialize"] / best[backend, "Timestamp", "serialize"]
        r_de = (
            best[backend, "bcl.DateTime", "deserialize"] / best[backend, "Timestamp", "deserialize"]
        )
        print(f"{backend:10} {'bcl / Timestamp':14} {r_ser:11.2f}x {r_de:11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
