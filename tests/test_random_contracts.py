"""Property-based round trips over randomly generated contract *classes*.

Hypothesis draws a schema - a few messages, each with random field kinds, tags,
labels (singular, Optional, repeated packed/unpacked, map, oneof), nesting,
declaration order, class flavour (plain, frozen and slotted dataclasses, attrs
and frozen attrs classes) and implicit tags - then builds the classes with
``dataclasses.make_dataclass`` / ``attrs.make_class`` + ``proto_contract`` and
the twin ``.proto`` text.  For values drawn for those classes:

* protoattr decodes its own bytes to an equal object (floats bitwise);
* Google's runtime, on the compiled twin, parses protoattr's bytes to the same
  message, and protoattr decodes Google's bytes to the same object;
* the bytes are identical whenever no map holds two entries (whose order is
  free);
* ``measure`` is the encoded length and ``deep_clone`` an equal copy.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import itertools
import struct
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.contracts import assert_same, to_pb
from tests.contracts3 import canonical, parse
from tests.protoc import compile_proto

RANDOM_CLASSES = 30

SETTINGS = settings(
    derandomize=True,
    max_examples=RANDOM_CLASSES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Suit(enum.IntEnum):
    SUIT_ZERO = 0
    HEARTS = 1
    SPADES = 2
    NEGATIVE = -1


SUIT_PROTO = "enum Suit {\n  SUIT_ZERO = 0;\n  HEARTS = 1;\n  SPADES = 2;\n  NEGATIVE = -1;\n}\n"


def _f32(x: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


def _ints(bits: int, signed: bool) -> st.SearchStrategy[int]:
    if signed:
        return st.integers(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return st.integers(0, 2**bits - 1)


TEXT = st.text(st.characters(codec="utf-8"), max_size=6)

#: scalar kind -> (annotation, proto type, value strategy, packable)
SCALARS: dict[str, tuple[Any, str, st.SearchStrategy[Any], bool]] = {
    "int32": (pa.int32, "int32", _ints(32, True), True),
    "int64": (pa.int64, "int64", _ints(64, True), True),
    "plain_int": (int, "int64", _ints(64, True), True),
    "uint32": (pa.uint32, "uint32", _ints(32, False), True),
    "uint64": (pa.uint64, "uint64", _ints(64, False), True),
    "sint32": (pa.sint32, "sint32", _ints(32, True), True),
    "sint64": (pa.sint64, "sint64", _ints(64, True), True),
    "fixed32": (pa.fixed32, "fixed32", _ints(32, False), True),
    "fixed64": (pa.fixed64, "fixed64", _ints(64, False), True),
    "sfixed32": (pa.sfixed32, "sfixed32", _ints(32, True), True),
    "sfixed64": (pa.sfixed64, "sfixed64", _ints(64, True), True),
    "float": (pa.float32, "float", st.floats(width=32).map(_f32), True),
    "double": (float, "double", st.floats(), True),
    "bool": (bool, "bool", st.booleans(), True),
    "string": (str, "string", TEXT, False),
    "bytes": (bytes, "bytes", st.binary(max_size=6), False),
    "enum": (
        Suit,
        "Suit",
        st.one_of(st.sampled_from(Suit), st.integers(3, 2**31 - 1), st.integers(-(2**31), -2)),
        True,
    ),
    "timestamp": (
        datetime,
        "google.protobuf.Timestamp",
        st.datetimes(
            min_value=datetime(1, 1, 1),
            max_value=datetime(9999, 12, 31, 23, 59, 59, 999999),
            timezones=st.just(timezone.utc),
        ),
        False,
    ),
    "duration": (
        timedelta,
        "google.protobuf.Duration",
        st.timedeltas(
            min_value=timedelta(seconds=-315576000000), max_value=timedelta(seconds=315576000000)
        ),
        False,
    ),
}
#: well-known types: imported by the twin only when used (protoc warns otherwise)
WELL_KNOWN = {
    "timestamp": "google/protobuf/timestamp.proto",
    "duration": "google/protobuf/duration.proto",
}
MAP_KEYS = [
    "int32", "int64", "uint32", "uint64", "sint32", "sint64",
    "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string",
]  # fmt: skip

# ------------------------------------------------------------------ schemas


@dataclasses.dataclass(frozen=True)
class FieldSpec:
    name: str
    tag: int
    label: str  # singular | optional | repeated | map | oneof
    kind: str  # a SCALARS key or "msg:<index>"
    key: str | None = None  # map key kind
    packed: bool = True
    oneof: str | None = None
    message_style: str = "optional"  # singular messages: required_kw | factory


@dataclasses.dataclass(frozen=True)
class MessageSpec:
    index: int
    fields: tuple[FieldSpec, ...]  # in declaration order
    flavour: str  # plain | frozen | slots | attrs | attrs_frozen | pydantic
    implicit: bool


_SMALL_TAGS = st.integers(1, 40)
_WIDE_TAGS = st.integers(16, 18999) | st.integers(20000, 536870911)
TAGS = st.one_of(_SMALL_TAGS, _SMALL_TAGS, _WIDE_TAGS)


@st.composite
def message_specs(draw: st.DrawFn, index: int) -> MessageSpec:
    """One message; it may refer to the messages with a smaller index."""
    kinds = list(SCALARS) + [f"msg:{i}" for i in range(index)] * 8
    implicit = draw(st.integers(0, 3)) == 0
    count = draw(st.integers(1, 6))
    if implicit:
        tags = list(range(1, count + 1))
    else:
        tags = draw(st.lists(TAGS, min_size=count, max_size=count, unique=True))
    fields: list[FieldSpec] = []
    # the first ``members`` fields form a oneof (none in implicit classes)
    members = 0 if implicit else draw(st.sampled_from([0, 2, 0, 3]))
    oneof_name = f"choice{index}"
    for n, tag in enumerate(tags):
        kind = draw(st.sampled_from(kinds))
        is_msg = kind.startswith("msg:")
        labels = ["singular", "optional", "repeated", "map"]
        label = "oneof" if n < members else draw(st.sampled_from(labels))
        key = draw(st.sampled_from(MAP_KEYS)) if label == "map" else None
        packed = True
        if label == "repeated" and not is_msg and SCALARS[kind][3] and not implicit:
            packed = draw(st.booleans())
        style = "optional"
        if is_msg and label == "singular":
            style = draw(st.sampled_from(["optional", "required_kw", "factory"]))
            if implicit:
                style = "optional"
        fields.append(
            FieldSpec(
                name=f"f{n}_{tag}",
                tag=tag,
                label=label,
                kind=kind,
                key=key,
                packed=packed,
                oneof=oneof_name if label == "oneof" else None,
                message_style=style,
            )
        )
    flavour = draw(st.sampled_from(["plain", "frozen", "slots", "attrs", "attrs_frozen"]))
    return MessageSpec(index, tuple(fields), flavour, implicit)


@st.composite
def schemas(draw: st.DrawFn) -> tuple[MessageSpec, ...]:
    count = draw(st.sampled_from([3, 2, 1, 3]))  # mostly nested schemas
    return tuple(draw(message_specs(i)) for i in range(count))


# ------------------------------------------------------------ building classes

_serial = itertools.count()


def build_classes(schema: tuple[MessageSpec, ...]) -> list[type]:
    serial = next(_serial)
    classes: list[type] = []
    for spec in schema:
        name = f"Random{serial}_{spec.index}"
        if spec.flavour == "pydantic":  # drawn by tests/test_pydantic.py
            made = _pydantic_class(name, spec, classes)
        elif spec.flavour.startswith("attrs"):
            made = attrs.make_class(
                name,
                {f.name: _attrs_field(f, classes, spec.implicit) for f in spec.fields},
                frozen=spec.flavour == "attrs_frozen",
            )
        else:
            made = dataclasses.make_dataclass(
                name,
                [
                    (f.name, _annotation(f, classes), _dataclass_field(f, classes, spec.implicit))
                    for f in spec.fields
                ],
                frozen=spec.flavour == "frozen",
                slots=spec.flavour == "slots",
            )
        made.__module__ = __name__
        classes.append(proto_contract(implicit_fields=spec.implicit)(made))
    return classes


def _pydantic_class(name: str, spec: MessageSpec, classes: list[type]) -> type:
    import pydantic

    fields: dict[str, Any] = {}
    for f in spec.fields:
        annotation = _annotation(f, classes)
        if not spec.implicit:
            annotation = Annotated[annotation, member(f.tag, **_member_options(f))]
        default = _default(f, classes)
        if "factory" in default:
            fields[f.name] = (annotation, pydantic.Field(default_factory=default["factory"]))
        else:
            fields[f.name] = (annotation, default.get("default", ...))
    made: type = pydantic.create_model(name, __module__=__name__, **fields)
    return made


def _element(kind: str, classes: list[type]) -> Any:
    if kind.startswith("msg:"):
        return classes[int(kind[4:])]
    return SCALARS[kind][0]


def _annotation(f: FieldSpec, classes: list[type]) -> Any:
    element = _element(f.kind, classes)
    if f.label == "repeated":
        return list[element]  # type: ignore[valid-type]
    if f.label == "map":
        assert f.key is not None
        return dict[SCALARS[f.key][0], element]  # type: ignore[misc]
    if f.label in ("optional", "oneof") or (
        f.kind.startswith("msg:") and f.message_style == "optional"
    ):
        return element | None
    return element


def _zero(kind: str) -> Any:
    return {
        "float": 0.0, "double": 0.0, "bool": False, "string": "", "bytes": b"",
        "enum": Suit.SUIT_ZERO, "timestamp": datetime(1970, 1, 1, tzinfo=timezone.utc),
        "duration": timedelta(0),
    }.get(kind, 0)  # fmt: skip


def _default(f: FieldSpec, classes: list[type]) -> dict[str, Any]:
    """``{"default": v}``, ``{"factory": f}`` or ``{}`` (none: keyword-only)."""
    is_msg = f.kind.startswith("msg:")
    if f.label == "repeated":
        return {"factory": list}
    if f.label == "map":
        return {"factory": dict}
    if f.label in ("optional", "oneof") or (is_msg and f.message_style == "optional"):
        return {"default": None}
    if is_msg and f.message_style == "factory":
        return {"factory": classes[int(f.kind[4:])]}
    if is_msg:
        return {}
    return {"default": _zero(f.kind)}


def _member_options(f: FieldSpec) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if not f.packed:
        options["packed"] = False
    if f.oneof is not None:
        options["oneof"] = f.oneof
    return options


def _dataclass_field(f: FieldSpec, classes: list[type], implicit: bool) -> Any:
    default = _default(f, classes)
    kw: dict[str, Any] = {}
    if "factory" in default:
        kw["default_factory"] = default["factory"]
    elif "default" in default:
        kw["default"] = default["default"]
    else:  # no default: keyword-only, so it may follow fields with defaults
        kw["kw_only"] = True
    if implicit:
        return dataclasses.field(**kw)
    return field(f.tag, **kw, **_member_options(f))


def _attrs_field(f: FieldSpec, classes: list[type], implicit: bool) -> Any:
    annotation = _annotation(f, classes)
    if not implicit:
        annotation = Annotated[annotation, member(f.tag, **_member_options(f))]
    default = _default(f, classes)
    if "factory" in default:
        return attrs.field(type=annotation, factory=default["factory"])
    if "default" in default:
        return attrs.field(type=annotation, default=default["default"])
    return attrs.field(type=annotation, kw_only=True)


# ------------------------------------------------------------ the twin .proto


def proto_text(schema: tuple[MessageSpec, ...]) -> str:
    out = ['syntax = "proto3";']
    used = {f.kind for spec in schema for f in spec.fields}
    out += [f'import "{path}";' for kind, path in WELL_KNOWN.items() if kind in used]
    out.append(SUIT_PROTO)
    for spec in schema:
        out.append(f"message M{spec.index} {{")
        oneofs: dict[str, list[str]] = {}
        for f in spec.fields:
            ptype = f"M{f.kind[4:]}" if f.kind.startswith("msg:") else SCALARS[f.kind][1]
            decl = f"{ptype} {f.name} = {f.tag}"
            if f.label == "oneof":
                assert f.oneof is not None
                oneofs.setdefault(f.oneof, []).append(f"    {decl};")
                continue
            if f.label == "optional" and not f.kind.startswith("msg:"):
                decl = "optional " + decl
            elif f.label == "repeated":
                decl = "repeated " + decl + ("" if f.packed else " [packed = false]")
            elif f.label == "map":
                assert f.key is not None
                decl = f"map<{SCALARS[f.key][1]}, {ptype}> {f.name} = {f.tag}"
            out.append(f"  {decl};")
        for name, members in oneofs.items():
            out.append(f"  oneof {name} {{")
            out.extend(members)
            out.append("  }")
        out.append("}")
    return "\n".join(out) + "\n"


def compile_twin(schema: tuple[MessageSpec, ...]) -> Any:
    text = proto_text(schema)
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return compile_proto(text, f"random_{digest}")  # cached per text


# ------------------------------------------------------------------- values


def values_for(
    schema: tuple[MessageSpec, ...], index: int, classes: list[type]
) -> st.SearchStrategy[Any]:
    spec = schema[index]
    cls = classes[index]
    members_only = spec.flavour == "pydantic"  # pydantic refuses unknown enum numbers
    kwargs: dict[str, st.SearchStrategy[Any]] = {}
    oneof_members = [f for f in spec.fields if f.label == "oneof"]
    for f in spec.fields:
        if f.label == "oneof":
            continue
        kwargs[f.name] = _field_values(f, schema, classes, members_only)
    base = st.fixed_dictionaries(kwargs)
    if oneof_members:
        chosen = st.none() | st.sampled_from(oneof_members)

        def add_member(pair: tuple[dict[str, Any], Any]) -> st.SearchStrategy[Any]:
            values, member = pair
            if member is None:
                return st.just(values)
            return _element_values(member.kind, schema, classes, members_only).map(
                lambda v: {**values, member.name: v}
            )

        base = st.tuples(base, chosen).flatmap(add_member)
    return base.map(lambda kw: cls(**kw))


def _element_values(
    kind: str, schema: tuple[MessageSpec, ...], classes: list[type], members_only: bool = False
) -> st.SearchStrategy[Any]:
    if kind.startswith("msg:"):
        return values_for(schema, int(kind[4:]), classes)  # an earlier message: no cycles
    if kind == "enum" and members_only:
        return st.sampled_from(list(Suit))
    return SCALARS[kind][2]


def _field_values(
    f: FieldSpec, schema: tuple[MessageSpec, ...], classes: list[type], members_only: bool = False
) -> st.SearchStrategy[Any]:
    element = _element_values(f.kind, schema, classes, members_only)
    if f.label == "repeated":
        return st.lists(element, max_size=3)
    if f.label == "map":
        assert f.key is not None
        return st.dictionaries(SCALARS[f.key][2], element, max_size=2)
    is_msg = f.kind.startswith("msg:")
    if f.label == "optional" or (is_msg and f.message_style == "optional"):
        return st.none() | element
    return element


def _multi_entry_map(obj: Any) -> bool:
    """True when ``obj`` holds, at any depth, a map with two or more entries."""
    if isinstance(obj, dict):
        return len(obj) > 1 or any(_multi_entry_map(v) for v in obj.values())
    if isinstance(obj, list):
        return any(_multi_entry_map(v) for v in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return any(_multi_entry_map(getattr(obj, f.name)) for f in dataclasses.fields(obj))
    if attrs.has(type(obj)):
        return any(_multi_entry_map(getattr(obj, a.name)) for a in attrs.fields(type(obj)))
    if hasattr(type(obj), "model_fields"):  # a pydantic model
        return any(_multi_entry_map(getattr(obj, name)) for name in type(obj).model_fields)
    return False


# ------------------------------------------------------------------- checks


@given(st.data())
@SETTINGS
def test_random_contracts_round_trip_and_match_google(data: st.DataObject) -> None:
    schema = data.draw(schemas(), label="schema")
    classes = build_classes(schema)
    twin = compile_twin(schema)
    for spec in schema:
        cls = classes[spec.index]
        message_cls = getattr(twin, f"M{spec.index}")
        for _ in range(2):
            obj = data.draw(values_for(schema, spec.index, classes), label=cls.__name__)
            check_one(obj, message_cls)


def check_one(obj: Any, message_cls: Any) -> None:
    cls = type(obj)
    encoded = pa.serialize(obj)
    assert_same(pa.deserialize(cls, encoded), obj)
    assert pa.measure(obj) == len(encoded)
    assert_same(pa.deep_clone(obj), obj)

    expected = to_pb(obj, message_cls)
    assert canonical(parse(message_cls, encoded)) == canonical(expected)
    google = expected.SerializeToString()
    assert_same(pa.deserialize(cls, google), obj)
    if not _multi_entry_map(obj):
        assert encoded.hex(" ") == google.hex(" ")


def test_the_twin_generator_on_a_fixed_schema() -> None:
    # A readable instance of what the property test generates, checked by hand.
    inner = MessageSpec(0, (FieldSpec("f0_1", 1, "singular", "sint32"),), "plain", False)
    outer = MessageSpec(
        1,
        (
            FieldSpec("f0_3", 3, "map", "msg:0", key="string"),
            FieldSpec("f1_2", 2, "repeated", "double", packed=False),
            FieldSpec("f2_9", 9, "oneof", "enum", oneof="choice1"),
            FieldSpec("f3_7", 7, "oneof", "msg:0", oneof="choice1"),
            FieldSpec("f4_1", 1, "singular", "msg:0", message_style="required_kw"),
        ),
        "frozen",
        False,
    )
    schema = (inner, outer)
    text = proto_text(schema)
    assert "map<string, M0> f0_3 = 3;" in text
    assert "repeated double f1_2 = 2 [packed = false];" in text
    assert "oneof choice1 {" in text
    classes = build_classes(schema)
    Inner, Outer = classes
    obj = Outer(
        f4_1=Inner(f0_1=-1), f0_3={"k": Inner(f0_1=2)}, f1_2=[0.5, -0.0], f2_9=Suit.NEGATIVE
    )
    assert pa.serialize(obj) == (
        b"\x0a\x02\x08\x01"
        + b"\x11" + struct.pack("<d", 0.5) + b"\x11" + struct.pack("<d", -0.0)
        + b"\x1a\x07\x0a\x01k\x12\x02\x08\x04"
        + b"\x48\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"
    )  # fmt: skip
    check_one(obj, compile_twin(schema).M1)
    check_one(Outer(f4_1=Inner()), compile_twin(schema).M1)
