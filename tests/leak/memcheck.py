"""valgrind memcheck over the C engine (tests/leak/memcheck.sh runs this twice).

``python -m tests.leak.memcheck [CYCLES]`` is the workload valgrind runs: the
operations of every feature group of tests/leak/cycles.py (encode, decode,
merge, the error paths and the hand-overs to the Python codec) ``CYCLES`` times
(default 2) on the native backend; then the model is dropped and collected, so
that what the engine still holds at exit is a leak, not a live plan.

``python -m tests.leak.memcheck --report LOG`` reads valgrind's log and exits 1
on a finding of the engine's: an invalid read or write, a use of an
uninitialised value, a bad free or a "definitely lost" block with a frame of
protoattr/_native/src in its stack (where it happened, or where the memory was
allocated: the log has the origins), or any invalid write or free at all.
CPython's own reports (its interpreter and GC read memory valgrind cannot
follow) are counted and left alone; tests/leak/cpython.supp hides the startup
ones.
"""

from __future__ import annotations

import gc
import re
import sys
from collections import Counter
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[2] / "protoattr" / "_native" / "src"

#: the first line of each kind of report valgrind's memcheck writes
KINDS = {
    "Invalid read": "invalid read",
    "Invalid write": "invalid write",
    "Invalid free": "invalid free",
    "Mismatched free": "mismatched free",
    "Conditional jump or move depends on uninitialised": "uninitialised value",
    "Use of uninitialised value": "uninitialised value",
    "Syscall param": "uninitialised syscall argument",
    "Source and destination overlap": "overlapping copy",
    "are definitely lost": "definitely lost",
}
ALWAYS_FATAL = {"invalid write", "invalid free", "mismatched free"}


def _records(log: str) -> list[list[str]]:
    """valgrind's reports: runs of ``==PID== `` lines separated by empty ones."""
    out: list[list[str]] = [[]]
    for line in log.splitlines():
        m = re.match(r"==\d+== ?(.*)$", line)
        if m is None:
            continue
        text = m.group(1)
        if text.strip():
            out[-1].append(text)
        elif out[-1]:
            out.append([])
    return [r for r in out if r]


def _kind(record: list[str]) -> str | None:
    for needle, kind in KINDS.items():
        if needle in record[0]:
            return kind
    return None


def findings(log: str, sources: list[str]) -> tuple[list[str], Counter[str]]:
    """(the engine's reports, the count of every report by kind)."""
    names = "|".join(map(re.escape, sources))
    ours = re.compile(rf"\((?:{names}):\d+\)|_engine\.cpython")
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for record in _records(log):
        kind = _kind(record)
        if kind is None:
            continue
        seen[kind] += 1
        if kind in ALWAYS_FATAL or any(ours.search(line) for line in record):
            bad.append("\n".join(record))
    return bad, seen


def report(path: str) -> int:
    log = Path(path).read_text(errors="replace")
    sources = sorted(p.name for p in SOURCES.iterdir() if p.suffix in (".c", ".h"))
    bad, seen = findings(log, sources)
    for line in log.splitlines():
        if re.search(r"ERROR SUMMARY|definitely lost:|indirectly lost:", line):
            print(line)
    print("reports by kind: " + (", ".join(f"{k} {n}" for k, n in sorted(seen.items())) or "none"))
    if bad:
        print(f"memcheck: {len(bad)} report(s) of the engine's:")
        for record in bad:
            print(record + "\n")
        return 1
    print("memcheck: no report with a frame of protoattr/_native/src, no invalid write or free")
    return 0


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--report":
        return report(sys.argv[2])
    import protoattr as pa
    import protoattr._native as native
    from tests.leak.cycles import workload

    if not native.available():
        print("memcheck: the C engine is not built", file=sys.stderr)
        return 2
    cycles = int(sys.argv[1]) if len(sys.argv) > 1 else 2
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
