"""7,000 boiler records ("Protocol Buffers & Lists"): one big list versus a stream of items.

The article serialises 7,000 ``Boiler`` records (proto2, every field required)
first as one ``AllBoilers`` message and then "individually ... with the length
of the item added before each item" (``BitConverter.GetBytes(int)``: a 4-byte
little-endian prefix).  This script does both with protoattr, plus the other
framings, writes each to a file, reads it back, checks the records survived,
and prints size and time side by side.

What it shows:

* ``pa.serialize(boilers, type=list[Boiler])`` is the ``AllBoilers`` message
  (``repeated Boiler Boiler = 1``), byte for byte.
* ``pa.serialize_items(f, boilers, pa.PrefixStyle.FIXED32)`` is the article's fix.
* ``BASE128`` with ``field_number=1`` writes *the same bytes as the big list*,
  so a file written either way can be read either way, and the big-list file
  can be consumed one record at a time with ``pa.deserialize_items``.

Run: ``python examples/boilers.py``  (a few seconds)
"""

# protoattr.field() returns a dataclasses.Field; ruff's RUF009 cannot know that.

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import protoattr as pa
from protoattr import field, proto_contract

N = 7000
REPEAT = 3  # best of REPEAT runs, so one-off costs (codec compilation, page cache) don't count


@proto_contract
@dataclass
class Boiler:
    boiler_id: str = field(1, required=True)
    table_number: pa.int32 = field(2, required=True)
    table_name: str = field(3, required=True)
    boiler_data: str = field(4, required=True)
    brand_name: str = field(5, required=True)
    qualifier: str = field(6, required=True)
    model_name: str = field(7, required=True)


def make_boilers() -> list[Boiler]:
    # The article's loop (it notes the real tests used real data; the ids differ here
    # so that a record out of place would be noticed by the check below).
    return [
        Boiler(
            boiler_id=f"ID{i}",
            table_number=2,
            table_name="Name",
            boiler_data="Data",
            brand_name="Brand",
            model_name="Model",
            qualifier="Qualifier",
        )
        for i in range(N)
    ]


def best(fn: Callable[[], object]) -> float:
    """Best wall time of REPEAT calls, in milliseconds."""
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    boilers = make_boilers()
    pa.default_model.compile()  # codec generation is a one-off; keep it out of the timings
    rows: list[tuple[str, int, float, float]] = []

    with tempfile.TemporaryDirectory() as tmp:
        # 1. The article's first attempt: one AllBoilers message holding the list.
        big = Path(tmp, "all_boilers.bin")

        def write_list() -> None:
            big.write_bytes(pa.serialize(boilers, type=list[Boiler]))

        def read_list() -> list[Boiler]:
            result: list[Boiler] = pa.deserialize(list[Boiler], big.read_bytes())
            return result

        w = best(write_list)
        r = best(read_list)
        assert read_list() == boilers
        rows.append(("one AllBoilers message", big.stat().st_size, w, r))

        # 2. The article's fix and the other framings: one length-prefixed item at a time.
        framings = [
            ("items, FIXED32 prefix (article)", pa.PrefixStyle.FIXED32, 0),
            ("items, FIXED32_BIG_ENDIAN prefix", pa.PrefixStyle.FIXED32_BIG_ENDIAN, 0),
            ("items, BASE128 prefix", pa.PrefixStyle.BASE128, 0),
            ("items, BASE128 + field 1", pa.PrefixStyle.BASE128, 1),
        ]
        for label, style, field_number in framings:
            path = Path(tmp, f"items_{style.name}_{field_number}.bin")

            def write_items(
                path: Path = path, style: pa.PrefixStyle = style, fn: int = field_number
            ) -> None:
                with path.open("wb") as f:
                    assert pa.serialize_items(f, boilers, style, fn) == N

            def read_items(
                path: Path = path, style: pa.PrefixStyle = style, fn: int = field_number
            ) -> list[Boiler]:
                with path.open("rb") as f:
                    return list(pa.deserialize_items(Boiler, f, style, fn))

            w = best(write_items)
            r = best(read_items)
            assert read_items() == boilers
            rows.append((label, path.stat().st_size, w, r))

        # The field-1 stream *is* the AllBoilers message, so the big file streams too.
        same = Path(tmp, "items_BASE128_1.bin").read_bytes() == big.read_bytes()
        with big.open("rb") as f:
            first = next(pa.deserialize_items(Boiler, f, pa.PrefixStyle.BASE128, 1))

    print(f"{N:,} boiler records (proto2, all fields required), best of {REPEAT}\n")
    print(f"{'written as':34} {'bytes':>9} {'write ms':>9} {'read ms':>9}")
    for label, size, w, r in rows:
        print(f"{label:34} {size:>9,} {w:>9.1f} {r:>9.1f}")
    print()
    print(f"BASE128 + field 1 stream identical to the AllBoilers message: {same}")
    print(
        f"first record streamed out of the AllBoilers file: {first.boiler_id}, {first.model_name}"
    )


if __name__ == "__main__":
    main()
