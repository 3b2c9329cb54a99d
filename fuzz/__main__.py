"""Run the fuzz targets: ``python -m fuzz run --target all --seconds 60``.

Commands (run from the repository root; ``pip install -e '.[test,fuzz]'``):

``list``
    the targets and what each checks.
``run [--target all|a,b] [--seconds N] [--seed N] [--backend NAME] [--engine E]``
    fuzz each target in its own process for its share of ``--seconds``, starting
    from the committed seed corpus (``fuzz/corpus/<target>/``); new inputs go to
    ``.fuzz/corpus/<target>/`` and findings to ``.fuzz/findings/``.  ``--engine``
    is ``atheris`` (coverage-guided, the default when installed) or ``random``
    (seeded mutations, no extra package).  ``--backend`` sets ``PROTOATTR_BACKEND``.
``ci``
    ``run --target all --seconds 60 --seed 1``: the bounded pass CI runs; exits 1
    on any finding.
``replay [--target ...] [paths...]``
    run the seed corpus (or the given files) through the targets once.
``seeds``
    rewrite ``fuzz/corpus/`` from the targets' sample values.

Exit status: 0 when no target found anything, 1 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import os
import random
import re
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = HERE / "corpus"
WORK = ROOT / ".fuzz"


def _targets(spec: str) -> list[str]:
    from .targets import all_targets

    names = list(all_targets())
    if spec == "all":
        return names
    wanted = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in names]
    if unknown:
        raise SystemExit(f"unknown target(s) {unknown}; known: {', '.join(names)}")
    return wanted


def _engine(requested: str | None) -> str:
    if requested:
        return requested
    try:
        import atheris  # noqa: F401
    except ImportError:
        return "random"
    return "atheris"


# -- one target, in this process ------------------------------------------------------


def _worker(name: str, seconds: float, seed: int, engine: str) -> int:
    corpus = WORK / "corpus" / name
    findings = WORK / "findings"
    corpus.mkdir(parents=True, exist_ok=True)
    findings.mkdir(parents=True, exist_ok=True)
    seeds = CORPUS / name
    if engine == "atheris":
        import atheris

        from .targets import all_targets

        target = all_targets()[name]()
        _instrument(atheris, target.model)
        args = [
            sys.argv[0], str(corpus), str(seeds),
            f"-max_total_time={max(1, int(seconds))}", f"-seed={seed}", "-timeout=10",
            "-rss_limit_mb=2048", "-max_len=4096", "-print_final_stats=1",
            f"-artifact_prefix={findings}/{name}-",
        ]  # fmt: skip
        mutate = target.mutate
        if mutate is not None:  # the target's own (token-level) mutations
            pool = [p.read_bytes() for p in sorted(seeds.glob("*"))] or [b""]

            def custom(data: bytes, max_size: int, seed: int) -> bytes:
                assert mutate is not None
                return mutate(random.Random(seed), data, pool)[:max_size]

            atheris.Setup(args, target.check, custom_mutator=custom)
        else:
            atheris.Setup(args, target.check)
        atheris.Fuzz()
        return 0
    from .targets import all_targets

    target = all_targets()[name]()
    return _random_engine(target, seconds, seed, seeds, findings)


#: generated functions bigger than this (TestAllTypes' codecs) take minutes to instrument
_MAX_INSTRUMENTED = 30_000


def _instrument(atheris: Any, model: Any) -> None:
    """Coverage for the decoder: the wire and runtime helpers and the generated codecs
    (compiled at run time, so no import hook sees them)."""
    from protoattr._core import wire as _wire
    from protoattr._python import runtime as _runtime

    for module in (_runtime, _wire):
        for value in list(vars(module).values()):
            if inspect.isfunction(value) and value.__module__ == module.__name__:
                atheris.instrument_func(value)
    for codec in list(model._codecs.values()) if model is not None else []:
        for fn in (codec.decode, codec.encode):
            code = getattr(fn, "__code__", None)
            if code is not None and len(code.co_code) <= _MAX_INSTRUMENTED:
                atheris.instrument_func(fn)


_INTERESTING = [
    b"\x00", b"\x7f", b"\x80\x01", b"\xff\xff\xff\xff\x0f", b"\xff" * 9 + b"\x01",
    b"\x80" * 10, b"\x0b", b"\x0c", b"\xba\x01\x00", b"\x82\x03\x02\x12\x00",
]  # fmt: skip


def _mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        at = rng.randint(0, len(buf))
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif op == 2:
            buf[at:at] = rng.choice(_INTERESTING)
        elif op == 3 and buf:
            del buf[at : at + rng.randint(1, 8)]
        elif op == 4 and buf:
            start = rng.randrange(len(buf))
            buf[at:at] = buf[start : start + rng.randint(1, 16)]
        elif op == 5:
            other = rng.choice(pool)
            buf[at:] = other[rng.randint(0, len(other)) :]
        else:
            buf = buf[: rng.randint(0, len(buf))]
    return bytes(buf[:4096])


def _random_engine(target: object, seconds: float, seed: int, seeds: Path, findings: Path) -> int:
    from .targets import Target

    assert isinstance(target, Target)
    pool = [p.read_bytes() for p in sorted(seeds.glob("*"))] or [b""]
    rng = random.Random(seed)
    runs = 0
    start = time.monotonic()
    mutate = target.mutate or _mutate
    while time.monotonic() - start < seconds:
        data = mutate(rng, rng.choice(pool), pool)
        runs += 1
        try:
            target.check(data)
        except Exception:
            path = findings / f"{target.name}-crash-{hashlib.sha1(data).hexdigest()}"
            path.write_bytes(data)
            traceback.print_exc()
            print(f"==finding== {path} ({data.hex()[:200]})", file=sys.stderr)
            return 1
        if runs % 64 == 0 and len(pool) < 256:
            pool.append(data)  # no coverage here: keep some mutants as parents
    elapsed = time.monotonic() - start
    print(f"stat::number_of_executed_units: {runs}", file=sys.stderr)
    print(f"stat::average_exec_per_sec: {int(runs / max(elapsed, 1e-9))}", file=sys.stderr)
    return 0


# -- the runner ------------------------------------------------------------------------


def _run(names: list[str], seconds: float, seed: int, engine: str, backend: str | None) -> int:
    env = dict(os.environ)
    if backend:
        env["PROTOATTR_BACKEND"] = backend
    share = seconds / len(names)
    total_runs = 0
    failed: list[str] = []
    print(f"fuzzing {len(names)} target(s), {share:.0f} s each, engine {engine}, seed {seed}"
          + (f", backend {backend}" if backend else ""))  # fmt: skip
    for name in names:
        began = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "fuzz", "_worker", name, str(share), str(seed), engine],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )  # fmt: skip
        took = time.monotonic() - began
        runs = _stat(proc.stderr, "number_of_executed_units")
        rate = _stat(proc.stderr, "average_exec_per_sec")
        total_runs += runs
        status = "ok" if proc.returncode == 0 else f"FINDING (exit {proc.returncode})"
        print(f"  {name:<12} {runs:>9} inputs  {rate:>6}/s  {took:6.1f} s  {status}")
        if proc.returncode != 0:
            failed.append(name)
            tail = "\n".join(proc.stderr.splitlines()[-40:])
            print(tail, file=sys.stderr)
    print(
        f"{total_runs} inputs, {len(failed)} target(s) with findings"
        + (f": {failed}" if failed else "")
    )
    return 1 if failed else 0


def _stat(text: str, name: str) -> int:
    found = re.findall(rf"stat::{name}:\s*(\d+)", text)
    return int(found[-1]) if found else 0


def _replay(names: list[str], paths: list[str]) -> int:
    from .targets import all_targets

    builders = all_targets()
    bad = 0
    for name in names:
        target = builders[name]()
        files = [Path(p) for p in paths] or sorted((CORPUS / name).glob("*"))
        for path in files:
            try:
                target.check(path.read_bytes())
            except Exception as exc:
                bad += 1
                print(f"{name}: {path}: {type(exc).__name__}: {exc}")
        print(f"{name}: {len(files)} input(s) replayed")
    return 1 if bad else 0


def _write_seeds(names: list[str]) -> int:
    from .targets import all_targets

    builders = all_targets()
    for name in names:
        folder = CORPUS / name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*"):
            old.unlink()
        for data in builders[name]().seeds():
            (folder / f"seed-{hashlib.sha1(data).hexdigest()[:12]}").write_bytes(data)
        print(f"{name}: {len(list(folder.glob('*')))} seed(s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_worker"]:
        name, seconds, seed, engine = argv[1:5]
        return _worker(name, float(seconds), int(seed), engine)
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    for command in ("run", "ci"):
        p = sub.add_parser(command)
        p.add_argument("--target", default="all")
        p.add_argument("--seconds", type=float, default=60.0)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--backend", default=os.environ.get("PROTOATTR_BACKEND"))
        p.add_argument("--engine", choices=["atheris", "random"], default=None)
    p = sub.add_parser("replay")
    p.add_argument("--target", default="all")
    p.add_argument("paths", nargs="*")
    p = sub.add_parser("seeds")
    p.add_argument("--target", default="all")
    args = parser.parse_args(argv)
    if args.command == "list":
        from .targets import all_targets

        for name, build in all_targets().items():
            print(f"{name:<12} {build().about}")
        return 0
    if args.command in ("run", "ci"):
        return _run(
            _targets(args.target), args.seconds, args.seed, _engine(args.engine), args.backend
        )
    if args.command == "replay":
        return _replay(_targets(args.target), args.paths)
    return _write_seeds(_targets(args.target))


if __name__ == "__main__":
    sys.exit(main())
