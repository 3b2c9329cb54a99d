"""Text format: protoattr against Google's ``text_format`` on upb messages, both ways.

``python -m benchmarks.text_bench`` (or ``python benchmarks/text_bench.py``).

* printing: ``pa.to_text(obj)`` (from the dataclass) against
  ``text_format.MessageToString(msg)`` of the upb message already built (Google's
  side is spared building it);
* parsing: ``pa.from_text(Cls, text)`` (to the dataclass) against
  ``text_format.Parse(text, Msg())`` (to the upb message).

The workloads are :mod:`benchmarks.json_bench`'s (a book, protobuf-net's task list,
7,000 boiler records, 5,000 DNS records, GoogleMessage1 in its proto2 and proto3
forms) and the conformance message
``TestAllTypesProto3`` with every kind of field set (:mod:`fuzz.targets`' sample
messages, merged).  Before timing, both sides' texts are
checked equal.  Each figure is the best of ``--repeat`` auto-ranged loops, the
two sides alternating; the ratio is protoattr's time over Google's (below 1 is
faster).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from google.protobuf import text_format

import protoattr as pa
from benchmarks import _versus
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


#: the sides, in the order of the table
PEERS = ("protoattr", "text_format")


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
            best = _versus.alternate_best(sides, min_time, repeat)
            rows.append(_versus.row(name, op, PEERS, best))
    return rows


def main(argv: list[str] | None = None) -> int:
    return _versus.main(argv, __doc__.splitlines()[0], run, about, PEERS)


if __name__ == "__main__":
    raise SystemExit(main())
