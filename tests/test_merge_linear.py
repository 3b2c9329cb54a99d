"""A singular message field repeated in the input merges in linear time for every
class, on both backends (issue 20).

Protobuf merges a later occurrence of a singular message field into the value read
so far.  For a class the engine cannot merge into in place (a pydantic model, a
frozen dataclass, one with ``__post_init__``, a hierarchy, tuple/frozenset fields)
every occurrence built the class anew from the previous object plus the new fields,
on both backends: with a list inside, a field repeated n times cost O(n^2) (about
45 s per MB).  Now the values are read into one state (hier.c's Merged, the Python
codecs' ``_runtime.Partial``) and the object is built once, with its holder.  These
tests pin the time (n against 4n, and the number of constructor calls), the result
(against the other backend and upb), and what stays as it was: errors and offsets,
``max_messages`` counts, oneof's last-wins, unknown fields.
"""

from __future__ import annotations

import gc
import random
import time
from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from protoattr._core.wire import encode_varint
from protoattr._native import engine
from tests import test_random_contracts as rc
from tests.contracts3 import canonical, parse
from tests.garble import garble
from tests.protoc import compile_proto

pydantic = pytest.importorskip("pydantic")
from pydantic import BaseModel  # noqa: E402

BACKENDS = ["python"] + (["native"] if engine() is not None else [])
CALLS = {"pydantic": 0, "post_init": 0}


def _len(tag: int, body: bytes) -> bytes:
    return encode_varint(tag << 3 | 2) + encode_varint(len(body)) + body


@proto_contract
class PLeaf(BaseModel):
    n: Annotated[pa.int32, member(1)] = 0
    tags: Annotated[list[str], member(2)] = pydantic.Field(default_factory=list)
    big: Annotated[list[pa.fixed32], member(4)] = pydantic.Field(default_factory=list)

    @pydantic.model_validator(mode="after")
    def _count(self) -> PLeaf:
        CALLS["pydantic"] += 1
        return self


@proto_contract
@dataclass(frozen=True)
class FLeaf:
    n: pa.int32 = field(1, default=0)
    tags: list[str] = field(2, default_factory=list)
    big: list[pa.fixed32] = field(4, default_factory=list)


@proto_contract
@dataclass
class ILeaf:
    n: pa.int32 = field(1, default=0)
    tags: list[str] = field(2, default_factory=list)
    big: list[pa.fixed32] = field(4, default_factory=list)

    def __post_init__(self) -> None:
        CALLS["post_init"] += 1


@proto_contract
@dataclass
class HBase:
    n: pa.int32 = field(1, default=0)
    tags: list[str] = field(2, default_factory=list)
    big: list[pa.fixed32] = field(4, default_factory=list)


@proto_contract(subtype_tag=10)
@dataclass
class HSub(HBase):
    more: list[str] = field(1, default_factory=list)


@proto_contract
@dataclass
class TLeaf:
    n: pa.int32 = field(1, default=0)
    tags: tuple[str, ...] = field(2, default=())
    nums: frozenset[pa.int32] = field(3, default=frozenset())
    big: tuple[pa.fixed32, ...] = field(4, default=())


# every kind, and two nestings: a plain holder merging in place around a frozen
# leaf (the leaf's state waits in an attribute), a pydantic level around one
@proto_contract
@dataclass
class PlainMid:
    leaf: FLeaf = field(1)


@proto_contract
class PydMid(BaseModel):
    leaf: Annotated[FLeaf, member(1)] = pydantic.Field(default_factory=FLeaf)


@proto_contract
@dataclass
class HoldPLeaf:
    leaf: PLeaf = field(1)


@proto_contract
@dataclass
class HoldFLeaf:
    leaf: FLeaf = field(1)


@proto_contract
@dataclass
class HoldILeaf:
    leaf: ILeaf = field(1)


@proto_contract
@dataclass
class HoldHBase:
    leaf: HBase = field(1)


@proto_contract
@dataclass
class HoldTLeaf:
    leaf: TLeaf = field(1)


@proto_contract
@dataclass
class HoldPlainMid:
    leaf: PlainMid = field(1)


@proto_contract
@dataclass
class HoldPydMid:
    leaf: PydMid = field(1)


HOLDERS = {
    "pydantic": (HoldPLeaf, lambda tag: _len(2, tag) + b"\x08\x01"),
    "frozen": (HoldFLeaf, lambda tag: _len(2, tag) + b"\x08\x01"),
    "post_init": (HoldILeaf, lambda tag: _len(2, tag) + b"\x08\x01"),
    "hierarchy": (HoldHBase, lambda tag: _len(10, _len(1, tag)) + _len(2, tag)),
    "containers": (HoldTLeaf, lambda tag: _len(2, tag) + b"\x18\x05"),
    "in_place_around_frozen": (HoldPlainMid, lambda tag: _len(1, _len(2, tag))),
    "pydantic_around_frozen": (HoldPydMid, lambda tag: _len(1, _len(2, tag))),
}


def _unit(kind: str, i: int) -> bytes:
    """One occurrence of the holder's field: a new list item (and an unknown field)."""
    return _len(1, HOLDERS[kind][1](b"t%d" % (i % 10)) + b"\xfa\x01\x00")


def _data(kind: str, n: int) -> bytes:
    return b"".join(_unit(kind, i) for i in range(n))


def _seconds(model: pa.TypeModel, cls: type, data: bytes) -> float:
    """One decode's time, the collector off (its full passes grow with the heap)."""
    gc.disable()
    try:
        began = time.perf_counter()
        model.deserialize(cls, data)
        return time.perf_counter() - began
    finally:
        gc.enable()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", sorted(HOLDERS))
def test_a_repeated_field_merges_in_linear_time(kind: str, backend: str) -> None:
    """A first occurrence holding a long list, then many small ones: each used to copy
    the whole list (and run the constructor over it) again; now the total is what the
    two parts cost apart.  (A ratio of times, never a threshold of its own.)"""
    model = pa.TypeModel(backend=backend)
    cls = HOLDERS[kind][0]
    big = _len(4, bytes(4 * 100_000))  # a packed list of 100,000 fixed32
    big = _len(1, _len(1, big) if kind.endswith("_around_frozen") else big)
    many = _data(kind, 1000)
    model.deserialize(cls, many)
    gc.collect()
    t_big = min(_seconds(model, cls, big) for _ in range(3))
    t_many = min(_seconds(model, cls, many) for _ in range(3))
    t_both = min(_seconds(model, cls, big + many) for _ in range(3))
    assert t_both < 0.05 + 2 * (t_big + t_many)  # was 100 million list items copied


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", ["pydantic", "post_init"])
def test_the_class_is_built_twice_whatever_the_number_of_occurrences(
    kind: str, backend: str
) -> None:
    """The first occurrence builds (as a single one does); the merged values build once
    with the holder.  Every occurrence used to call the class."""
    model = pa.TypeModel(backend=backend)
    cls = HOLDERS[kind][0]
    CALLS[kind] = 0
    out = model.deserialize(cls, _data(kind, 500))
    assert CALLS[kind] == 2
    assert len(out.leaf.tags) == 500


def _outcome(model: pa.TypeModel, cls: type, data: bytes) -> tuple[str, Any]:
    try:
        out = model.deserialize(cls, data)
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return "ok", (out, model.serialize(out))


@pytest.mark.skipif(engine() is None, reason="the C engine is not built")
@pytest.mark.parametrize("kind", sorted(HOLDERS))
def test_both_backends_build_the_same_merged_object(kind: str) -> None:
    cls = HOLDERS[kind][0]
    nat, py = pa.TypeModel(backend="native"), pa.TypeModel(backend="python")
    for data in (_data(kind, 1), _data(kind, 3), _unit(kind, 0) + _len(1, b"") + _unit(kind, 1)):
        got = _outcome(nat, cls, data)
        assert got == _outcome(py, cls, data)
        assert got[0] == "ok"
        # every occurrence's fields, and every unknown field, in input order
        assert got[1][1] == py.serialize(py.deserialize(cls, py.serialize(got[1][0])))
    rnd = random.Random(kind)
    for _ in range(40):  # damaged input: the same error (offset included) or object
        data = garble(_data(kind, rnd.randrange(1, 6)), rnd)
        assert _outcome(nat, cls, data) == _outcome(py, cls, data), data.hex()


def test_the_merge_is_upbs() -> None:
    """Differential against upb's parse of the repeated field (its own merge)."""
    # (a frozenset field holds a set: not comparable with upb's repeated field)
    for kind in ("pydantic", "frozen", "post_init", "hierarchy", "pydantic_around_frozen"):
        cls = HOLDERS[kind][0]
        model = pa.TypeModel()
        pb = compile_proto(model.schema(cls), f"merge_linear_{kind}")
        upb = getattr(pb, cls.__name__)
        data = _data(kind, 7)
        want = upb.FromString(data)
        want.DiscardUnknownFields()
        for backend in BACKENDS:
            out = pa.TypeModel(backend=backend).deserialize(cls, data)
            got = upb.FromString(pa.serialize(out))
            got.DiscardUnknownFields()
            assert got == want, (kind, backend)


@proto_contract
class Checked(BaseModel):
    tags: Annotated[list[str], member(1)] = pydantic.Field(default_factory=list)

    @pydantic.field_validator("tags")
    @classmethod
    def _at_most_three(cls, tags: list[str]) -> list[str]:
        if len(tags) > 3:
            raise ValueError("more than three tags")
        return tags


@proto_contract
@dataclass(frozen=True)
class Needs:
    n: pa.int32 = field(1, required=True)
    tags: list[str] = field(2, default_factory=list)


@proto_contract
@dataclass
class HoldChecked:
    leaf: Checked = field(1)


@proto_contract
@dataclass
class HoldNeeds:
    leaf: Needs = field(1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_errors_read_as_before(backend: str) -> None:
    """A validator refusing the merged value: reported at the end of the last
    occurrence, where the last rebuild used to report it; a required field missing
    from the first occurrence: the first occurrence's error, as before (it is built
    as a single occurrence is)."""
    model = pa.TypeModel(backend=backend)
    four = b"".join(_len(1, _len(1, b"x")) for _ in range(4))
    with pytest.raises(pa.DecodeError, match=r"(?s)more than three tags.*at byte offset 20\)$"):
        model.deserialize(HoldChecked, four + _len(2, b""))  # an unknown field after it
    assert len(model.deserialize(HoldChecked, four[:15]).leaf.tags) == 3
    late = _len(1, _len(2, b"x")) + _len(1, b"\x08\x01")
    with pytest.raises(pa.DecodeError, match=r"required field n \(tag 1\) is missing .* 5\)"):
        model.deserialize(HoldNeeds, late)
    early = _len(1, b"\x08\x01") + _len(1, _len(2, b"x")) + _len(1, _len(2, b"y"))
    assert model.deserialize(HoldNeeds, early).leaf == Needs(1, ["x", "y"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_messages_counts_each_occurrence_as_before(backend: str) -> None:
    cls = HOLDERS["frozen"][0]
    data = _data("frozen", 50)  # the holder and 50 occurrences
    assert pa.TypeModel(backend=backend, max_messages=51).deserialize(cls, data)
    with pytest.raises(pa.DecodeError, match="more than max_messages=50") as caught:
        pa.TypeModel(backend=backend, max_messages=50).deserialize(cls, data)
    assert caught.value.offset == len(_data("frozen", 49)) + 2  # the 50th occurrence


@proto_contract
@dataclass
class Either:
    a: PLeaf | None = field(1, default=None, oneof="v")
    b: FLeaf | None = field(2, default=None, oneof="v")


@pytest.mark.parametrize("backend", BACKENDS)
def test_oneof_last_member_wins_over_a_merged_one(backend: str) -> None:
    model = pa.TypeModel(backend=backend)
    a1, a2, b = _len(1, _len(2, b"x")), _len(1, _len(2, b"y")), _len(2, _len(2, b"z"))
    assert model.deserialize(Either, a1 + a2 + b) == Either(b=FLeaf(tags=["z"]))
    assert model.deserialize(Either, a1 + b + a2 + a1) == Either(a=PLeaf(tags=["y", "x"]))
    assert model.deserialize(Either, b + a1 + b + b) == Either(b=FLeaf(tags=["z", "z"]))


@proto_contract
@dataclass
class HoldGroup:
    leaf: FLeaf | None = field(1, default=None, group=True)


def _group(body: bytes) -> bytes:
    return b"\x0b" + body + b"\x0c"  # field 1: start-group ... end-group


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_repeated_group_merges_in_linear_time(backend: str) -> None:
    """A singular group seen again merges as a message does (it rebuilt the class too)."""
    model = pa.TypeModel(backend=backend)
    big = _group(_len(4, bytes(4 * 100_000)))
    many = b"".join(_group(_len(2, b"t%d" % (i % 10)) + b"\xfa\x01\x00") for i in range(1000))
    model.deserialize(HoldGroup, many)
    gc.collect()
    t_big = min(_seconds(model, HoldGroup, big) for _ in range(3))
    t_many = min(_seconds(model, HoldGroup, many) for _ in range(3))
    t_both = min(_seconds(model, HoldGroup, big + many) for _ in range(3))
    assert t_both < 0.05 + 2 * (t_big + t_many)
    out = model.deserialize(HoldGroup, many[:36])  # four groups
    assert out.leaf is not None and out.leaf.tags == ["t0", "t1", "t2", "t3"]
    assert model.serialize(out) == _group(
        b"".join(_len(2, b"t%d" % i) for i in range(4)) + b"\xfa\x01\x00" * 4
    )


@given(st.data())
@settings(
    derandomize=True,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
def test_random_schemas_merge_as_upb_does(data: st.DataObject) -> None:
    """Random schemas (plain, frozen, slotted, attrs classes): three values' encodings
    concatenated read, on each backend, as upb's parse of the same bytes (its merge)."""
    schema = data.draw(rc.schemas(), label="schema")
    classes = rc.build_classes(schema)
    twin = rc.compile_twin(schema)
    lossy = any(f.kind in ("timestamp", "duration") for spec in schema for f in spec.fields)
    for spec in schema:
        cls, message_cls = classes[spec.index], getattr(twin, f"M{spec.index}")
        values = [data.draw(rc.values_for(schema, spec.index, classes)) for _ in range(3)]
        joined = b"".join(pa.serialize(v) for v in values)
        want = canonical(parse(message_cls, joined))
        outs = [pa.TypeModel(backend=b).deserialize(cls, joined) for b in BACKENDS]
        encoded = {pa.serialize(out) for out in outs}
        assert len(encoded) == 1, joined.hex(" ")  # both backends, one result
        if not lossy:
            assert canonical(parse(message_cls, encoded.pop())) == want, joined.hex(" ")
