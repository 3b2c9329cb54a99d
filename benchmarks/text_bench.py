"""Text format: protoattr against Google's ``text_format`` on upb messages, both ways.

``python -m benchmarks.text_bench`` (or ``python benchmarks/text_bench.py``).

* printing: ``pa.to_text(obj)`` (from the dataclass) against
  ``text_format.MessageToString(msg)`` of the upb message already built (Google's
  side is spared building it);
* parsing: ``pa.from_text(Cls, text)`` (to the dataclass) against
  ``text_format.Parse(text, Msg())`` (to the upb message).

The workloads are :mod:`benchmarks.json_bench`'s (a book, protobuf-net's task list,
7,000 boiler records, 5,000 DNS records) and the conformance message
``TestAllTypesProto3`` with every kind of field set (:mod:`fuzz.targets`' sample
messages, merged).  Before timing, both sides' texts are
checked equal.  Each figure is the best of ``--repeat`` auto-ranged loops, the
two sides alternating; the ratio is protoattr's time over Google's (below 1 is
faster).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from google.protobuf import text_format

import protoattr as pa
from benchmarks import _timing
from benchmarks.json_bench import CASES, about


def _alltypes() -> tuple[type, Any, Any, Any]:
    from fuzz import alltypes, targets

    google = targets._google(3)
    msg = google()
    for data in targets.alltypes_seeds(3):
        msg.MergeFromString(data)
    msg.ClearField("optional_timestamp")  # a datetime holds microseconds only
    cls = alltypes.TestAllTypesProto3
    return cls, pa.deserialize(cls, msg.SerializeToString()), google, msg


def cases() -> dict[str, tuple[type, Any, Any, Any]]:
    """workload -> (the dataclass, an object, the upb class, the same upb message)"""
    out: dict[str, tuple[type, Any, Any, Any]] = {}
    for name, (cls, to_pb, _from_pb, pb_cls, make) in CASES.items():
        obj = make()
        out[name] = (cls, obj, pb_cls, to_pb(obj))
    out["alltypes"] = _alltypes()
    return out


def run(min_time: float, repeat: int) -> list[dict[str, Any]]:
    pa.default_model.compile()
    rows = []
    for name, (cls, obj, pb_cls, msg) in cases().items():
        ours_text = pa.to_text(obj)
        google_text = text_format.MessageToString(msg)
        if name != "boilers":  # the boilers' upb twin names its fields in PascalCase
            assert ours_text == google_text, name
        assert pa.from_text(cls, ours_text) == obj, name

        def google_parse(text: str, pb_cls: Any = pb_cls) -> Any:
            return text_format.Parse(text, pb_cls())

        def ours_parse(text: str, cls: Any = cls) -> Any:
            return pa.from_text(cls, text)

        pairs = {
            "to_text": ((pa.to_text, obj), (text_format.MessageToString, msg)),
            "from_text": ((ours_parse, ours_text), (google_parse, google_text)),
        }
        for op, sides in pairs.items():
            best = [float("inf"), float("inf")]
            for _ in range(repeat):
                for i, (fn, arg) in enumerate(sides):
                    best[i] = min(best[i], _timing.time_call(fn, arg, min_time=min_time, repeat=1))
            rows.append(
                {
                    "workload": name,
                    "op": op,
                    "protoattr_us": best[0] / 1000,
                    "google_us": best[1] / 1000,
                    "ratio": best[0] / best[1],
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per timed loop")
    parser.add_argument("--repeat", type=int, default=5, help="loops per figure (best kept)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    rows = run(args.min_time, args.repeat)
    if args.json:
        print(json.dumps({"about": about(), "rows": rows}, indent=2))
        return 0
    info = about()
    print(f"protoattr {info['protoattr']}, protobuf {info['protobuf']}, {info['python']}")
    print(f"{'workload':<9} {'op':<10} {'protoattr':>12} {'text_format':>12} {'ratio':>7}")
    for r in rows:
        print(
            f"{r['workload']:<9} {r['op']:<10} {r['protoattr_us']:>10.1f}us "
            f"{r['google_us']:>10.1f}us {r['ratio']:>6.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
