"""One command for the published figures: ``python -m benchmarks.report``.

Runs every benchmark that has a figure on ``docs/benchmarks.md``'s summary, each
in a fresh process of its own (a failure or a timeout in one is reported in its
place and the others still run), then rewrites the part of ``docs/benchmarks.md``
between ``<!-- report:begin -->`` and ``<!-- report:end -->`` (date, commit,
machine, the tables) and the chart ``docs/img/benchmarks-report.svg``, and saves
every figure to ``benchmarks/results/report-<commit>.json``.

Sections (about 4 to 5 minutes in all on this 2-CPU machine under a load of 5):

``binary``   the interleaved best-of of ``benchmarks/best_of.py``: protoattr (native
             and Python backends), Google upb, protobuf-py and msgspec, serialize
             and deserialize, on every workload, GoogleMessage1 included;
``harness``  ``python -m benchmarks`` for the same libraries, three runs (each library in
             a process of its own, in a rotating order, correctness checks first): the
             harness's medians (one run's ratios moved by up to 0.11x between two runs);
``json``     ``benchmarks/json_bench.py``'s canonical JSON against json_format,
             protobuf-py, msgspec.json and orjson;
``streams``  ``benchmarks/streams.py`` on 1,000,000 DNS records (``--records``);
``startup``  ``benchmarks/cold_start.py``, one fresh-process run over 200 contracts, and
             ``import protoattr`` (and ``google.protobuf.timestamp_pb2``) in 5 fresh processes.

After the tables, the issue's targets that these figures decide, met or missed.

``--render benchmarks/results/report-<sha>.json`` rewrites the page and the chart
from a saved run without measuring anything.  ``--sections binary,json`` runs a
subset (a report is one run: the sections left out are not on the page);
``--quick`` is a smoke run (small sizes, short loops; it writes to a temporary
directory unless ``--docs`` names the page).
"""

from __future__ import annotations

import argparse
import datetime
import html
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.workloads import ARTICLES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
CHART = "img/benchmarks-report.svg"
BEGIN, END = "<!-- report:begin -->", "<!-- report:end -->"
SECTIONS = ("binary", "harness", "json", "streams", "startup")
BINARY_LIBS = ("protoattr", "protoattr-python", "google-upb", "protobuf-py", "msgspec")
#: the harness's runs per library (their medians are the section's figures)
HARNESS_RUNS = 3
TIMEOUT_S = {"binary": 240, "harness": 420, "json": 180, "streams": 180, "startup": 300}


# --- the sections, each run in a child process -----------------------------------


def section_binary(quick: bool) -> dict[str, Any]:
    from benchmarks import best_of
    from benchmarks.peers import load

    rounds, scale = (1, 0.05) if quick else (11, 1.0)
    libs, skipped = [], {}
    for lib in BINARY_LIBS:  # a peer that cannot load is left out, and said so
        try:
            load(lib)
            libs.append(lib)
        except Exception as exc:
            skipped[lib] = f"{type(exc).__name__}: {exc}"
    best = best_of.measure(libs, rounds, scale)
    out: dict[str, Any] = {"rounds": rounds, "scale": scale, "skipped": skipped, "us": {}}
    for (lib, w, op), s in best.items():
        out["us"].setdefault(w, {}).setdefault(lib, {})[op] = s * 1e6
    return out


def section_harness(quick: bool) -> dict[str, Any]:
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        cmd = [sys.executable, "-m", "benchmarks", f"--libs={','.join(BINARY_LIBS)}"]
        cmd += ["--quick"] if quick else [f"--runs={HARNESS_RUNS}", "--min-time=0.05"]
        proc = subprocess.run([*cmd, f"--json={path}"], cwd=ROOT, capture_output=True, text=True)
        payload: dict[str, Any] = json.loads(Path(path).read_text())
    finally:
        os.unlink(path)
    failed = [c for c in payload["verification"]["checks"] if not c["ok"]]
    return {
        "command": " ".join(["python", *cmd[1:]]),
        "exit": proc.returncode,
        "failed_checks": failed,
        "workloads": payload["config"]["workloads"],
        "runs": payload["runs"],
    }


def section_json(quick: bool) -> dict[str, Any]:
    from benchmarks import json_bench

    min_time, repeat = (0.005, 1) if quick else (0.05, 2)
    return {"peers": list(json_bench.PEERS), "rows": json_bench.run(min_time, repeat)}


def section_streams(quick: bool, records: int) -> dict[str, Any]:
    from benchmarks import streams

    return streams.measure(20_000 if quick else records, 1 if quick else 3)


# protoattr, and for comparison Google's runtime with its upb extension loaded (what a
# module of generated classes imports before its own descriptors).
IMPORTS = ("protoattr", "google.protobuf.timestamp_pb2")
IMPORT_PROBE = (
    "import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1e3)"
)


def import_ms(module: str, runs: int) -> float:
    """Median wall time of ``import module`` in ``runs`` fresh processes, ms."""
    times = []
    for _ in range(runs):
        cmd = [sys.executable, "-c", IMPORT_PROBE.format(module=module)]
        out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
        times.append(float(out.split()[-1]))
    return statistics.median(times)


def section_startup(quick: bool) -> dict[str, Any]:
    runs = 1 if quick else 5
    imports = {m: import_ms(m, runs) for m in IMPORTS}
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        n = "20" if quick else "200"
        cmd = [sys.executable, "-m", "benchmarks.cold_start", "--runs=1", f"--contracts={n}"]
        subprocess.run([*cmd, f"--json={path}"], cwd=ROOT, check=True, capture_output=True)
        medians: dict[str, Any] = json.loads(Path(path).read_text())["medians"]
        # protoattr's own share against upb's import-to-first-use of the same messages
        cmd = [sys.executable, "-m", "benchmarks.cold_start_upb", f"--runs={runs}"]
        subprocess.run([*cmd, f"--contracts={n}", f"--json={path}"], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        upb_run = json.loads(Path(path).read_text())["medians"]
        versus_upb = {kind: m["own_ms"] for kind, m in upb_run.items()}
    finally:
        os.unlink(path)
    return {"contracts": int(n), "medians": medians, "import_ms": imports, "import_runs": runs,
            "versus_upb": versus_upb}  # fmt: skip


def run_section(name: str, quick: bool, records: int) -> dict[str, Any]:
    """Run one section in a fresh process; ``{"error": ...}`` if it failed or timed out."""
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    cmd = [sys.executable, "-m", "benchmarks.report", f"--child={name}", f"--out={path}"]
    cmd += [f"--records={records}"] + (["--quick"] if quick else [])
    path_env = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path_env}
    t0 = time.perf_counter()
    # A session of its own, so that a timeout ends the section's own children too
    # (the harness's workers, cold_start's fresh processes), and nothing else.
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, stderr = proc.communicate(timeout=TIMEOUT_S[name])
        if proc.returncode != 0:
            return {"error": f"exited {proc.returncode}: {stderr.strip()[-600:]}"}
        result: dict[str, Any] = json.loads(Path(path).read_text())
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"error": f"timed out after {TIMEOUT_S[name]} s"}
    finally:
        os.unlink(path)
    result["elapsed_s"] = round(time.perf_counter() - t0, 1)
    return result


# --- the page ----------------------------------------------------------------------


def _commit() -> str:
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "?"
    return f"{sha}{' (with uncommitted changes)' if dirty else ''}" if sha else "?"


def _us(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 10_000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:,.1f}"
    return f"{x:.2f}"


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}x" if a and b else "-"


def binary_table(sec: dict[str, Any]) -> str:
    us = sec["us"]
    skipped = "".join(
        f"\n\n{lib} was left out: {why}" for lib, why in sec.get("skipped", {}).items()
    )
    head = "| workload | " + " | ".join(f"{lib} ser / de µs" for lib in BINARY_LIBS) + " |"
    lines = [head, "|:---|" + "---:|" * len(BINARY_LIBS)]
    for w, libs in us.items():
        base = libs.get("google-upb", {})
        cells = []
        for lib in BINARY_LIBS:
            r = libs.get(lib)
            if r is None:
                cells.append("-")
                continue
            cell = f"{_us(r['ser'])} / {_us(r['de'])}"
            if lib != "google-upb" and base:
                cell += f" ({_ratio(r['ser'], base['ser'])} / {_ratio(r['de'], base['de'])})"
            cells.append(cell)
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + skipped


def harness_table(sec: dict[str, Any]) -> str:
    from benchmarks import _report

    med = _report.medians(sec["runs"])
    us: dict[str, Any] = {}
    for w in sec["workloads"]:
        for lib in BINARY_LIBS:
            r = med.get(lib, {}).get(w, {})
            if "serialize_ns" in r and "deserialize_ns" in r:
                cell = {"ser": r["serialize_ns"] / 1e3, "de": r["deserialize_ns"] / 1e3}
                us.setdefault(w, {})[lib] = cell
    failed = sec["failed_checks"]
    checks = f"FAILED checks: {failed}" if failed else "all its correctness checks passed"
    return f"`{sec['command']}`; {checks}.\n\n" + binary_table({"us": us})


def json_table(sec: dict[str, Any]) -> str:
    peers = sec["peers"]
    lines = ["| workload | op | " + " | ".join(f"{p} µs" for p in peers) + " |"]
    lines.append("|:---|:---|" + "---:|" * len(peers))
    for r in sec["rows"]:
        cells = [_us(r[f"{peers[0]}_us"])]
        cells += [f"{_us(r[f'{p}_us'])} ({r[f'ratio_{p}']:.2f}x)" for p in peers[1:]]
        lines.append(f"| {r['workload']} | `{r['op']}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def streams_table(sec: dict[str, Any]) -> str:
    from benchmarks.streams import OPS

    n, size, t = sec["records"], sec["bytes"], sec["seconds"]
    lines = [
        f"{n:,} DNS records, {size / 1e6:.1f} MB, best of the rounds:",
        "",
        "| | s | ns per item | MB/s | ÷ hand loop |",
        "|:---|---:|---:|---:|---:|",
    ]
    for op, hand in OPS:
        ratio = _ratio(t[op], t[hand]) if hand else ""
        lines.append(
            f"| {op} | {t[op]:.3f} | {t[op] / n * 1e9:,.0f} | {size / t[op] / 1e6:,.0f} | {ratio} |"
        )
    return "\n".join(lines)


def startup_table(sec: dict[str, Any]) -> str:
    from benchmarks.cold_start import ROWS

    med = sec["medians"]
    lines = [
        f"{sec['contracts']} generated contracts, one fresh-process run "
        "(per-contract figures are medians over the contracts):",
        "",
        "| measurement | value |",
        "|:---|---:|",
    ]
    for module, ms in sec.get("import_ms", {}).items():
        runs = sec.get("import_runs", "?")
        lines.append(f"| `import {module}`, ms (median of {runs} fresh processes) | {ms:,.1f} |")
    lines += [f"| {label} | {med[key]:,.1f} |" for label, key in ROWS if key in med]
    titles = {"compiled": "protoattr's own share, `compile()` first", "lazy":
              "protoattr's own share, no `compile()`", "upb": "upb (google.protobuf)"}  # fmt: skip
    for kind, ms in sec.get("versus_upb", {}).items():
        lines.append(f"| import to first use of all, ms: {titles.get(kind, kind)} | {ms:,.1f} |")
    return "\n".join(lines)


# --- the targets -----------------------------------------------------------


def targets(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(target, where, verdict)`` for every target of the issue these figures decide."""
    out: list[tuple[str, str, str]] = []

    def add(target: str, where: str, value: float | None, bound: float, unit: str = "x") -> None:
        if value is None:
            out.append((target, where, "not measured"))
            return
        met = value >= bound if unit == " MB/s" else value <= bound
        shown = f"{value:.2f}x" if unit == "x" else f"{value:,.1f}{unit}"
        out.append((target, where, f"{'met' if met else 'MISSED'} {shown}"))

    sec = report["sections"]
    for w, libs in sec.get("binary", {}).get("us", {}).items():
        mine, upb = libs.get("protoattr"), libs.get("google-upb")
        for op, bound, label in (("ser", 0.20, "serialize"), ("de", 0.50, "deserialize")):
            r = mine[op] / upb[op] if mine and upb else None
            add(f"{label} <= {bound:.2f}x google-upb", w, r, bound)
    if "runs" in sec.get("harness", {}):
        from benchmarks import _report

        med = _report.medians(sec["harness"]["runs"])
        for w in sec["harness"]["workloads"]:
            for op, bound in (("serialize", 0.20), ("deserialize", 0.50)):
                r = _report.paired_ratio(med, "protoattr", "google-upb", w, op)
                add(f"{op} <= {bound:.2f}x google-upb (harness)", w, r, bound)
    # the JSON targets are the four articles' workloads' (GoogleMessage1 is shown, not judged)
    for row in [r for r in sec.get("json", {}).get("rows", []) if r["workload"] in ARTICLES]:
        for peer, bound in (("protobuf-py", 0.5), ("msgspec.json", 3.0)):
            where = f"{row['workload']} `{row['op']}`"
            add(f"JSON <= {bound}x {peer}", where, row.get(f"ratio_{peer}"), bound)
    streams = sec.get("streams", {})
    if "seconds" in streams:
        t, size = streams["seconds"], streams["bytes"]
        where = f"{streams['records']:,} DNS records"
        for op, hand in (("deserialize_items", "read"), ("serialize_items", "write")):
            add(f"`{op}` <= 1.1x the hand loop", where, t[op] / t[f"hand loop ({hand})"], 1.1)
            add(f"`{op}` >= 150 MB/s", where, size / t[op] / 1e6, 150, " MB/s")
    startup = sec.get("startup", {})
    if "medians" in startup:
        ms = startup.get("import_ms", {}).get("protoattr")
        add("`import protoattr` <= 30 ms", "fresh processes, median", ms, 30, " ms")
        # two readings, both judged: the issue's 168 µs baseline is "the first call on a
        # contract" (one contract planned per call, as a program meets its contracts in
        # order); its "1.5 ms in the suite's own cold-start benchmark" is the fresh-model
        # figure, a first call that plans every contract its value holds
        medians = startup["medians"]
        n = startup["contracts"]
        in_order = medians.get("first_serialize_us_in_order")
        if in_order is not None:
            where = (f"cold_start: {n} contracts, one model, each class's first serialize in "
                     "declaration order (one contract planned per call), median")  # fmt: skip
            add("first call without `compile()` <= 100 µs", where, in_order, 100, " µs")
        first = medians.get("first_serialize_us_lazy")
        where = f"cold_start: {n} contracts, a fresh model each, median"
        planned = medians.get("first_serialize_contracts_planned")
        if planned is not None:  # what the call measured: not one contract's planning
            single = medians.get("first_serialize_us_lazy_single")
            where += (
                f"; each call plans its contract and those its value holds ({planned:,.0f} at "
                f"the median; a call planning one: {single:,.1f} µs)"
            )
        add("first call without `compile()` <= 100 µs", where, first, 100, " µs")
    own = startup.get("versus_upb")
    if own:
        where = (f"cold_start_upb: {startup['contracts']} contracts, import to first use, "
                 f"median of {startup.get('import_runs', '?')}")  # fmt: skip
        for kind in ("compiled", "lazy"):
            add(f"own start-up ({kind}) <= 1.5x upb's", where, own[kind] / own["upb"], 1.5)
    return out


def targets_table(report: dict[str, Any]) -> str:
    rows = targets(report)
    met = sum(1 for *_, v in rows if v.startswith("met"))
    lines = [
        f"{met} of {len(rows)} met in this run.",
        "",
        "| target | where | this run |",
        "|:---|:---|:---|",
    ]
    lines += [f"| {t} | {w} | {v} |" for t, w, v in rows]
    return "\n".join(lines)


TABLES = {
    "binary": (
        "Binary, interleaved best-of in one process (µs per call; in brackets the "
        "ratio to google-upb, serialize / deserialize)",
        binary_table,
    ),
    "harness": (
        f"Binary, the harness (one process per library, median of {HARNESS_RUNS} runs)",
        harness_table,
    ),
    "json": (
        "Canonical JSON, alternating loops in one process (µs per call; in brackets "
        "protoattr's time over the peer's)",
        json_table,
    ),
    "streams": ("Streams of length-prefixed messages", streams_table),
    "startup": ("Start-up", startup_table),
}


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    out = [
        BEGIN,
        "",
        f"Generated by `python -m benchmarks.report` on {report['date']} at commit "
        f"`{report['commit']}`, in {report['seconds']:.0f} s: {m['cpu']}, {m['cpus']} CPUs, "
        f"{m['os']}, {m['python']}; load average {m['loadavg_before']} before and "
        f"{m['loadavg_after']} after. Each section ran in a fresh process; all figures "
        f"are in `benchmarks/results/report-{report['sha']}.json`.",
        "",
        f"![protoattr's time relative to google-upb, per workload]({CHART})",
    ]
    for name, sec in report["sections"].items():
        title, render = TABLES[name]
        out += ["", f"**{title}**", ""]
        if "error" in sec:
            out.append(f"Not measured in this run: {sec['error']}")
            continue
        try:
            out.append(render(sec))
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
            out.append(f"Not shown: the section's figures were incomplete ({exc!r}).")
    out += ["", "**The issue's targets that this run decides**", "", targets_table(report)]
    out += ["", END]
    return "\n".join(out)


def write_page(doc: Path, block: str) -> None:
    """Replace the report block of ``doc`` (appended at the end if it has none)."""
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n## Latest report\n\n" + block + "\n"
    doc.write_text(text, encoding="utf-8")


# --- the chart: a small hand-written SVG (no plotting library needed) ------------


def svg_chart(report: dict[str, Any]) -> str:
    """Horizontal bars: each library's time / google-upb's, per workload and operation."""
    sec = report["sections"].get("binary", {})
    us = sec.get("us", {})
    libs = [lib for lib in BINARY_LIBS if lib != "google-upb"]
    colours = dict(zip(libs, ("#1b6ca8", "#7fb3d5", "#e08e45", "#6aa84f"), strict=False))
    rows: list[tuple[str, str, float]] = []
    for w, by_lib in us.items():
        base = by_lib.get("google-upb")
        for op, label in (("ser", "serialize"), ("de", "deserialize")):
            for lib in libs:
                if base and lib in by_lib and base[op]:
                    rows.append((f"{w} {label}", lib, by_lib[lib][op] / base[op]))
    bar, gap, left, width = 9, 8, 170, 420
    top = 58
    # Linear up to 3x upb at most (longer bars are cut there; their labels say the ratio).
    scale_max = min(3.0, max([1.5, *(r for _, _, r in rows)]))
    groups = list(dict.fromkeys(g for g, _, _ in rows))
    height = top + len(groups) * (len(libs) * bar + gap) + 40
    title = "time relative to google-upb (1.0 = upb; lower is faster), interleaved best-of"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" '
        f'height="{height}" font-family="sans-serif" font-size="10">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="8" y="16" font-size="12">{html.escape(title)}</text>',
        f'<text x="8" y="31" fill="#555">commit {html.escape(report["commit"])}, '
        f"{report['date']}; {html.escape(report['machine']['cpu'])}, "
        f"{report['machine']['cpus']} CPUs, {html.escape(report['machine']['python'])}</text>",
    ]
    for k, lib in enumerate(libs):
        x = 8 + k * 150
        out.append(f'<rect x="{x}" y="39" width="10" height="10" fill="{colours[lib]}"/>')
        out.append(f'<text x="{x + 14}" y="48">{html.escape(lib)}</text>')

    def xpos(r: float) -> float:
        return left + width * min(r, scale_max) / scale_max

    one = xpos(1.0)
    y = top
    for g in groups:
        ty = y + bar * len(libs) / 2 + 4
        out.append(f'<text x="{left - 6}" y="{ty}" text-anchor="end">{html.escape(g)}</text>')
        for lib in libs:
            r = next((r for gg, ll, r in rows if gg == g and ll == lib), None)
            if r is not None:
                w = max(1.0, xpos(r) - left)
                out.append(
                    f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 1}" '
                    f'fill="{colours[lib]}"/>'
                )
                tx = left + w + 3
                out.append(f'<text x="{tx:.1f}" y="{y + bar - 1}" font-size="8">{r:.2f}</text>')
            y += bar
        y += gap
    out.append(
        f'<line x1="{one:.1f}" y1="{top - 4}" x2="{one:.1f}" y2="{y}" stroke="#888" '
        'stroke-dasharray="3,3"/>'
    )
    out.append(f'<text x="{one:.1f}" y="{y + 12}" text-anchor="middle">1.0 (upb)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the command -------------------------------------------------------------------


def write_outputs(report: dict[str, Any], docs: Path) -> None:
    """The page's report block and the chart, from one run's figures."""
    (docs / "img").mkdir(parents=True, exist_ok=True)
    (docs / CHART).write_text(svg_chart(report), encoding="utf-8")
    write_page(docs / "benchmarks.md", markdown(report))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__)
    p.add_argument("--sections", default=",".join(SECTIONS))
    p.add_argument("--records", type=int, default=1_000_000, help="stream records")
    p.add_argument("--quick", action="store_true", help="smoke run: small sizes, short loops")
    p.add_argument("--docs", metavar="DIR", help="where docs/benchmarks.md is (default: docs/)")
    p.add_argument("--render", metavar="JSON", help="rewrite the page and chart from a saved run")
    p.add_argument("--child", choices=SECTIONS, help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        if a.child == "streams":
            result = section_streams(a.quick, a.records)
        else:
            result = globals()[f"section_{a.child}"](a.quick)
        Path(a.out).write_text(json.dumps(result))
        return 0

    if a.render:
        docs = Path(a.docs) if a.docs else DOC.parent
        write_outputs(json.loads(Path(a.render).read_text(encoding="utf-8")), docs)
        return 0

    from benchmarks.run import _loadavg, machine

    sections = [s for s in a.sections.split(",") if s]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        p.error(f"unknown section: {', '.join(unknown)}")
    docs = Path(a.docs) if a.docs else (Path(tempfile.mkdtemp()) if a.quick else DOC.parent)
    started = time.perf_counter()
    info = machine()
    report: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _commit(),
        "machine": info,
        "quick": a.quick,
        "sections": {},
    }
    report["sha"] = report["commit"].split()[0]
    for name in sections:
        print(f"report: {name} ...", file=sys.stderr, flush=True)
        report["sections"][name] = sec = run_section(name, a.quick, a.records)
        took = sec.get("error") or f"{sec['elapsed_s']} s"
        print(f"report: {name}: {took}", file=sys.stderr)
    info["loadavg_after"] = _loadavg()
    report["seconds"] = time.perf_counter() - started

    write_outputs(report, docs)
    results = ROOT / "benchmarks" / "results" if not a.quick else docs
    results.mkdir(parents=True, exist_ok=True)
    saved = results / f"report-{report['sha']}.json"
    saved.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {docs / 'benchmarks.md'}, {docs / CHART}, {saved}", file=sys.stderr)
    return 1 if any("error" in s for s in report["sections"].values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
