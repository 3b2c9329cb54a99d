"""A message field repeated in the input merges in linear time, on both backends.

Protobuf merges a singular message field that occurs again into the value already
read.  The engine used to rebuild the whole value at every occurrence (copying its
lists, calling its class again), so a 100-deep ``recursive_message`` chain repeated
cost seconds per megabyte against upb's milliseconds; it now reads the new fields
straight into an object it built itself when nothing can tell the difference (a
flat contract built with plain attributes).  These tests pin that the result is the
Python codecs' (differential, on every fuzz family), that a default a contract
shares is never merged into, and the time.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from itertools import product
from typing import Any

import pytest

import protoattr as pa
from fuzz import alltypes, families
from protoattr import field, proto_contract
from protoattr._core.wire import encode_varint
from protoattr._native import engine
from tests.garble import garble

needs_engine = pytest.mark.skipif(engine() is None, reason="the C engine is not built")
NAT = pa.TypeModel(backend="native") if engine() is not None else None
PY = pa.TypeModel(backend="python")


def _outcome(model: Any, cls: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "ok", model.deserialize(cls, data)
    except Exception as exc:
        return type(exc).__name__, str(exc)


@needs_engine
@pytest.mark.parametrize("family", sorted(families.ROOTS))
def test_concatenated_messages_merge_as_the_python_codecs_do(family: str) -> None:
    cls = families.ROOTS[family]
    encoded = [pa.serialize(x) for x in families.samples()[family]]
    rnd = random.Random(family)
    inputs = [a + b for a, b in product(encoded, repeat=2)]
    inputs += [a + b + a for a, b in product(encoded, repeat=2)]
    inputs += [garble(d, rnd) for d in inputs[:6]]
    for data in inputs:
        got, want = _outcome(NAT, cls, data), _outcome(PY, cls, data)
        assert got == want, (family, data.hex())
        if got[0] == "ok":
            assert pa.serialize(got[1]) == pa.serialize(want[1])


@proto_contract
@dataclass
class Leaf:
    n: pa.int32 = field(1, default=0)
    tags: list[str] = field(2, default_factory=list)


SHARED = Leaf(7, ["shared"])


@proto_contract
@dataclass
class Mid:
    plain: Leaf = field(2)  # absent: a fresh empty Leaf
    leaf: Leaf = field(1, default_factory=lambda: SHARED)


@proto_contract
@dataclass
class Outer:
    mid: Mid = field(1)


def _len(tag: int, body: bytes) -> bytes:
    return encode_varint(tag << 3 | 2) + encode_varint(len(body)) + body


@needs_engine
def test_a_default_the_contract_shares_is_never_merged_into() -> None:
    more = _len(1, _len(1, _len(2, b"x") + b"\x08\x05"))  # mid.leaf { n: 5 tags: "x" }
    plain = _len(1, _len(2, _len(2, b"y")))  # mid.plain { tags: "y" }
    for data in (_len(1, b"") + more, plain + plain + more + more):
        for model in (NAT, PY):
            out = model.deserialize(Outer, data)
            assert out == PY.deserialize(Outer, data)
            assert Leaf(7, ["shared"]) == SHARED  # untouched
    out = NAT.deserialize(Outer, plain + plain)
    assert out.mid.plain.tags == ["y", "y"] and out.mid.leaf is SHARED


def _chain(depth: int, tags: list[int]) -> bytes:
    body = b""
    for i in range(depth):
        body = _len(tags[i % len(tags)], body)
    return body


@needs_engine
@pytest.mark.parametrize(
    "unit",
    [_chain(100, [27]), _chain(98, [2, 18])],  # recursive_message; corecursive via nested
    ids=["recursive_message", "corecursive"],
)
def test_a_repeated_deep_chain_merges_in_linear_time(unit: bytes) -> None:
    model = NAT  # the Python codecs: tests/test_linear_time.py
    cls = alltypes.TestAllTypesProto3
    model.deserialize(cls, unit)
    small, large = unit * (50_000 // len(unit)), unit * (200_000 // len(unit))
    a = model.deserialize(cls, small)
    began = time.perf_counter()
    b = model.deserialize(cls, large)
    t_large = time.perf_counter() - began
    assert a == b == model.deserialize(cls, unit)  # merging a chain into itself: the chain
    assert t_large < 0.1  # 200 kB: linear, about 10 ms per MB (upb: about 4 ms per MB)


def test_pa_merge_never_merges_into_the_callers_objects() -> None:
    """A merge into the caller's object builds new nested values (as it always did):
    only what the decode itself built is merged into in place, on both backends."""
    mine = Leaf(1, ["a"])
    mid = Mid(plain=mine, leaf=Leaf())
    twice = _len(2, _len(2, b"y")) * 2  # plain { tags: "y" }, twice
    out = pa.merge(mid, twice)
    assert out.plain.tags == ["a", "y", "y"]
    assert mine == Leaf(1, ["a"])  # untouched
