"""Cold start: what generating codecs costs, and what a first call costs.

``python -m benchmarks.cold_start [--contracts 200] [--runs 5] [--json PATH]``

A module of ``--contracts`` generated contract classes (scalars of every kind,
enums, Timestamps, packed and unpacked repeated fields, maps of scalars and of
messages, and nested and repeated messages referring to earlier classes) is
written to a temporary directory and imported; then, each run in a fresh process:

* ``proto_contract`` (validation and reflection) is timed per class;
* ``TypeModel.compile()`` on a model holding every contract, per contract;
* the first ``serialize`` and first ``deserialize`` of each class, on a model
  that compiled nothing (each class in a fresh model, so the first call pays
  for planning that class and every class its value holds: a nested
  contract's plan is set up when the engine first meets one of its values),
  on one model that compiled nothing, as a program meets its contracts (each
  class in declaration order: a call plans what no earlier call did), and on
  a model after ``compile()``;
* ahead of time: the model is written once with ``model.write_module`` (which
  writes the module's ``.pyc`` too); then, in fresh processes, the time to
  import that file (which installs every codec with no code generation): under
  ``PYTHONDONTWRITEBYTECODE=1`` once with the ``.pyc`` removed (as every start
  paid before ``write_module`` wrote it) and once with it, then as usual, and
  the first calls after the import;
* the steady state: the median of later calls, for comparison.

Medians over the contracts, then over the runs.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter_ns
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent

# (annotation, default expression, value expression) -- {i} is the class number.
_KINDS = [
    ("pa.int32", "0", "-{i} - 7"),
    ("int", "0", "{i} * 1_000_003"),
    ("pa.uint32", "0", "{i} + 300"),
    ("pa.sint64", "0", "-{i} * 99"),
    ("pa.fixed32", "0", "{i} + 1"),
    ("pa.sfixed64", "0", "-{i} - 1"),
    ("float", "0.0", "{i} / 7"),
    ("pa.float32", "0.0", "0.5"),
    ("bool", "False", "True"),
    ("str", '""', '"name-{i}-é"'),
    ("bytes", 'b""', 'b"\\x00\\x01{i}"'),
    ("Colour", "Colour.RED", "Colour.BLUE"),
    ("datetime", "EPOCH", "EPOCH + timedelta(days={i}, microseconds={i})"),
    ("list[pa.int32]", "FACTORY", "[1, 2, {i}, -3]"),
    ("list[str]", "FACTORY", '["a", "b{i}"]'),
    ("list[Colour]", "FACTORY", "[Colour.GREEN, Colour.RED]"),
    ("dict[str, pa.int32]", "FACTORY", '{{"k": {i}, "j": 2}}'),
    ("dict[int, str]", "FACTORY", '{{{i}: "v", -1: ""}}'),
    ("Optional[pa.int64]", "None", "{i}"),
    ("Optional[str]", "None", '""'),
]


def contracts_source(n: int) -> str:
    """Python source of a module defining ``C0`` … ``C{n-1}`` and ``make(i, depth)``."""
    out = [
        "import dataclasses",
        "from datetime import datetime, timedelta, timezone",
        "from enum import IntEnum",
        "from typing import Optional",
        "import protoattr as pa",
        "from protoattr import field",
        "EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)",
        "class Colour(IntEnum):",
        "    RED = 0",
        "    GREEN = 1",
        "    BLUE = 2",
        "CLASSES = []",
        "MAKERS = []",
    ]
    for i in range(n):
        out.append("@dataclasses.dataclass")
        out.append(f"class C{i}:")
        values = []
        tag = 0
        for k in range(4 + i % 9):
            ann, default, value = _KINDS[(i + 3 * k) % len(_KINDS)]
            tag += 1
            name = f"f{tag}"
            if default == "FACTORY":
                origin = ann.split("[", 1)[0]
                out.append(f"    {name}: {ann} = field({tag}, default_factory={origin})")
            else:
                out.append(f"    {name}: {ann} = field({tag}, default={default})")
            values.append(f"{name}={value.format(i=i)}")
        if i > 0:
            a, b = i // 2, i // 3
            out.append(f"    one: Optional[C{a}] = field({tag + 1}, default=None)")
            out.append(f"    many: list[C{b}] = field({tag + 2}, default_factory=list)")
            out.append(f"    byname: dict[str, C{b}] = field({tag + 3}, default_factory=dict)")
            values.append(f"one=None if depth == 0 else MAKERS[{a}](depth - 1)")
            values.append(f"many=[] if depth == 0 else [MAKERS[{b}](depth - 1)] * 2")
            values.append(f'byname={{}} if depth == 0 else {{"x": MAKERS[{b}](depth - 1)}}')
        out.append(f"CLASSES.append(C{i})")
        out.append(f"MAKERS.append(lambda depth: C{i}({', '.join(values)}))")
    return "\n".join(out) + "\n"


MODULE = "protoattr_cold_start_contracts"
CODECS_MODULE = "protoattr_cold_start_codecs"


def load_contracts(directory: str) -> Any:
    """Import the contracts module written to ``directory`` (a real, importable file)."""
    sys.path.insert(0, directory)
    return importlib.import_module(MODULE)


def _timed(fn: Any, *args: Any) -> tuple[int, Any]:
    t0 = perf_counter_ns()
    result = fn(*args)
    return perf_counter_ns() - t0, result


def _steady(fn: Any, *args: Any, n: int = 15) -> float:
    times = []
    for _ in range(n):
        t0 = perf_counter_ns()
        fn(*args)
        times.append(perf_counter_ns() - t0)
    return statistics.median(times)


def measure_once(directory: str) -> dict[str, Any]:
    """One cold process's figures (µs)."""
    import protoattr as pa

    mod = load_contracts(directory)
    classes, makers = mod.CLASSES, mod.MAKERS
    n = len(classes)

    declare = [_timed(pa.proto_contract, c)[0] for c in classes]
    objs = [make(2) for make in makers]

    # no compile(), as a program meets its contracts, before anything else used them:
    # one model, each class's first call in declaration order, planning the contracts no
    # earlier call planned (C{i} refers to earlier classes only, so mostly its own)
    in_order_ser, in_order_de, in_order_planned = [], [], []
    program, written = pa.TypeModel(), []
    for obj in objs:
        before = _contracts_made(program)
        t, data = _timed(program.serialize, obj)
        in_order_ser.append(t)
        in_order_planned.append(_contracts_made(program) - before)
        written.append(data)
    program = pa.TypeModel()  # their first deserializes, on a model of their own
    for c, data in zip(classes, written, strict=True):
        in_order_de.append(_timed(program.deserialize, c, data)[0])

    # compile() of the whole model
    model = pa.TypeModel()
    for c in classes:
        model.add(c)
    compile_ns, _ = _timed(model.compile)
    datas = []
    first_ser_c, first_de_c, steady_ser, steady_de = [], [], [], []
    mismatches: list[str] = []
    for c, obj in zip(classes, objs, strict=True):
        t, data = _timed(model.serialize, obj)
        first_ser_c.append(t)
        t, back = _timed(model.deserialize, c, data)
        first_de_c.append(t)
        if back != obj:
            mismatches.append(c.__name__)
        datas.append(data)
        steady_ser.append(_steady(model.serialize, obj))
        steady_de.append(_steady(model.deserialize, c, data))

    # no compile(): each class in a fresh model, first call plans its contract and every
    # contract its value holds (counted: that is not one contract's cost)
    first_ser_l, first_de_l, reached, per_planned, alone = [], [], [], [], []
    for c, obj, data in zip(classes, objs, datas, strict=True):
        fresh = pa.TypeModel()
        t = _timed(fresh.serialize, obj)[0]
        first_ser_l.append(t)
        planned = _contracts_made(fresh)
        reached.append(planned)
        per_planned.append(t / max(planned, 1))
        if planned == 1:
            alone.append(t)
        first_de_l.append(_timed(pa.TypeModel().deserialize, c, data)[0])

    med = statistics.median
    return {
        "first_serialize_us_in_order": med(in_order_ser) / 1e3,
        "first_deserialize_us_in_order": med(in_order_de) / 1e3,
        "first_serialize_in_order_contracts_planned": med(in_order_planned),
        "declare_us_per_contract": med(declare) / 1e3,
        "compile_us_per_contract": compile_ns / n / 1e3,
        "compile_ms_total": compile_ns / 1e6,
        "first_serialize_us_lazy": med(first_ser_l) / 1e3,
        "first_deserialize_us_lazy": med(first_de_l) / 1e3,
        "first_serialize_contracts_planned": med(reached),
        "first_serialize_us_lazy_per_contract_planned": med(per_planned) / 1e3,
        "first_serialize_us_lazy_single": med(alone) / 1e3 if alone else float("nan"),
        "first_serialize_us_compiled": med(first_ser_c) / 1e3,
        "first_deserialize_us_compiled": med(first_de_c) / 1e3,
        "steady_serialize_us": med(steady_ser) / 1e3,
        "steady_deserialize_us": med(steady_de) / 1e3,
        "encoded_bytes_median": med(len(d) for d in datas),
        "round_trip_mismatches": mismatches,
    }


def _contracts_made(model: Any) -> int:
    """How many contracts' codecs ``model`` has made (its plans set up, on the native
    backend: a plan waiting for its first use has cost its vetting only)."""
    native = getattr(model, "_native", None)
    if native is not None:
        return sum(1 for plan in native.plans.values() if plan.ready) + len(native.reasons)
    return sum(1 for codec in model._codecs.values() if codec.compiled)


def write_aot(directory: str) -> None:
    """Compile the default model's contracts and write them with ``model.write_module``."""
    import protoattr as pa

    for c in load_contracts(directory).CLASSES:
        pa.proto_contract(c)
    pa.default_model.compile()
    pa.default_model.write_module(Path(directory, f"{CODECS_MODULE}.py"))


def measure_aot(directory: str) -> dict[str, Any]:
    """A fresh process that imports the ahead-of-time module instead of generating code."""
    import protoattr as pa

    mod = load_contracts(directory)
    classes, makers = mod.CLASSES, mod.MAKERS
    for c in classes:
        pa.proto_contract(c)
    objs = [make(2) for make in makers]
    import_ns, _ = _timed(importlib.import_module, CODECS_MODULE)
    first_ser, first_de, mismatches = [], [], []
    for c, obj in zip(classes, objs, strict=True):
        t, data = _timed(pa.serialize, obj)
        first_ser.append(t)
        t, back = _timed(pa.deserialize, c, data)
        first_de.append(t)
        if back != obj:
            mismatches.append(c.__name__)
    med = statistics.median
    return {
        "aot_import_ms_total": import_ns / 1e6,
        "aot_import_us_per_contract": import_ns / len(classes) / 1e3,
        "first_serialize_us_aot": med(first_ser) / 1e3,
        "first_deserialize_us_aot": med(first_de) / 1e3,
        "round_trip_mismatches": mismatches,
    }


ROWS = [
    ("proto_contract() per class (declare, validate)", "declare_us_per_contract"),
    ("model.compile() per contract", "compile_us_per_contract"),
    ("model.compile() total, ms", "compile_ms_total"),
    ("first serialize, no compile() (generates codecs)", "first_serialize_us_lazy"),
    ("first deserialize, no compile() (generates codecs)", "first_deserialize_us_lazy"),
    (
        "  contracts that first serialize plans (it and those its value holds)",
        "first_serialize_contracts_planned",
    ),
    ("  that first serialize per contract planned", "first_serialize_us_lazy_per_contract_planned"),
    (
        "  a first serialize that planned one contract",
        "first_serialize_us_lazy_single",
    ),
    (
        "first serialize, no compile(), one model, in declaration order",
        "first_serialize_us_in_order",
    ),
    (
        "first deserialize, no compile(), one model, in declaration order",
        "first_deserialize_us_in_order",
    ),
    ("  contracts each of those serializes plans", "first_serialize_in_order_contracts_planned"),
    ("first serialize after compile()", "first_serialize_us_compiled"),
    ("first deserialize after compile()", "first_deserialize_us_compiled"),
    ("write_module() file: size, MB", "aot_module_mb"),
    ("its import, no .pyc, PYTHONDONTWRITEBYTECODE=1, total, ms", "aot_import_ms_no_pyc"),
    ("its import, its own .pyc, PYTHONDONTWRITEBYTECODE=1, ms", "aot_import_ms_dont_write_pyc"),
    ("its import with its .pyc, per contract", "aot_import_us_per_contract"),
    ("its import with its .pyc, total, ms", "aot_import_ms_total"),
    ("first serialize after that import", "first_serialize_us_aot"),
    ("first deserialize after that import", "first_deserialize_us_aot"),
    ("steady-state serialize", "steady_serialize_us"),
    ("steady-state deserialize", "steady_deserialize_us"),
]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.cold_start")
    p.add_argument("--contracts", type=int, default=200)
    p.add_argument("--runs", type=int, default=5, help="fresh processes (median is shown)")
    p.add_argument("--json", metavar="PATH")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--child", choices=("measure", "write-aot", "aot"), help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child == "measure":
        sys.stdout.write(json.dumps(measure_once(a.dir)) + "\n")
        return 0
    if a.child == "write-aot":
        write_aot(a.dir)
        return 0
    if a.child == "aot":
        sys.stdout.write(json.dumps(measure_aot(a.dir)) + "\n")
        return 0

    directory = tempfile.mkdtemp(prefix="protoattr-cold-start-")
    Path(directory, f"{MODULE}.py").write_text(contracts_source(a.contracts))

    def child(kind: str, env: dict[str, str] | None = None) -> dict[str, Any] | None:
        cmd = [
            sys.executable,
            "-m",
            "benchmarks.cold_start",
            f"--child={kind}",
            f"--dir={directory}",
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            raise SystemExit(1)
        lines = proc.stdout.strip().splitlines()
        return json.loads(lines[-1]) if lines else None

    runs: list[dict[str, Any]] = []
    for r in range(a.runs):
        runs.append(child("measure") or {})
        print(f"  run {r + 1}/{a.runs}: generate and compile", file=sys.stderr)
    child("write-aot")
    aot_file = Path(directory, f"{CODECS_MODULE}.py")
    pyc = Path(importlib.util.cache_from_source(str(aot_file)))
    written = pyc.read_bytes()  # write_module writes the module's .pyc beside it
    dont_write = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # With no bytecode cache and PYTHONDONTWRITEBYTECODE=1 (common in containers),
    # Python compiles the written source at every start: what each start cost
    # before write_module wrote the .pyc.
    pyc.unlink()
    no_pyc = child("aot", env=dont_write) or {}
    # The same start with the .pyc that write_module wrote.
    pyc.write_bytes(written)
    dont_write_pyc = child("aot", env=dont_write) or {}
    for r in range(a.runs):
        aot = child("aot") or {}
        runs[r]["round_trip_mismatches"] += aot.pop("round_trip_mismatches")
        runs[r].update(aot)
        print(f"  run {r + 1}/{a.runs}: ahead of time", file=sys.stderr)
    for run in runs:
        run["aot_import_ms_no_pyc"] = no_pyc["aot_import_ms_total"]
        run["aot_import_ms_dont_write_pyc"] = dont_write_pyc["aot_import_ms_total"]
        run["aot_module_mb"] = aot_file.stat().st_size / 1e6
    keys = [k for k in runs[0] if k != "round_trip_mismatches"]
    med = {k: statistics.median(run[k] for run in runs) for k in keys}
    bad = runs[0]["round_trip_mismatches"]
    title = (
        f"cold start: {a.contracts} generated contracts, median of {a.runs} fresh processes "
        f"(per-contract figures are medians over the contracts; µs unless marked)"
    )
    steady_s, steady_d = med["steady_serialize_us"], med["steady_deserialize_us"]

    def vs(key: str) -> str:
        base = steady_d if "deserialize" in key else steady_s
        counted = key.endswith("_planned")  # a number of contracts, not a time
        return f"{med[key] / base:.1f}x steady" if "first" in key and not counted else ""

    if a.markdown:
        print(f"**{title}**\n\n| measurement | value | vs steady state |\n|:---|---:|---:|")
        for label, key in ROWS:
            print(f"| {label} | {med[key]:,.1f} | {vs(key)} |")
    else:
        print(title)
        for label, key in ROWS:
            print(f"  {label:<50} {med[key]:>10,.1f}  {vs(key)}")
        print(f"  (median encoded message: {med['encoded_bytes_median']:.0f} bytes)")
    if bad:
        print(
            f"WARNING: deserialize(serialize(x)) != x for {len(bad)} of {a.contracts} contracts "
            f"({', '.join(bad[:8])}{', ...' if len(bad) > 8 else ''}); timings are still shown",
            file=sys.stderr,
        )
    if a.json:
        Path(a.json).write_text(json.dumps({"medians": med, "runs": runs}, indent=1) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
