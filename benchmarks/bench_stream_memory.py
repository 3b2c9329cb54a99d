"""Memory of a streamed read: ``deserialize_items`` over a ~200 MB file stays small.

``python -m benchmarks.bench_stream_memory`` (or ``python benchmarks/bench_stream_memory.py``)
writes 1,000,000 ``Boiler`` records (the boiler article's message, ~200 bytes each) with
``serialize_items`` to a temporary file, then reads them back with
``deserialize_items``, each phase in a fresh subprocess so its numbers are its
own:

* ``write`` / ``read``: wall time and the process's peak RSS (``ru_maxrss``),
  without tracemalloc (which would slow it down);
* ``read, traced``: the same read under ``tracemalloc`` (which slows it ten
  times, so by default only the first ``--traced-records`` items of the same
  file; 0 means all): the peak of Python allocations, which must stay small
  whatever the file's size;
* ``baseline``: a process that only imports protoattr and compiles the codec,
  so the RSS figures can be read as "interpreter + this much";
* ``whole list``: for contrast, ``pa.deserialize(list[Boiler], ...)`` of a
  smaller file (``--contrast`` records) under tracemalloc: that peak grows with
  the file, the streamed one does not.

The run fails (exit 1) if the streamed read's tracemalloc peak, or its peak
RSS, reaches ``--limit-mb`` (50).  Not part of the test suite: it takes about
a minute and writes ~200 MB.
"""

# protoattr.field() returns a dataclasses.Field; ruff's RUF009 cannot know that.

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import protoattr as pa
from protoattr import field, proto_contract
from protoattr._stream import PrefixStyle, deserialize_items, serialize_items

MB = 2**20


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


_BRANDS = ("Vaillant", "Worcester", "Baxi", "Ideal", "Viessmann", "Glow-worm", "Potterton")
_QUALIFIERS = ("Combi", "System", "Regular", "Heat only", "Combi (LPG)", "System (LPG)")
_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india")
# 997 distinct ~140-character data strings, so records differ without costing
# the generator (and so the benchmark) much time per record.
_DATA = [
    " ".join(_WORDS[(k * j) % len(_WORDS)] for j in range(1, 30))[:120]
    + f";{4 + k % 56}kW;eff={70 + k % 25}.{k % 10}"
    for k in range(997)
]


def boilers(n: int, start: int = 0) -> Iterator[Boiler]:
    """Records ``start`` .. ``n - 1``, deterministic, ~200 bytes each, generated lazily."""
    for i in range(start, n):
        table = i % 400
        brand = _BRANDS[i % len(_BRANDS)]
        yield Boiler(
            boiler_id=f"{(i * 7919) % 900000 + 100000}-{i:07d}",
            table_number=table,
            table_name=f"PCDF table {table:03d}",
            boiler_data=_DATA[i % len(_DATA)],
            brand_name=brand,
            qualifier=_QUALIFIERS[i % len(_QUALIFIERS)],
            model_name=f"{brand} {_WORDS[i % len(_WORDS)].title()} {12 + i % 33}",
        )


def _maxrss_mb() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS.
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / MB if sys.platform == "darwin" else rss / 1024


# --------------------------------------------------------------------------- #
# Phases, each run in its own process
# --------------------------------------------------------------------------- #


def phase(name: str, path: Path, records: int, traced_records: int) -> dict[str, Any]:
    pa.default_model.compile()  # codec generation is a one-off, not part of any phase
    traced = name in ("read-traced", "list-traced")
    if traced:
        tracemalloc.start()
    start = time.perf_counter()
    count = 0
    if name == "baseline":
        pass
    elif name == "write":
        with path.open("wb") as f:
            count = serialize_items(f, boilers(records), PrefixStyle.BASE128)
    elif name in ("read", "read-traced"):
        stop = traced_records if name == "read-traced" and traced_records else records
        last = None
        with path.open("rb") as f:
            for item in deserialize_items(Boiler, f):
                last = item
                count += 1
                if count == stop:
                    break
        assert count == stop and last == next(boilers(stop, stop - 1)), "bad read"
    elif name == "list-traced":
        items: list[Boiler] = pa.deserialize(list[Boiler], path.read_bytes())
        count = len(items)
    else:
        raise SystemExit(f"unknown phase {name!r}")
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] if traced else None
    return {
        "count": count,
        "seconds": seconds,
        "peak_mb": peak and peak / MB,
        "rss_mb": _maxrss_mb(),
    }


def run_phase(name: str, path: Path, records: int, traced_records: int = 0) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks.bench_stream_memory", "--phase", name]
    cmd += ["--path", str(path), "--records", str(records)]
    cmd += ["--traced-records", str(traced_records)]
    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=root, env=env).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument(
        "--contrast", type=int, default=100_000, help="records for the whole-list read"
    )
    parser.add_argument(
        "--traced-records", type=int, default=200_000, help="items read under tracemalloc (0: all)"
    )
    parser.add_argument("--limit-mb", type=float, default=50.0)
    parser.add_argument("--path", type=Path, help="file to write and keep (default: a temp file)")
    parser.add_argument("--phase", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.phase:  # child process
        print(json.dumps(phase(args.phase, args.path, args.records, args.traced_records)))
        return 0

    tmp = tempfile.TemporaryDirectory(prefix="protoattr-bench-stream-")
    path = args.path or Path(tmp.name, "boilers.bin")
    contrast = Path(tmp.name, "contrast.bin")
    try:
        print(
            f"protoattr {pa.__version__}, Python {platform.python_version()}, {platform.platform()}"
        )
        print(f"{args.records:,} Boiler records, BASE128 prefixes, file {path}\n")
        rows = [
            ("baseline (import + compile)", run_phase("baseline", path, args.records)),
            ("write: serialize_items", run_phase("write", path, args.records)),
        ]
        size = path.stat().st_size
        rows.append(("read: deserialize_items", run_phase("read", path, args.records)))
        streamed = run_phase("read-traced", path, args.records, args.traced_records)
        rows.append(("read: deserialize_items, traced", streamed))
        run_phase("write", contrast, args.contrast)
        with contrast.open("rb") as f:  # the same records as one AllBoilers-style message
            data = pa.serialize(list(deserialize_items(Boiler, f)), type=list[Boiler])
        contrast.write_bytes(data)
        rows.append(
            (
                f"whole list of {args.contrast:,}, traced",
                run_phase("list-traced", contrast, args.contrast),
            )
        )

        print(f"file: {size / MB:,.1f} MiB ({size / args.records:.0f} bytes per record)\n")
        print(
            f"{'phase':38} {'records':>10} {'seconds':>8} {'µs/rec':>7} "
            f"{'peak RSS MiB':>13} {'tracemalloc peak MiB':>21}"
        )
        for label, r in rows:
            per = f"{r['seconds'] / r['count'] * 1e6:7.2f}" if r["count"] else f"{'':7}"
            peak = f"{r['peak_mb']:21.2f}" if r["peak_mb"] is not None else f"{'':21}"
            print(
                f"{label:38} {r['count']:>10,} {r['seconds']:8.2f} {per} {r['rss_mb']:13.1f} {peak}"
            )

        ok = streamed["peak_mb"] < args.limit_mb and rows[2][1]["rss_mb"] < args.limit_mb
        print(
            f"\nstreamed read: peak RSS {rows[2][1]['rss_mb']:.1f} MiB over {args.records:,} "
            f"records (baseline {rows[0][1]['rss_mb']:.1f}), tracemalloc peak "
            f"{streamed['peak_mb']:.2f} MiB over {streamed['count']:,} "
            f"(limit {args.limit_mb:.0f} MiB): " + ("OK" if ok else "FAILED")
        )
        return 0 if ok else 1
    finally:
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
