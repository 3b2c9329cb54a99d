"""Canonical JSON: protoattr against JSON peers, end to end from/to dataclasses.

``python -m benchmarks.json_bench`` (or ``python benchmarks/json_bench.py``).

Both sides start from the workload's dataclass and end at it, as a user has to:

* protoattr: ``pa.to_json(obj)`` and ``pa.from_json(Cls, text)``;
* Google: build the upb message from the dataclass (the fast idioms of
  ``peers/google_upb.py``) and ``json_format.MessageToJson(msg)``; then
  ``json_format.Parse(text, Msg())`` and build the dataclass from the message;
* protobuf-py (Buf's, native extension): the same with its generated classes
  (``peers/protobuf_py_.py``), ``msg.to_json()`` and ``Msg.from_json(text)``;
* msgspec: ``msgspec.json.Encoder().encode(obj)`` and ``Decoder(cls).decode``
  on the same dataclasses (its own JSON, not canonical protobuf JSON: less
  mapping work, but the speed users compare with);
* orjson: ``orjson.dumps(dataclasses.asdict(obj))``, and ``orjson.loads`` plus
  building the dataclasses by hand.

The workloads are the four articles' and GoogleMessage1's two forms
(``benchmarks/google_message1.py``).  protobuf-net's task list, a top-level
list, travels as ``TaskList {tasks}`` on both sides (JSON has no top-level
repeated field).  Each figure is the best of ``--repeat`` auto-ranged loops
(``benchmarks/_timing.py``), the sides alternating loop after loop so that the
machine's load falls on all; each ratio is protoattr's time over the peer's
(below 1 is faster).  Before timing, each side's JSON is parsed by the other
and checked.
"""

from __future__ import annotations

import dataclasses
import json
import platform
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from google.protobuf import json_format

import protoattr as pa
from benchmarks import _versus
from benchmarks import google_message1 as gm1
from benchmarks import workloads as w
from benchmarks.peers import (
    _gm1,
    protoattr_,  # noqa: F401  (applies @proto_contract to the workloads)
)
from benchmarks.peers import google_upb as upb
from benchmarks.peers import protobuf_py_ as pbpy
from benchmarks.peers.google_upb import boilers_pb2, book_pb2, dns_pb2, tasks_pb2


@pa.proto_contract
@dataclasses.dataclass
class TaskList:
    tasks: list[w.Task] = pa.field(1, default_factory=list)


# --- Google: dataclass <-> upb message (peers/google_upb.py), then json_format -----


def _tasks_to_pb(obj: TaskList) -> Any:
    return upb.tasks_to_msg(obj.tasks)


def _tasks_from_pb(msg: Any) -> TaskList:
    return TaskList(upb.tasks_from_msg(msg))


#: GoogleMessage1's forms: (class, sub-message class, upb module, protobuf-py module, data)
_GM1: dict[str, tuple[Any, Any, Any, Any, Any]] = {
    "gm1_proto2": (
        *(gm1.GM1Proto2, gm1.GM1SubProto2, upb.gm1_proto2_pb2, pbpy.gm1_proto2_pb),
        gm1.make_gm1_proto2,
    ),
    "gm1_proto3": (
        *(gm1.GM1Proto3, gm1.GM1SubProto3, upb.gm1_proto3_pb2, pbpy.gm1_proto3_pb),
        gm1.make_gm1_proto3,
    ),
}

#: workload -> (the dataclass, to pb, from pb, the pb class, the data)
CASES: dict[str, tuple[type, Any, Any, Any, Any]] = {
    "book": (w.Book, upb.book_to_msg, upb.book_from_msg, book_pb2.Book, w.make_book),
    "tasks": (
        TaskList,
        _tasks_to_pb,
        _tasks_from_pb,
        tasks_pb2.TaskList,
        lambda: TaskList(w.make_tasks()),
    ),
    "boilers": (
        w.AllBoilers,
        upb.boilers_to_msg,
        upb.boilers_from_msg,
        boilers_pb2.AllBoilers,
        w.make_boilers,
    ),
    "dns": (w.DnsResponse, upb.dns_to_msg, upb.dns_from_msg, dns_pb2.DnsResponse, w.make_dns),
    **{
        name: (
            cls,
            _gm1.to_message(pb2.GoogleMessage1, pb2.GoogleMessage1SubMessage),
            _gm1.from_upb(cls, sub),
            pb2.GoogleMessage1,
            make,
        )
        for name, (cls, sub, pb2, _pb, make) in _GM1.items()
    },
}


def _peers(name: str, cls: Any, to_pb: Any, from_pb: Any, pb_cls: Any) -> dict[str, Any]:
    """``{peer: (to_json(obj) -> str | bytes, from_json(text) -> obj)}`` for one workload."""
    import msgspec
    import orjson

    pbpy_to, pbpy_from = {
        "book": (pbpy.book_to_msg, pbpy.book_from_msg),
        "tasks": (lambda o: pbpy.tasks_to_msg(o.tasks), lambda m: TaskList(pbpy.tasks_from_msg(m))),
        "boilers": (pbpy.boilers_to_msg, pbpy.boilers_from_msg),
        "dns": (pbpy.dns_to_msg, pbpy.dns_from_msg),
        **{
            n: pbpy.gm1_converters(pb, c, sub, presence=n == "gm1_proto2")
            for n, (c, sub, _pb2, pb, _make) in _GM1.items()
        },
    }[name]
    pbpy_cls = type(pbpy_to(cls() if name == "tasks" else CASES[name][4]()))
    encoder, decoder = msgspec.json.Encoder(), msgspec.json.Decoder(cls)
    return {
        "protoattr": (pa.to_json, lambda text: pa.from_json(cls, text)),
        "json_format": (
            lambda o: json_format.MessageToJson(to_pb(o)),
            lambda text: from_pb(json_format.Parse(text, pb_cls())),
        ),
        "protobuf-py": (
            lambda o: pbpy_to(o).to_json(),
            lambda text: pbpy_from(pbpy_cls.from_json(text)),
        ),
        "msgspec.json": (encoder.encode, decoder.decode),
        "orjson": (
            lambda o: orjson.dumps(dataclasses.asdict(o)),
            lambda text: _from_plain(name, orjson.loads(text)),
        ),
    }


def _from_plain(name: str, d: Any) -> Any:
    """The dataclasses back from ``orjson.loads`` of ``asdict`` (what a user writes by hand)."""
    if name == "book":
        return w.Book(**d)
    if name == "tasks":
        return TaskList(
            [
                w.Task(
                    t["id"],
                    w.datetime.fromisoformat(t["created_at"]),
                    t["created_by"],
                    w.TaskPriority(t["priority"]),
                    t["content"],
                )
                for t in d["tasks"]
            ]
        )
    if name == "boilers":
        return w.AllBoilers([w.Boiler(**b) for b in d["boilers"]])
    if name in _GM1:
        cls, sub_cls = _GM1[name][:2]
        sub = d["field15"]
        return cls(**{**d, "field15": None if sub is None else sub_cls(**sub)})
    return w.DnsResponse([w.DnsRecord(**r) for r in d["records"]])


#: the peers, in the order of the table
PEERS = ("protoattr", "json_format", "protobuf-py", "msgspec.json", "orjson")


def run(min_time: float, repeat: int) -> list[dict[str, Any]]:
    pa.default_model.compile()
    rows = []
    for name, (cls, to_pb, from_pb, pb_cls, make) in CASES.items():
        obj = make()
        peers = _peers(name, cls, to_pb, from_pb, pb_cls)
        texts = {peer: enc(obj) for peer, (enc, _) in peers.items()}
        # check: each side reads its own JSON back to the same object; where the field
        # names agree (all but the boilers' PascalCase twin), the canonical JSON of
        # protoattr, json_format and protobuf-py is the same document
        for peer, (_, dec) in peers.items():
            assert dec(texts[peer]) == obj, (name, peer)
        if name != "boilers":
            for peer in ("json_format", "protobuf-py"):
                assert json.loads(texts["protoattr"]) == json.loads(texts[peer]), (name, peer)
                assert pa.from_json(cls, texts[peer]) == obj, (name, peer)
        for op in ("to_json", "from_json"):
            sides = [
                (enc, obj) if op == "to_json" else (dec, texts[peer])
                for peer, (enc, dec) in peers.items()
            ]
            best = _versus.alternate_best(sides, min_time, repeat)
            rows.append(_versus.row(name, op, list(peers), best))
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
    return _versus.main(argv, __doc__.splitlines()[0], run, about, PEERS)


if __name__ == "__main__":
    raise SystemExit(main())
