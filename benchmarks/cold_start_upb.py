"""Start-up against upb: 200 contracts from import to first use, as a ratio, in one run.

``python -m benchmarks.cold_start_upb [--contracts 200] [--runs 11] [--json PATH]``

The contracts of ``benchmarks.cold_start`` (scalars of every kind, enums,
Timestamps, repeated fields, maps, nested messages) are written as a module; their
``.proto`` (``model.schema``) is compiled by grpcio-tools' protoc into a ``_pb2``
module of the same 200 messages; one message of each is encoded.  Both modules get
their ``.pyc`` first (as an installed package has), so no run compiles source.
Then fresh processes, alternating, each time:

* **protoattr's own share**: ``import protoattr``; the ``field(...)`` calls in the
  class bodies (timed one by one; the rest of the module's import is ``@dataclass``
  building the classes, which users of the domain classes pay anyway, and is shown
  but not counted); the 200 ``proto_contract`` declarations; ``compile()``; the
  first use of each contract, a ``deserialize`` of its bytes and a ``serialize``
  of the object.  Once with ``compile()`` and once without (the first use then
  generates the codecs);
* **upb's import-to-first-use**: importing the ``_pb2`` module (which imports
  ``google.protobuf`` and builds the descriptors), then ``FromString`` and
  ``SerializeToString`` of each message.

The ratio is of the medians over the runs (the target of issue 20 is <= 1.5x).
"""

from __future__ import annotations

import argparse
import json
import os
import py_compile
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.cold_start import MODULE, contracts_source

ROOT = Path(__file__).resolve().parent.parent
PROTO = "protoattr_cold_start_upb"
DATA = "messages.bin"
CHILD = Path(__file__).resolve().parent / "_cold_start_child.py"


def prepare(directory: str) -> None:
    """Write the ``.proto``, its ``_pb2`` module, the encodings, and both modules' ``.pyc``."""
    from importlib.resources import files

    from grpc_tools import protoc

    import protoattr as pa

    sys.path.insert(0, directory)
    import importlib

    mod = importlib.import_module(MODULE)
    model = pa.TypeModel()
    for c in mod.CLASSES:
        pa.proto_contract(c)
        model.add(c)
    Path(directory, f"{PROTO}.proto").write_text(model.schema(list(mod.CLASSES)))
    well_known = str(files("grpc_tools") / "_proto")
    args = ["protoc", f"-I{directory}", f"-I{well_known}", f"--python_out={directory}"]
    if protoc.main([*args, f"{PROTO}.proto"]) != 0:
        raise RuntimeError("protoc failed")
    blob = bytearray()
    for make in mod.MAKERS:
        data = model.serialize(make(2))
        blob += len(data).to_bytes(4, "little") + data
    Path(directory, DATA).write_bytes(bytes(blob))
    for name in (MODULE, f"{PROTO}_pb2"):
        src = str(Path(directory, f"{name}.py"))
        py_compile.compile(src, cfile=importlib.util.cache_from_source(src), doraise=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.cold_start_upb")
    p.add_argument("--contracts", type=int, default=200)
    p.add_argument("--runs", type=int, default=11, help="fresh processes of each kind")
    p.add_argument("--json", metavar="PATH")
    p.add_argument("--child", choices=("prepare",), help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child == "prepare":
        prepare(a.dir)
        return 0

    directory = tempfile.mkdtemp(prefix="protoattr-cold-start-upb-")
    Path(directory, f"{MODULE}.py").write_text(contracts_source(a.contracts))

    def child(kind: str) -> dict[str, float]:
        if kind == "prepare":
            cmd = [sys.executable, "-m", "benchmarks.cold_start_upb", f"--child={kind}"]
            cmd.append(f"--dir={directory}")
        else:  # a script, so that nothing is imported before its clock starts
            cmd = [sys.executable, str(CHILD), kind, directory]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            raise SystemExit(1)
        lines = proc.stdout.strip().splitlines()
        return json.loads(lines[-1]) if lines else {}

    child("prepare")
    kinds = ("compiled", "lazy", "upb")
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    for _ in range(a.runs):  # interleaved, so that a change of load touches every kind
        for k in kinds:
            runs[k].append(child(k))
    med = {k: {m: statistics.median(r[m] for r in rs) for m in rs[0]} for k, rs in runs.items()}
    low = {k: {m: min(r[m] for r in rs) for m in rs[0]} for k, rs in runs.items()}
    load = os.getloadavg()[0]
    print(
        f"start-up, {a.contracts} contracts, import to first use: median (min) of {a.runs} "
        f"fresh processes of each kind, ms; load average {load:.2f}"
    )
    labels = {
        "import_ms": "import",
        "field_calls_ms": "field() calls in the class bodies",
        "declare_ms": "proto_contract declarations",
        "compile_ms": "compile()",
        "first_use_ms": "first deserialize + serialize of each",
        "own_ms": "total (for protoattr: its own share)",
        "dataclasses_ms": "@dataclass building the classes (not counted)",
    }
    upb = med["upb"]["own_ms"]
    for k, title in (
        ("compiled", "protoattr, compile() first"),
        ("lazy", "protoattr, no compile()"),
        ("upb", "upb (google.protobuf)"),
    ):
        print(f"  {title}")
        for m, label in labels.items():
            if m in med[k]:
                print(f"    {label:<48} {med[k][m]:8.2f} ({low[k][m]:.2f})")
    for k in ("compiled", "lazy"):
        print(
            f"  ratio protoattr ({k}) / upb, medians: {med[k]['own_ms'] / upb:.2f}x"
            " (target <= 1.5x)"
        )
    if a.json:
        Path(a.json).write_text(
            json.dumps({"medians": med, "minima": low, "runs": runs, "load": load}, indent=1) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
