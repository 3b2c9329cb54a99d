"""Run every benchmark: ``python -m benchmarks`` (or ``python benchmarks/run.py``).

Each library is timed in a subprocess of its own (``benchmarks._worker``), the
libraries interleaved in a rotating order, for ``--runs`` runs; the tables show
the median of the runs, each run's figure being the best of ``--repeat``
auto-ranged loops.  Before timing, every peer's round trip is checked, and
protoattr's bytes are compared with Google's (see ``benchmarks/_verify.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _protoc, _report, _verify
from benchmarks.peers import ONLY, PEERS
from benchmarks.workloads import WORKLOADS

ROOT = Path(__file__).resolve().parent.parent


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in lscpu.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return {
        "loadavg_before": _loadavg(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def _loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def _busy_cores(interval: float = 0.5) -> float | None:
    """CPUs' worth of non-idle time over ``interval`` (Linux ``/proc/stat``), else None."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return sum(fields), idle

    try:
        total0, idle0 = sample()
        time.sleep(interval)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    total = total1 - total0
    return (os.cpu_count() or 1) * (1 - (idle1 - idle0) / total) if total else 0.0


def wait_quiet(max_wait: float) -> bool:
    """Wait up to ``max_wait`` s for the machine to be (nearly) idle; True if it was."""
    deadline = time.monotonic() + max_wait
    while True:
        busy = _busy_cores()
        if busy is None or busy < 0.5:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(2.0)


def run_worker(
    lib: str, workload: str, args: argparse.Namespace, env: dict[str, str]
) -> dict[str, Any]:
    cmd = [
        sys.executable,
        "-m",
        "benchmarks._worker",
        lib,
        f"--min-time={args.min_time}",
        f"--repeat={args.repeat}",
        f"--scale={args.scale}",
        f"--workloads={workload}",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return {
            "lib": lib,
            "workloads": {workload: {"error": f"worker exited {proc.returncode}"}},
            "error": f"worker exited {proc.returncode}: {proc.stderr[-2000:]}",
        }
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: 1 run, short loops, 1/10 sizes")
    p.add_argument("--runs", type=int, default=None, help="subprocess runs per library (5)")
    p.add_argument("--repeat", type=int, default=None, help="timed loops per run, best kept (3)")
    p.add_argument("--min-time", type=float, default=None, help="seconds per timed loop (0.2)")
    p.add_argument("--libs", default=",".join(PEERS), help="comma-separated subset")
    p.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated subset")
    p.add_argument("--json", metavar="PATH", help="write all results and medians as JSON")
    p.add_argument("--chart", metavar="PATH", help="write a PNG chart (needs matplotlib)")
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    p.add_argument("--no-verify", action="store_true", help="skip the correctness checks")
    p.add_argument(
        "--wait-quiet",
        type=float,
        default=0.0,
        metavar="S",
        help="before each worker, wait up to S seconds for other processes to go idle",
    )
    p.add_argument("--report", metavar="PATH", help="re-print (and chart) a saved --json; no run")
    a = p.parse_args(argv)
    a.libs = [x for x in a.libs.split(",") if x]
    a.workloads = [x for x in a.workloads.split(",") if x]
    unknown = [x for x in a.libs if x not in PEERS] + [x for x in a.workloads if x not in WORKLOADS]
    if unknown:
        p.error(f"unknown library or workload: {', '.join(unknown)}")
    a.runs = a.runs or (1 if a.quick else 5)
    a.repeat = a.repeat or (1 if a.quick else 3)
    a.min_time = a.min_time or (0.01 if a.quick else 0.2)
    a.scale = 0.1 if a.quick else 1.0
    return a


def report_saved(args: argparse.Namespace) -> int:
    payload = json.loads(Path(args.report).read_text())
    libs = [x for x in args.libs if x in payload["versions"]]
    workloads = payload["config"]["workloads"]
    runs = payload["config"]["runs"]
    med = _report.medians(payload["runs"])
    m = payload["machine"]
    print(f"machine: {m['cpu']}, {m['cpus']} CPUs, {m['os']}, {m['python']}\n")
    print(f"time per operation (µs), median of {runs} run(s); x upb = ratio to google-upb\n")
    print(_report.table(med, libs, workloads, args.markdown))
    if "protoattr" in libs:
        print()
        print(_report.targets_table(_report.targets(med, workloads), workloads, args.markdown))
    if args.chart:
        _report.chart(med, libs, workloads, args.chart)
        print(f"chart written to {args.chart}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report:
        return report_saved(args)
    started = time.time()
    pb2_dir = tempfile.mkdtemp(prefix="protoattr-bench-pb2-")
    _protoc.compile_protos(pb2_dir)
    os.environ[_protoc.ENV_DIR] = pb2_dir
    pb_dir = tempfile.mkdtemp(prefix="protoattr-bench-protobuf-py-")
    _protoc.compile_protobuf_py(pb_dir)
    os.environ[_protoc.ENV_DIR_PB] = pb_dir
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    info = machine()
    print(f"machine: {info['cpu']}, {info['cpus']} CPUs, {info['os']}, {info['python']}")
    if args.quick:
        print("--quick: 1 run, 10 ms loops, boilers and dns at 1/10 size (700 and 500 records)")

    verification: dict[str, Any] = {"checks": [], "failed": False}
    if not args.no_verify:
        verification = _verify.verify(args.libs, args.workloads, args.scale)
        print("\ncorrectness checks:")
        print(_verify.format_checks(verification))

    runs: list[dict[str, Any]] = []
    for r in range(args.runs):
        # Per workload, the libraries back to back (in an order rotating per run),
        # each in a fresh process: per-run ratios then compare like with like.
        for w in args.workloads:
            libs = [lib for lib in args.libs if w in ONLY.get(lib, WORKLOADS)]
            k = r % len(libs)
            for lib in libs[k:] + libs[:k]:
                quiet = wait_quiet(args.wait_quiet) if args.wait_quiet else None
                t0 = time.perf_counter()
                res = run_worker(lib, w, args, env)
                res["run"] = r
                res["machine_was_quiet"] = quiet
                runs.append(res)
                note = f"  ERROR {res['error'][-300:]}" if "error" in res else ""
                took = time.perf_counter() - t0
                print(
                    f"  run {r + 1}/{args.runs} {w:<8} {lib:<15} {took:5.1f} s{note}",
                    file=sys.stderr,
                )

    versions = {}
    for res in runs:
        versions.setdefault(res["lib"], res.get("version", "?"))
    med = _report.medians(runs)
    tg = _report.targets(med, args.workloads) if "protoattr" in args.libs else []

    print("\nversions:")
    for lib in args.libs:
        print(f"  {lib:<15} {versions.get(lib, '?')}")
    print(f"\ntime per operation (µs), median of {args.runs} run(s); x upb = ratio to google-upb\n")
    print(_report.table(med, args.libs, args.workloads, args.markdown))
    print(_report.noise_note(med, args.workloads))
    if tg:
        print()
        print(_report.targets_table(tg, args.workloads, args.markdown))
    if args.wait_quiet:
        noisy = sum(1 for res in runs if res.get("machine_was_quiet") is False)
        print(f"\n{noisy} of {len(runs)} workers started while other processes were busy")
    info["loadavg_after"] = _loadavg()
    print(f"\nload average before / after: {info['loadavg_before']} / {info['loadavg_after']}")
    print(f"total {time.time() - started:.0f} s")

    if args.json:
        payload = {
            "machine": info,
            "config": {k: v for k, v in vars(args).items() if k not in ("json", "chart")},
            "versions": versions,
            "verification": verification,
            "medians": {
                lib: {w: {k: v for k, v in r.items() if k != "samples"} for w, r in ws.items()}
                for lib, ws in med.items()
            },
            "targets": tg,
            "runs": runs,
        }
        Path(args.json).write_text(json.dumps(payload, indent=1) + "\n")
        print(f"results written to {args.json}")
    if args.chart:
        try:
            _report.chart(med, args.libs, args.workloads, args.chart)
            print(f"chart written to {args.chart}")
        except ImportError:
            print("--chart needs matplotlib (pip install -e '.[bench]')", file=sys.stderr)
    failed = verification["failed"] or any(
        "error" in r or any("error" in x for x in r["workloads"].values()) for r in runs
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
