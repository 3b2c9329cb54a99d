"""A proto2 schema with an extension of every kind, its protoc twin, and value strategies.

``Base`` is extended with one singular extension per scalar kind (100..115), one
unpacked repeated (200..215) and one packed repeated per packable kind (300..313),
and message, repeated message, group and repeated group extensions (400..403).
``EXTENSIONS`` pairs each protoattr handle with upb's extension descriptor, and
``VALUES`` gives a Hypothesis strategy of one value of each.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests.protoc import compile_proto

#: (proto type, protoattr annotation, strategy of one value)
SCALARS: list[tuple[str, Any, st.SearchStrategy[Any]]] = []


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]  # type: ignore[no-any-return]


class Color(enum.IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


_INT = {
    "int32": (pa.int32, 32, True), "int64": (pa.int64, 64, True),
    "uint32": (pa.uint32, 32, False), "uint64": (pa.uint64, 64, False),
    "sint32": (pa.sint32, 32, True), "sint64": (pa.sint64, 64, True),
    "fixed32": (pa.fixed32, 32, False), "fixed64": (pa.fixed64, 64, False),
    "sfixed32": (pa.sfixed32, 32, True), "sfixed64": (pa.sfixed64, 64, True),
}  # fmt: skip
for _name, (_ann, _bits, _signed) in _INT.items():
    _lo, _hi = (-(1 << (_bits - 1)), (1 << (_bits - 1)) - 1) if _signed else (0, (1 << _bits) - 1)
    SCALARS.append((_name, _ann, st.integers(_lo, _hi)))
SCALARS += [
    ("bool", bool, st.booleans()),
    ("float", pa.float32, st.floats(width=32, allow_nan=False).map(_f32)),
    ("double", float, st.floats(allow_nan=False)),
    ("Color", Color, st.sampled_from(list(Color))),
    ("string", str, st.text(max_size=8)),
    ("bytes", bytes, st.binary(max_size=8)),
]
PACKABLE = [s for s in SCALARS if s[0] not in ("string", "bytes")]


def _proto() -> str:
    lines = [
        'syntax = "proto2";',
        "package exts;",
        "enum Color { RED = 0; GREEN = 1; BLUE = 2; }",
        "message Base { optional int32 id = 1; optional string tail = 500; "
        "extensions 100 to 499; }",
        "message Sub { optional int32 x = 1; optional string s = 2; }",
        "extend Base {",
    ]
    for i, (t, _, _) in enumerate(SCALARS):
        lines.append(f"  optional {t} e_{t.lower()} = {100 + i};")
        lines.append(f"  repeated {t} r_{t.lower()} = {200 + i};")
    for i, (t, _, _) in enumerate(PACKABLE):
        lines.append(f"  repeated {t} p_{t.lower()} = {300 + i} [packed = true];")
    lines += [
        "  optional Sub e_sub = 400;",
        "  repeated Sub r_sub = 401;",
        "  optional group G = 402 { optional int32 x = 1; optional string s = 2; }",
        "  repeated group RG = 403 { optional int32 x = 1; optional string s = 2; }",
        "}",
    ]
    return "\n".join(lines) + "\n"


PROTO = _proto()
pb = compile_proto(PROTO, "ext_kinds")
PKG = pb.DESCRIPTOR.package


@proto_contract(package=PKG, extensions=[(100, 499)])
@dataclass
class Base:
    id: pa.int32 | None = field(1, default=None)
    tail: str | None = field(500, default=None)


@proto_contract(package=PKG)
@dataclass
class Sub:
    x: pa.int32 | None = field(1, default=None)
    s: str | None = field(2, default=None)


@proto_contract(package=PKG, name="G")
@dataclass
class G:
    x: pa.int32 | None = field(1, default=None)
    s: str | None = field(2, default=None)


@proto_contract(package=PKG, name="RG")
@dataclass
class RG:
    x: pa.int32 | None = field(1, default=None)
    s: str | None = field(2, default=None)


_SUB = st.builds(Sub, st.none() | st.integers(-5, 5), st.none() | st.text(max_size=4))
_G = st.builds(G, st.none() | st.integers(-5, 5), st.none() | st.text(max_size=4))
_RG = st.builds(RG, st.none() | st.integers(-5, 5), st.none() | st.text(max_size=4))

#: (protoattr handle, upb extension descriptor, strategy of a value, upb message class)
EXTENSIONS: list[tuple[pa.Extension[Base, Any], Any, st.SearchStrategy[Any], Any]] = []
for _i, (_t, _ann, _values) in enumerate(SCALARS):
    _n = _t.lower()
    EXTENSIONS.append(
        (pa.extension(Base, 100 + _i, _ann, name=f"{PKG}.e_{_n}"), getattr(pb, f"e_{_n}"),
         _values, None)
    )  # fmt: skip
    EXTENSIONS.append(
        (pa.extension(Base, 200 + _i, list[_ann], name=f"{PKG}.r_{_n}"),  # type: ignore[valid-type]
         getattr(pb, f"r_{_n}"), st.lists(_values, max_size=4), None)
    )  # fmt: skip
for _i, (_t, _ann, _values) in enumerate(PACKABLE):
    _n = _t.lower()
    EXTENSIONS.append(
        (pa.extension(Base, 300 + _i, list[_ann], name=f"{PKG}.p_{_n}", packed=True),  # type: ignore[valid-type]
         getattr(pb, f"p_{_n}"), st.lists(_values, max_size=4), None)
    )  # fmt: skip
e_sub = pa.extension(Base, 400, Sub, name=f"{PKG}.e_sub")
r_sub = pa.extension(Base, 401, list[Sub], name=f"{PKG}.r_sub")
g = pa.extension(Base, 402, G, name=f"{PKG}.g", group=True)
rg = pa.extension(Base, 403, list[RG], name=f"{PKG}.rg", group=True)
EXTENSIONS += [
    (e_sub, pb.e_sub, _SUB, pb.Sub),
    (r_sub, pb.r_sub, st.lists(_SUB, max_size=3), pb.Sub),
    (g, pb.g, _G, pb.G),
    (rg, pb.rg, st.lists(_RG, max_size=3), pb.RG),
]
BY_NAME = {ext.full_name: (ext, desc, values, msg) for ext, desc, values, msg in EXTENSIONS}


def to_upb_value(value: Any, msg_cls: Any) -> Any:
    """A protoattr extension value as upb holds it."""
    if isinstance(value, list):
        return [to_upb_value(v, msg_cls) for v in value]
    if msg_cls is not None:
        return msg_cls.FromString(pa.serialize(value))
    if isinstance(value, enum.Enum):
        return int(value.value)
    return value


def set_upb(msg: Any, desc: Any, value: Any, msg_cls: Any) -> None:
    """``msg.Extensions[desc] = value`` in the form upb takes for each label and kind."""
    got = to_upb_value(value, msg_cls)
    if isinstance(value, list):
        if msg_cls is not None:
            for v in got:
                msg.Extensions[desc].add().CopyFrom(v)
        else:
            msg.Extensions[desc].extend(got)
    elif msg_cls is not None:
        msg.Extensions[desc].CopyFrom(got)
    else:
        msg.Extensions[desc] = got


def from_upb_value(value: Any, ext: pa.Extension[Base, Any], msg_cls: Any) -> Any:
    """upb's value of an extension, as protoattr's ``get`` returns it."""
    cls = ext.info.field.value.py_type if msg_cls is not None else None

    def one(v: Any) -> Any:
        return pa.deserialize(cls, v.SerializeToString()) if cls is not None else v

    return [one(v) for v in value] if ext.repeated else one(value)


def named(short: str) -> pa.Extension[Base, Any]:
    """The handle of extension ``short`` (``"e_int32"``)."""
    return BY_NAME[f"{PKG}.{short}"][0]
