"""Generated contracts keep Timestamp and Duration exact by default (issue 18, problem 6):
a relay built from ``gen`` output must not cut nanoseconds."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

import protoattr as pa
from tests.protoc import compile_proto
from tests.test_gen import gen_proto

PROTO = """\
syntax = "proto3";
package gentime.v1;
import "google/protobuf/duration.proto";
import "google/protobuf/timestamp.proto";
message Span { google.protobuf.Timestamp start = 1; google.protobuf.Duration took = 2; }
"""


def test_nanoseconds_survive_a_relay(tmp_path: Path) -> None:
    pb = compile_proto(PROTO, "gentime")
    theirs = pb.Span()
    theirs.start.FromJsonString("2023-11-14T22:13:20.123456789Z")
    theirs.took.FromJsonString("-1.000000005s")
    data = theirs.SerializeToString()
    g = gen_proto(PROTO.replace("gentime.v1", "gentime.exact.v1"), tmp_path, "span")
    ours = pa.deserialize(g.Span, data)
    assert ours.start == pa.Timestamp(1_700_000_000, 123_456_789)
    assert pa.serialize(ours) == data
    assert pa.to_dict(ours) == json_format.MessageToDict(theirs)
    assert pa.to_dict(ours)["start"] == "2023-11-14T22:13:20.123456789Z"


def test_datetime_is_a_choice(tmp_path: Path) -> None:
    from protoattr._schema.gen import generate

    proto = tmp_path / "span.proto"
    proto.write_text(PROTO.replace("gentime.v1", "gentime.dt.v1"), encoding="utf-8")
    source = generate([proto], time="datetime")
    assert "    start: datetime | None = pa.field(1, default=None)\n" in source
    assert "    took: timedelta | None = pa.field(2, default=None)\n" in source
