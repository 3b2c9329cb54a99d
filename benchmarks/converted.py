"""Converted types end to end: 500 invoices with UUID, Decimal and date fields.

``python -m benchmarks.converted [--rounds 15] [--invoices 500]``

protoattr holds the values as ``uuid.UUID``, ``decimal.Decimal`` and
``datetime.date`` and converts them itself (the native engine in C where it
can, calling ``str()``/``Decimal()``/``UUID()`` back where it must); Google's
runtime (upb) gets the twin ``schemas/invoices.proto`` with string/bytes/int32
fields and the conversions in the mapping code, as its user writes them.
Interleaved best-of-N in one process, GC off, as ``benchmarks.best_of``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import random
import sys
import tempfile
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import protoattr as pa
from benchmarks._protoc import SCHEMAS
from benchmarks.best_of import interleaved_best
from protoattr import field, proto_contract


@proto_contract
@dataclass
class Line:
    sku: str = field(1, default="")
    price: Decimal = field(2, default=Decimal("0"))
    quantity: pa.int32 = field(3, default=0)
    ship_day: datetime.date = field(4, default=datetime.date(1, 1, 1))


@proto_contract
@dataclass
class Invoice:
    id: uuid.UUID = field(1, default=uuid.UUID(int=0))
    customer: str = field(2, default="")
    issued: datetime.date = field(3, default=datetime.date(1, 1, 1))
    total: Decimal = field(4, default=Decimal("0"))
    lines: list[Line] = field(5, default_factory=list)
    ref: pa.UUIDBytes = field(6, default=uuid.UUID(int=0))


@proto_contract
@dataclass
class Invoices:
    invoices: list[Invoice] = field(1, default_factory=list)


def make(n: int) -> Invoices:
    rnd = random.Random(7)
    out = []
    for i in range(n):
        lines = [
            Line(
                f"SKU-{rnd.randrange(10**6):06d}",
                Decimal(rnd.randrange(1, 10**6)) / 100,
                rnd.randrange(1, 20),
                datetime.date(2024, 1, 1) + datetime.timedelta(days=rnd.randrange(365)),
            )
            for _ in range(rnd.randrange(1, 6))
        ]
        total = sum((x.price * x.quantity for x in lines), Decimal(0))
        out.append(
            Invoice(
                uuid.UUID(int=rnd.getrandbits(128)),
                f"customer {i}",
                datetime.date(2024, 1, 1) + datetime.timedelta(days=rnd.randrange(365)),
                total,
                lines,
                uuid.UUID(int=rnd.getrandbits(128)),
            )
        )
    return Invoices(out)


def _pb2() -> Any:
    from importlib.resources import files

    from grpc_tools import protoc

    out = tempfile.mkdtemp(prefix="protoattr-bench-invoices-")
    well_known = str(files("grpc_tools") / "_proto")
    if protoc.main(["protoc", f"-I{SCHEMAS}", f"-I{well_known}", f"--python_out={out}",
                    "invoices.proto"]) != 0:  # fmt: skip
        raise RuntimeError("protoc failed on invoices.proto")
    sys.path.insert(0, out)
    try:
        return importlib.import_module("invoices_pb2")
    finally:
        sys.path.remove(out)


def upb_codecs() -> tuple[Any, Any]:
    """Dataclasses -> pb2 -> bytes and back, converting in the mapping code."""
    pb2 = _pb2()

    def encode(obj: Invoices) -> bytes:
        msg = pb2.Invoices()
        add = msg.invoices.add
        for inv in obj.invoices:
            m = add(
                id=str(inv.id), customer=inv.customer, issued=inv.issued.toordinal() - 1,
                total=str(inv.total), ref=inv.ref.bytes,
            )  # fmt: skip
            add_line = m.lines.add
            for x in inv.lines:
                add_line(sku=x.sku, price=str(x.price), quantity=x.quantity,
                         ship_day=x.ship_day.toordinal() - 1)  # fmt: skip
        return msg.SerializeToString()

    fromordinal = datetime.date.fromordinal

    def decode(data: bytes) -> Invoices:
        msg = pb2.Invoices()
        msg.ParseFromString(data)
        return Invoices(
            [
                Invoice(
                    uuid.UUID(m.id),
                    m.customer,
                    fromordinal(m.issued + 1),
                    Decimal(m.total),
                    [
                        Line(x.sku, Decimal(x.price), x.quantity, fromordinal(x.ship_day + 1))
                        for x in m.lines
                    ],
                    uuid.UUID(bytes=m.ref),
                )
                for m in msg.invoices
            ]
        )

    return encode, decode


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.converted", description=__doc__)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--invoices", type=int, default=500)
    a = p.parse_args(argv)
    data = make(a.invoices)
    native, python = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    libs: dict[str, tuple[Any, Any]] = {
        "protoattr (native)": (native.serialize, lambda b: native.deserialize(Invoices, b)),
        "protoattr (python)": (python.serialize, lambda b: python.deserialize(Invoices, b)),
        "google-upb": upb_codecs(),
    }
    wire = python.serialize(data)
    for name, (enc, dec) in libs.items():  # the same bytes, the same objects back
        assert enc(data) == wire, name
        assert dec(wire) == data, name
    assert native._native is not None and native._native.explain(Invoice) == "native"
    cases: dict[tuple[str, str], tuple[Any, Any]] = {}
    for name, (enc, dec) in libs.items():
        cases[name, "serialize"] = (enc, data)
        cases[name, "deserialize"] = (dec, wire)
    best = interleaved_best(cases, a.rounds, target=0.05)
    fallbacks = sum(plan.fallbacks for plan in native._native.plans.values())
    print(f"{a.invoices} invoices, {len(wire):,} bytes; best of {a.rounds} rounds; "
          f"native fallbacks: {fallbacks}")  # fmt: skip
    print(f"{'':20} {'serialize':>12} {'deserialize':>12}   ratio to upb (ser / de)")
    for name in libs:
        ser, de = best[name, "serialize"], best[name, "deserialize"]
        r_ser = ser / best["google-upb", "serialize"]
        r_de = de / best["google-upb", "deserialize"]
        print(f"{name:20} {ser * 1e3:9.3f} ms {de * 1e3:9.3f} ms   {r_ser:.2f}x / {r_de:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
