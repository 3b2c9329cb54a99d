"""Canonical JSON: protoattr against Google's ``json_format``, end to end from/to dataclasses.

``python -m benchmarks.json_bench`` (or ``python benchmarks/json_bench.py``).

Both sides start from the workload's dataclass and end at it, as a user has to:

* protoattr: ``pa.to_json(obj)`` and ``pa.from_json(Cls, text)``;
* Google: build the upb message from the dataclass (the fast idioms of
  ``peers/google_upb.py``) and ``json_format.MessageToJson(msg)``; then
  ``json_format.Parse(text, Msg())`` and build the dataclass from the message.

The top-level list of seed 000's tasks travels as ``TaskList {tasks}`` on both
sides (JSON has no top-level repeated field).  Each figure is the best of
``--repeat`` auto-ranged loops (``benchmarks/_timing.py``), the two sides
alternating loop after loop so that the machine's load falls on both; the
ratio is protoattr's time over Google's (below 1 is faster).  Before timing, each
side's JSON is parsed by the other and checked.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import sys
from datetime import timezone
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from google.protobuf import json_format

import protoattr as pa
from benchmarks import _timing
from benchmarks import workloads as w
from benchmarks.peers import protoattr_  # noqa: F401  (applies @proto_contract to the workloads)
from benchmarks.peers.google_upb import boilers_pb2, book_pb2, dns_pb2, tasks_pb2


@pa.proto_contract
@dataclasses.dataclass
class TaskList:
    tasks: list[w.Task] = pa.field(1, default_factory=list)


# --- Google: dataclass <-> upb message, then json_format ------------------------

_EPOCH = w.datetime(1970, 1, 1, tzinfo=timezone.utc)
_UTC = timezone.utc


def _book_to_pb(b: w.Book) -> Any:
    return book_pb2.Book(isbn=b.isbn, title=b.title, author=b.author, pagecount=b.pagecount)


def _book_from_pb(m: Any) -> w.Book:
    return w.Book(m.isbn, m.title, m.author, m.pagecount)


def _tasks_to_pb(obj: TaskList) -> Any:
    msg = tasks_pb2.TaskList()
    add = msg.tasks.add
    for t in obj.tasks:
        m = add(id=t.id, created_by=t.created_by, priority=t.priority, content=t.content)
        d = t.created_at - _EPOCH
        ts = m.created_at
        ts.seconds = d.days * 86400 + d.seconds
        ts.nanos = d.microseconds * 1000
    return msg


def _tasks_from_pb(msg: Any) -> TaskList:
    return TaskList(
        [
            w.Task(
                m.id,
                m.created_at.ToDatetime(tzinfo=_UTC),
                m.created_by,
                w.TaskPriority(m.priority),
                m.content,
            )
            for m in msg.tasks
        ]
    )


def _boilers_to_pb(obj: w.AllBoilers) -> Any:
    msg = boilers_pb2.AllBoilers()
    add = msg.Boiler.add
    for b in obj.boilers:
        add(
            BoilerId=b.boiler_id,
            TableNumber=b.table_number,
            TableName=b.table_name,
            BoilerData=b.boiler_data,
            BrandName=b.brand_name,
            Qualifier=b.qualifier,
            ModelName=b.model_name,
        )
    return msg


def _boilers_from_pb(msg: Any) -> w.AllBoilers:
    return w.AllBoilers(
        [
            w.Boiler(
                m.BoilerId,
                m.TableNumber,
                m.TableName,
                m.BoilerData,
                m.BrandName,
                m.Qualifier,
                m.ModelName,
            )
            for m in msg.Boiler
        ]
    )


def _dns_to_pb(obj: w.DnsResponse) -> Any:
    msg = dns_pb2.DnsResponse()
    add = msg.records.add
    for r in obj.records:
        m = add(key=r.key, value=r.value, first=r.first, last=r.last)
        if r.type != w.DNS_DEFAULT_TYPE:
            m.type = r.type
        if r.ttl != w.DNS_DEFAULT_TTL:
            m.ttl = r.ttl
    return msg


def _dns_from_pb(msg: Any) -> w.DnsResponse:
    return w.DnsResponse(
        [w.DnsRecord(m.key, m.value, m.first, m.last, m.type, m.ttl) for m in msg.records]
    )


#: workload -> (the dataclass, to pb, from pb, the pb class, the data)
CASES: dict[str, tuple[type, Any, Any, Any, Any]] = {
    "book": (w.Book, _book_to_pb, _book_from_pb, book_pb2.Book, w.make_book),
    "tasks": (
        TaskList,
        _tasks_to_pb,
        _tasks_from_pb,
        tasks_pb2.TaskList,
        lambda: TaskList(w.make_tasks()),
    ),
    "boilers": (
        w.AllBoilers,
        _boilers_to_pb,
        _boilers_from_pb,
        boilers_pb2.AllBoilers,
        w.make_boilers,
    ),
    "dns": (w.DnsResponse, _dns_to_pb, _dns_from_pb, dns_pb2.DnsResponse, w.make_dns),
}


def run(min_time: float, repeat: int) -> list[dict[str, Any]]:
    pa.default_model.compile()
    rows = []
    for name, (cls, to_pb, from_pb, pb_cls, make) in CASES.items():
        obj = make()

        def google_to_json(o: Any, to_pb: Any = to_pb) -> str:
            return json_format.MessageToJson(to_pb(o))

        def google_from_json(text: str, pb_cls: Any = pb_cls, from_pb: Any = from_pb) -> Any:
            return from_pb(json_format.Parse(text, pb_cls()))

        def ours_from_json(text: str, cls: Any = cls) -> Any:
            return pa.from_json(cls, text)

        ours_text = pa.to_json(obj)
        google_text = google_to_json(obj)
        # check: each side reads its own JSON back to the same object; where the field
        # names agree (all but the boilers' PascalCase twin), the JSON is the same too
        assert ours_from_json(ours_text) == obj, name
        assert google_from_json(google_text) == obj, name
        if name != "boilers":
            assert json.loads(ours_text) == json.loads(google_text), name
            assert ours_from_json(google_text) == obj, name
        pairs = {
            "to_json": ((pa.to_json, obj), (google_to_json, obj)),
            "from_json": ((ours_from_json, ours_text), (google_from_json, google_text)),
        }
        times = {}
        for op, sides in pairs.items():
            # the two sides alternate, round after round, so that a change in the
            # machine's load falls on both; each keeps its best round
            best = [float("inf"), float("inf")]
            for _ in range(repeat):
                for i, (fn, arg) in enumerate(sides):
                    best[i] = min(best[i], _timing.time_call(fn, arg, min_time=min_time, repeat=1))
            times[op] = (best[0], best[1])
        for op, (ours, google) in times.items():
            rows.append(
                {
                    "workload": name,
                    "op": op,
                    "protoattr_us": ours / 1000,
                    "google_us": google / 1000,
                    "ratio": ours / google,
                }
            )
    return rows


def about() -> dict[str, Any]:
    """Versions and machine, for the record."""
    from google.protobuf import __version__ as pb_version
    from google.protobuf.internal import api_implementation

    from benchmarks.run import machine

    return {
        "protoattr": pa.__version__,
        "protobuf": f"{pb_version} ({api_implementation.Type()})",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": machine(),
    }


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
    print(f"{'workload':<9} {'op':<10} {'protoattr':>12} {'json_format':>12} {'ratio':>7}")
    for r in rows:
        print(
            f"{r['workload']:<9} {r['op']:<10} {r['protoattr_us']:>10.1f}us "
            f"{r['google_us']:>10.1f}us {r['ratio']:>6.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
