"""Extensions (``pa.extension``) against upb's ``msg.Extensions[...]``, byte for byte.

Every scalar kind singular, repeated and packed, messages and groups (the schema is
:mod:`tests.ext_schema`): what upb writes reads back here and re-encodes to the same
bytes, and what ``set`` writes is what upb writes for the same extensions set in the
same order, unknown fields included.  Then the declaration errors.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests.ext_schema import EXTENSIONS, SCALARS, Base, Sub, from_upb_value, named, pb, set_upb
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=30)
IDS = [ext.full_name.rpartition(".")[2] for ext, *_ in EXTENSIONS]


@pytest.mark.parametrize(("ext", "desc", "values", "msg_cls"), EXTENSIONS, ids=IDS)
def test_each_extension_both_ways(ext: Any, desc: Any, values: Any, msg_cls: Any) -> None:
    for value in _examples(values):
        theirs = pb.Base(id=1)
        set_upb(theirs, desc, value, msg_cls)
        data = theirs.SerializeToString()
        ours = Base(id=1)
        ext.set(ours, value)
        assert pa.serialize(ours) == data
        back = pa.deserialize(Base, data)
        assert ext.get(back) == from_upb_value(theirs.Extensions[desc], ext, msg_cls)
        assert ext.has(back) == (theirs.HasExtension(desc) if not ext.repeated else bool(value))
        assert pa.serialize(back) == data  # kept byte-exact


def _examples(values: st.SearchStrategy[Any]) -> list[Any]:
    found: list[Any] = []

    @settings(derandomize=True, max_examples=8, database=None)
    @given(values)
    def collect(v: Any) -> None:
        found.append(v)

    collect()
    return found


@SETTINGS
@given(st.data())
def test_random_extensions_match_upb(data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(range(len(EXTENSIONS))), max_size=6, unique=True))
    theirs = pb.Base(id=data.draw(st.none() | st.integers(-3, 3)))
    ours = Base(id=theirs.id if theirs.HasField("id") else None)
    for i in chosen:
        ext, desc, values, msg_cls = EXTENSIONS[i]
        value = data.draw(values)
        set_upb(theirs, desc, value, msg_cls)
        ext.set(ours, value)
    upb_bytes = theirs.SerializeToString()
    assert pa.serialize(ours) == upb_bytes
    back = pa.deserialize(Base, upb_bytes)
    assert pa.serialize(back) == upb_bytes
    for ext, desc, _, msg_cls in EXTENSIONS:
        if ext.repeated or theirs.HasExtension(desc):
            assert ext.get(back) == from_upb_value(theirs.Extensions[desc], ext, msg_cls)
        else:
            assert ext.get(back) is None
    # and the other way: upb reads what protoattr wrote
    parsed = pb.Base.FromString(pa.serialize(ours))
    assert parsed.SerializeToString() == upb_bytes
    for _, desc, _, _ in EXTENSIONS:
        if desc.is_repeated:
            assert list(parsed.Extensions[desc]) == list(theirs.Extensions[desc])
        else:
            assert parsed.HasExtension(desc) == theirs.HasExtension(desc)


def test_set_replaces_where_upb_keeps_it() -> None:
    """An extension set again keeps its place; unknown fields stay after the extensions."""
    e_int32, r_string = named("e_int32"), named("r_string")
    raw = bytes.fromhex("f83e05") + bytes.fromhex("a00607") + b"\x08\x01"  # unknown 999, e_int32
    theirs = pb.Base.FromString(raw)
    ours = pa.deserialize(Base, raw)
    assert e_int32.get(ours) == 7
    for ext, desc, value in [(r_string, pb.r_string, ["a"]), (e_int32, pb.e_int32, 9)]:
        ext.set(ours, value)
        if isinstance(value, list):
            theirs.Extensions[desc].extend(value)
        else:
            theirs.Extensions[desc] = value
    assert pa.serialize(ours) == theirs.SerializeToString()
    e_int32.clear(ours)
    theirs.ClearExtension(pb.e_int32)
    assert pa.serialize(ours) == theirs.SerializeToString()
    assert not e_int32.has(ours) and e_int32.get(ours) is None


def test_repeated_reads_both_forms() -> None:
    """A repeated scalar extension reads packed and unpacked elements alike (as upb)."""
    r_int32, p_int32 = named("r_int32"), named("p_int32")
    unpacked, packed = bytes.fromhex("c00c01c00c02"), bytes.fromhex("c20c020304")  # field 200
    got = pa.deserialize(Base, unpacked + packed)
    assert (
        r_int32.get(got)
        == [1, 2, 3, 4]
        == list(pb.Base.FromString(unpacked + packed).Extensions[pb.r_int32])
    )
    p = pa.deserialize(Base, bytes.fromhex("e01201"))  # 300 unpacked
    assert p_int32.get(p) == [1]


def test_singular_last_wins_and_messages_merge() -> None:
    e_int32, e_sub = named("e_int32"), named("e_sub")
    raw = (
        bytes.fromhex("a00601a00602") + bytes.fromhex("8219020801") + bytes.fromhex("821903120161")
    )
    theirs = pb.Base.FromString(raw)
    ours = pa.deserialize(Base, raw)
    assert e_int32.get(ours) == theirs.Extensions[pb.e_int32] == 2
    assert e_sub.get(ours) == Sub(1, "a")
    assert theirs.Extensions[pb.e_sub] == pb.Sub(x=1, s="a")


def test_defaults_and_absence() -> None:
    @proto_contract(extensions=[(10, 20)])
    @dataclass
    class Opts:
        name: str = field(1, default="")

    level = pa.extension(Opts, 10, pa.int32, name="t.defaults.level", default=3)
    tags = pa.extension(Opts, 11, list[str], name="t.defaults.tags")
    o = Opts()
    assert level.get(o) == 3 and not level.has(o)
    assert tags.get(o) == [] and not tags.has(o)
    level.set(o, 0)  # explicit presence: a zero is written
    assert level.has(o) and level.get(o) == 0
    assert pa.serialize(o) == b"\x50\x00"
    level.set(o, None)
    assert pa.serialize(o) == b""
    tags.set(o, ["a"])
    tags.set(o, [])
    assert pa.serialize(o) == b"" and not tags.has(o)


def test_frozen_and_attrs_extendees() -> None:
    import attrs

    @proto_contract(extensions=[(10, 20)])
    @dataclass(frozen=True)
    class Frozen:
        a: pa.int32 = field(1, default=0)

    @proto_contract(extensions=[(10, 20)])
    @attrs.frozen
    class Slotted:
        a: Annotated[pa.int32, pa.member(1)] = 0

    for cls in (Frozen, Slotted):
        ext = pa.extension(cls, 10, str, name=f"t.frozen.{cls.__name__}")
        o = cls()
        ext.set(o, "x")
        assert pa.deserialize(cls, pa.serialize(o)) == o
        assert ext.get(pa.deserialize(cls, pa.serialize(o))) == "x"


def test_bad_values_name_the_extension() -> None:
    e_int32 = named("e_int32")
    with pytest.raises(pa.EncodeError, match=r"Base\.\[.*e_int32\]: expected int32, got str"):
        e_int32.set(Base(), "x")
    with pytest.raises(TypeError, match=r"extends Base, not Sub"):
        e_int32.get(Sub())  # type: ignore[arg-type]


# -- declarations -------------------------------------------------------------------


@proto_contract(extensions=[(100, 199), (300, 300)])
@dataclass
class Ext:
    a: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class NoRanges:
    a: pa.int32 = field(1, default=0)


@proto_contract(preserve_unknown=False, extensions=[(100, 199)])
@dataclass
class Forgetful:
    a: pa.int32 = field(1, default=0)


@dataclass(slots=True)
class _Plain:
    a: pa.int32 = field(1, default=0)


Unkeepable = proto_contract(extensions=[(100, 199)])(_Plain)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            (Ext, 200, int),
            {"name": "t.d.a"},
            r"Ext\.\[t\.d\.a\]: number 200 is not in the extension ranges of Ext "
            r"\(100 to 199, 300 to 300\)",
        ),
        ((NoRanges, 100, int), {"name": "t.d.b"}, r"NoRanges declares no extension ranges"),
        ((Forgetful, 100, int), {"name": "t.d.c"}, r"preserve_unknown=False.*cannot be extended"),
        ((Unkeepable, 100, int), {"name": "t.d.d"}, r"slotted without __weakref__"),
        ((Ext, 100, dict[str, int]), {"name": "t.d.e"}, r"an extension cannot be a map"),
        ((Ext, 100, int), {"name": "not a name"}, r"dotted full name"),
        (
            (Ext, 100, list[int]),
            {"name": "t.d.f", "default": [1]},
            r"repeated extension has no default",
        ),
        ((Ext, 100, pa.int32), {"name": "t.d.g", "default": "x"}, r"default 'x' is not a int32"),
        (
            (Ext, 100, list[str]),
            {"name": "t.d.h", "packed": True},
            r"Ext\.\[t\.d\.h\]: packed=True needs",
        ),
        ((Ext, 100, int), {"name": "t.d.i", "group": True}, r"group=True needs a contract"),
        ((Sub, 100, int), {"name": "t.d.j"}, r"Sub declares no extension ranges"),
        ((int, 100, int), {"name": "t.d.k"}, r"is not a contract"),
    ],
)
def test_declaration_errors(args: Any, kwargs: Any, message: str) -> None:
    with pytest.raises(pa.ContractError, match=message):
        pa.extension(*args, **kwargs)


def test_names_and_numbers_are_claimed_once() -> None:
    first = pa.extension(Ext, 150, int, name="t.claims.first")
    with pytest.raises(
        pa.ContractError, match=r"number 150 of Ext is already taken by extension 't.claims.first'"
    ):
        pa.extension(Ext, 150, str, name="t.claims.second")
    with pytest.raises(pa.ContractError, match=r"full name 't.claims.first' is already taken"):
        pa.extension(Ext, 151, int, name="t.claims.first")
    assert pa.default_model.find_extension("t.claims.first") is first
    assert first in pa.default_model.extensions_of(Ext)


def test_redeclared_extension_replaces_itself() -> None:
    for _ in range(2):
        again = pa.extension(Ext, 160, int, name="t.claims.again")
    assert pa.default_model.find_extension("t.claims.again") is again


@pytest.mark.parametrize(
    ("ranges", "message"),
    [
        ([(5, 1)], r"1 <= first <= last"),
        ([(0, 3)], r"1 <= first <= last"),
        ([5], r"extensions= takes \(first, last\) field-number pairs"),
        ([(1, 2, 3)], r"pairs"),
        ([(1.5, 3)], r"pairs"),
    ],
)
def test_bad_ranges(ranges: Any, message: str) -> None:
    with pytest.raises(pa.ContractError, match=message):

        @proto_contract(extensions=ranges)
        @dataclass
        class Bad:
            a: pa.int32 = field(1, default=0)


def test_ranges_may_be_ranges() -> None:
    @proto_contract(extensions=[range(100, 200), (300, 300)])
    @dataclass
    class Ranged:
        a: pa.int32 = field(1, default=0)

    assert pa.default_model.info(Ranged).options.extensions == ((100, 199), (300, 300))


def test_a_field_in_an_extension_range_is_refused() -> None:
    with pytest.raises(pa.ContractError, match=r"Clash\.b: tag 100 is in an extension range"):

        @proto_contract(extensions=[(100, 199)])
        @dataclass
        class Clash:
            b: pa.int32 = field(100, default=0)


def test_handle_reprs_and_properties() -> None:
    e = EXTENSIONS[0][0]
    assert repr(e) == f"<Extension [{e.full_name}] of Base at 100>"
    assert (e.number, e.extendee, e.repeated) == (100, Base, False)
    assert dataclasses.is_dataclass(e.info.holder)


# -- random contracts with random extensions, against protoc's classes for their schema --

_RANDOM = itertools.count()


@settings(derandomize=True, max_examples=20, database=None)
@given(st.data())
def test_random_contracts_with_random_extensions_match_upb(data: st.DataObject) -> None:
    """A random extendee and random extensions; the exported proto2 schema compiled by
    protoc; the same values set in the same order give the same bytes both ways."""
    package = f"randext{next(_RANDOM)}"
    n_fields = data.draw(st.integers(0, 3))
    kinds = [data.draw(st.sampled_from(SCALARS)) for _ in range(n_fields)]
    made = dataclasses.make_dataclass(
        "Host",
        [(f"f{i}", ann | None, field(i + 1, default=None)) for i, (_, ann, _) in enumerate(kinds)],
    )
    made.__module__ = __name__
    host = proto_contract(package=package, extensions=[(100, 199)])(made)
    numbers = data.draw(st.lists(st.integers(100, 199), min_size=1, max_size=4, unique=True))
    handles = []
    for n in numbers:
        _, ann, values = data.draw(st.sampled_from(SCALARS))
        shape = data.draw(st.sampled_from(["single", "repeated", "packed"]))
        if shape == "packed" and ann in (str, bytes):
            shape = "repeated"
        value_type = ann if shape == "single" else list[ann]  # type: ignore[valid-type]
        ext = pa.extension(host, n, value_type, name=f"{package}.x{n}", packed=shape == "packed")
        handles.append((ext, values if shape == "single" else st.lists(values, max_size=3)))
    pb = compile_proto(
        pa.default_model.schema(host, syntax="proto2"), package, unique_package=False
    )
    ours, theirs = host(), pb.Host()
    for i, (_, _, values) in enumerate(kinds):
        v = data.draw(st.none() | values)
        if v is not None:
            setattr(ours, f"f{i}", v)
            setattr(theirs, f"f{i}", int(v) if isinstance(v, enum.Enum) else v)
    for ext, values in handles:
        value = data.draw(values)
        ext.set(ours, value)
        got = getattr(pb, ext.full_name.rpartition(".")[2])
        plain = [int(v) if isinstance(v, enum.Enum) else v for v in value] if ext.repeated else (
            int(value) if isinstance(value, enum.Enum) else value
        )  # fmt: skip
        if ext.repeated:
            theirs.Extensions[got].extend(plain)
        else:
            theirs.Extensions[got] = plain
    wire = theirs.SerializeToString()
    assert pa.serialize(ours) == wire
    back = pa.deserialize(host, wire)
    assert pa.serialize(back) == wire
    for ext, _ in handles:
        assert ext.get(back) == ext.get(ours)


@proto_contract(extensions=[(100, 199)])
@dataclass
class Shape:
    name: str = field(1, default="")


@proto_contract(subtype_tag=10, extensions=[(100, 199)])
@dataclass
class Circle(Shape):
    r: float = field(2, default=0.0)


shape_color = pa.extension(Shape, 100, str, name="t.hier.color")
circle_size = pa.extension(Circle, 100, pa.int32, name="t.hier.size")


def test_each_level_of_a_hierarchy_has_its_own_extensions() -> None:
    """An extension of a base travels in the base's message, one of a subtype in the
    subtype's (the same number in both: each level is a message of its own)."""
    c = Circle("c", 2.0)
    shape_color.set(c, "red")
    circle_size.set(c, 3)
    data = pa.serialize(c)
    assert data == bytes.fromhex("520c110000000000000040a00603") + bytes.fromhex(
        "0a0163a20603726564"
    )
    back = pa.deserialize(Shape, data)
    assert (back, shape_color.get(back), circle_size.get(back)) == (c, "red", 3)
    text = pa.to_json(back, indent=None)
    assert (
        text == '{"name": "c", "Circle": {"r": 2.0, "[t.hier.size]": 3}, "[t.hier.color]": "red"}'
    )
    assert pa.serialize(pa.from_json(Shape, text)) == data


def test_merge_and_clone_keep_protobuf_semantics() -> None:
    """Merging bytes merges extensions as upb does: a singular one is replaced, a repeated
    one appended, a message one merged field by field."""
    e_int32, r_int32, e_sub = named("e_int32"), named("r_int32"), named("e_sub")
    a, b = Base(id=1), Base()
    theirs = pb.Base(id=1)
    for obj, value, sub in [(a, 1, Sub(x=1)), (b, 2, Sub(s="z"))]:
        e_int32.set(obj, value)
        r_int32.set(obj, [value])
        e_sub.set(obj, sub)
        theirs.MergeFromString(pa.serialize(obj))
    merged = pa.merge(a, pa.serialize(b))
    assert (e_int32.get(merged), r_int32.get(merged), e_sub.get(merged)) == (2, [1, 2], Sub(1, "z"))
    assert pa.deserialize(Base, theirs.SerializeToString()) == merged
    assert e_sub.get(pa.deserialize(Base, theirs.SerializeToString())) == Sub(1, "z")
    assert pa.serialize(pa.deep_clone(merged)) == pa.serialize(merged)
