"""``pa.Any.pack(obj, deterministic=True)``: map entries sorted, as upb's
``Any.Pack(msg, deterministic=True)`` writes them (issue 18, problem 7)."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf import any_pb2

import protoattr as pa
from tests.protoc import compile_proto


def test_pack_deterministic_is_upbs() -> None:
    @pa.proto_contract(package="anydet.v1")
    @dataclass
    class Tags:
        values: dict[str, pa.int32] = pa.field(1, default_factory=dict)

    pb = compile_proto(pa.default_model.schema(Tags), "anydet")
    values = {"zeta": 1, "alpha": 2, "mid": 3, "beta": 4}
    ours = pa.Any.pack(Tags(values=values), deterministic=True)
    theirs = any_pb2.Any()
    theirs.Pack(pb.Tags(values=values), deterministic=True)
    assert ours.value == theirs.value
    assert ours.value != pa.Any.pack(Tags(values=values)).value  # insertion order otherwise
    assert ours.type_url == "type.googleapis.com/anydet.v1.Tags"
    assert ours.unpack() == Tags(values=values)
