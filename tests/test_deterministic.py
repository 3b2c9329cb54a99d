"""``serialize(obj, deterministic=True)``: upb's ``SerializeToString(deterministic=True)``.

upb sorts map entries and writes them back to front, so its order is: integer
keys from the largest unsigned two's-complement value down, string keys by
UTF-8 bytes with a key before its own prefixes.  Hypothesis compares the two
over maps of every key kind, nested maps and maps inside repeated messages.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests.protoc import compile_proto

KEYS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "int32": (pa.int32, st.integers(-(2**31), 2**31 - 1)),
    "int64": (pa.int64, st.integers(-(2**63), 2**63 - 1)),
    "uint32": (pa.uint32, st.integers(0, 2**32 - 1)),
    "uint64": (pa.uint64, st.integers(0, 2**64 - 1)),
    "sint32": (pa.sint32, st.integers(-(2**31), 2**31 - 1)),
    "sint64": (pa.sint64, st.integers(-(2**63), 2**63 - 1)),
    "fixed32": (pa.fixed32, st.integers(0, 2**32 - 1)),
    "fixed64": (pa.fixed64, st.integers(0, 2**64 - 1)),
    "sfixed32": (pa.sfixed32, st.integers(-(2**31), 2**31 - 1)),
    "sfixed64": (pa.sfixed64, st.integers(-(2**63), 2**63 - 1)),
    "bool": (bool, st.booleans()),
    "string": (str, st.text(max_size=5)),
}


@proto_contract
@dataclass
class Leaf:
    names: dict[str, pa.int32] = field(1, default_factory=dict)
    flags: dict[pa.sint64, bool] = field(2, default_factory=dict)


@proto_contract
@dataclass
class Maps:
    m_int32: dict[pa.int32, str] = field(1, default_factory=dict)
    m_int64: dict[pa.int64, str] = field(2, default_factory=dict)
    m_uint32: dict[pa.uint32, str] = field(3, default_factory=dict)
    m_uint64: dict[pa.uint64, str] = field(4, default_factory=dict)
    m_sint32: dict[pa.sint32, str] = field(5, default_factory=dict)
    m_sint64: dict[pa.sint64, str] = field(6, default_factory=dict)
    m_fixed32: dict[pa.fixed32, str] = field(7, default_factory=dict)
    m_fixed64: dict[pa.fixed64, str] = field(8, default_factory=dict)
    m_sfixed32: dict[pa.sfixed32, str] = field(9, default_factory=dict)
    m_sfixed64: dict[pa.sfixed64, str] = field(10, default_factory=dict)
    m_bool: dict[bool, str] = field(11, default_factory=dict)
    m_string: dict[str, str] = field(12, default_factory=dict)
    nested: dict[str, Leaf] = field(13, default_factory=dict)
    leaves: list[Leaf] = field(14, default_factory=list)
    by_id: dict[pa.uint64, Leaf] = field(15, default_factory=dict)


SCHEMA = """
syntax = "proto3";
message Leaf {
  map<string, int32> names = 1;
  map<sint64, bool> flags = 2;
}
message Maps {
{maps}
  map<string, Leaf> nested = 13;
  repeated Leaf leaves = 14;
  map<uint64, Leaf> by_id = 15;
}
""".replace("{maps}", "\n".join(f"  map<{k}, string> m_{k} = {i};" for i, k in enumerate(KEYS, 1)))


@pytest.fixture(scope="module")
def pb() -> Any:
    return compile_proto(SCHEMA, "deterministic_maps")


LEAVES = st.builds(
    Leaf,
    st.dictionaries(st.text(max_size=4), st.integers(-(2**31), 2**31 - 1), max_size=6),
    st.dictionaries(st.integers(-(2**63), 2**63 - 1), st.booleans(), max_size=6),
)
MAPS = st.builds(
    Maps,
    **{
        f"m_{k}": st.dictionaries(keys, st.text(max_size=3), max_size=8)
        for k, (_, keys) in KEYS.items()
    },
    nested=st.dictionaries(st.text(max_size=4), LEAVES, max_size=4),
    leaves=st.lists(LEAVES, max_size=3),
    by_id=st.dictionaries(st.integers(0, 2**64 - 1), LEAVES, max_size=4),
)


def to_pb(pb: Any, obj: Maps) -> Any:
    def leaf(x: Leaf) -> Any:
        return pb.Leaf(names=x.names, flags=x.flags)

    msg = pb.Maps(**{f"m_{k}": getattr(obj, f"m_{k}") for k in KEYS})
    for k, v in obj.nested.items():
        msg.nested[k].CopyFrom(leaf(v))
    msg.leaves.extend(leaf(x) for x in obj.leaves)
    for n, v in obj.by_id.items():
        msg.by_id[n].CopyFrom(leaf(v))
    return msg


@settings(derandomize=True, max_examples=150)
@given(MAPS)
def test_bytes_equal_upb_deterministic(pb: Any, obj: Maps) -> None:
    expected = to_pb(pb, obj).SerializeToString(deterministic=True)
    assert pa.serialize(obj, deterministic=True) == expected
    assert pa.default_model.serialize(obj, deterministic=True) == expected
    # whatever order the dicts were built in
    shuffled = Maps(
        **{
            name: dict(reversed(list(getattr(obj, name).items())))
            for name in vars(obj)
            if name != "leaves"
        },
        leaves=obj.leaves,
    )
    assert pa.serialize(shuffled, deterministic=True) == expected
    assert pa.deserialize(Maps, expected) == obj


@pytest.mark.parametrize("kind", list(KEYS))
def test_extreme_keys_of_every_kind(pb: Any, kind: str) -> None:
    if kind == "bool":
        values = [True, False]
    elif kind == "string":
        values = ["", "a", "ab", "b", "é", "\U0001f600", "A", "aé"]
    else:
        lo, hi = (
            (-(2**63), 2**63 - 1) if kind.startswith(("int", "sint", "sfixed")) else (0, 2**64 - 1)
        )
        if "32" in kind:
            lo, hi = (-(2**31), 2**31 - 1) if lo else (0, 2**32 - 1)
        values = sorted({lo, lo + 1, -1 if lo else 1, 0, 1, 2, 127, 128, hi - 1, hi})
    obj = Maps(**{f"m_{kind}": {v: str(i) for i, v in enumerate(values)}})
    assert pa.serialize(obj, deterministic=True) == to_pb(pb, obj).SerializeToString(
        deterministic=True
    )


def test_without_deterministic_insertion_order_is_kept() -> None:
    a = pa.serialize(Maps(m_string={"b": "1", "a": "2"}))
    b = pa.serialize(Maps(m_string={"a": "2", "b": "1"}))
    assert a != b
    assert pa.serialize(Maps(m_string={"b": "1", "a": "2"}), deterministic=True) == pa.serialize(
        Maps(m_string={"a": "2", "b": "1"}), deterministic=True
    )


def test_lists_streams_and_errors() -> None:
    items = [Maps(m_int32={1: "a", 2: "b"}), Maps(m_bool={False: "f", True: "t"})]
    data = pa.serialize(items, type=list[Maps], deterministic=True)
    assert pa.deserialize(list[Maps], data) == items
    assert data == b"".join(
        b"\x0a" + bytes([len(b)]) + b for b in (pa.serialize(i, deterministic=True) for i in items)
    )
    out = io.BytesIO()
    pa.serialize_to(out, items[0], deterministic=True)
    assert out.getvalue() == pa.serialize(items[0], deterministic=True)
    with pytest.raises(pa.EncodeError, match=r"Maps\.m_int32"):
        pa.serialize(Maps(m_int32={2**40: "x"}), deterministic=True)
    with pytest.raises(pa.EncodeError, match=r"Maps\.m_string"):
        pa.serialize(Maps(m_string={"a": "x", 3: "y"}), deterministic=True)  # type: ignore[dict-item]


@proto_contract
@dataclass
class Shape:
    tags: dict[str, pa.int32] = field(1, default_factory=dict)


@proto_contract(subtype_tag=10)
@dataclass
class Circle(Shape):
    radii: dict[pa.int32, float] = field(1, default_factory=dict)


def test_subtypes_order_their_maps_too() -> None:
    pb = compile_proto(pa.default_model.schema(Shape), "deterministic_shapes")
    circle = Circle(tags={"b": 1, "a": 2, "ab": 3}, radii={3: 1.0, -1: 2.0, 7: 0.5})
    theirs = pb.Shape(tags=circle.tags, Circle=pb.Circle(radii=circle.radii))
    # protoattr writes the subtype's field first, upb in field-number order: compare the parts
    ours = pa.serialize(circle, deterministic=True)
    sub = pb.Circle(radii=circle.radii).SerializeToString(deterministic=True)
    base = pb.Shape(tags=circle.tags).SerializeToString(deterministic=True)
    assert ours == b"\x52" + bytes([len(sub)]) + sub + base
    assert pb.Shape.FromString(ours) == theirs
