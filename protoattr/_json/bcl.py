"""JSON of protobuf-net's bcl.proto forms: what ``json_format`` prints for the exported
schema, where each is a message of package ``bcl`` (``{"value": "21633690", "scale":
"MINUTES"}``), and its reading back.  The values go through the binary rules of
:mod:`protoattr._core.bcl`, so the JSON is exactly the message's fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._core import bcl as _bcl
from .._core.contract import ValueType
from .._core.errors import DecodeError, EncodeError
from .._core.types import Kind
from .._core.wire import encode_varint

__all__ = ["bcl_reader", "bcl_writer"]

_SCALES = {0: "DAYS", 1: "HOURS", 2: "MINUTES", 3: "SECONDS", 4: "MILLISECONDS", 5: "TICKS",
           15: "MINMAX"}  # fmt: skip
_KINDS = {0: "UNSPECIFIED", 1: "UTC", 2: "LOCAL"}
_BY_NAME = {"scale": {v: k for k, v in _SCALES.items()}, "kind": {v: k for k, v in _KINDS.items()}}
#: per kind: (JSON name, field number, printed as a string (64-bit), enum names or None)
_FIELDS: dict[Kind, tuple[tuple[str, int, bool, dict[int, str] | None], ...]] = {
    Kind.BCL_DATETIME: (("value", 1, True, None), ("scale", 2, False, _SCALES),
                        ("kind", 3, False, _KINDS)),
    Kind.BCL_TIMESPAN: (("value", 1, True, None), ("scale", 2, False, _SCALES)),
    Kind.BCL_DECIMAL: (("lo", 1, True, None), ("hi", 2, False, None),
                       ("signScale", 3, False, None)),
    Kind.BCL_GUID: (("lo", 1, True, None), ("hi", 2, True, None)),
}  # fmt: skip
_ENCODE: dict[Kind, Callable[[Any], bytes]] = {
    Kind.BCL_DATETIME: _bcl.encode_datetime,
    Kind.BCL_TIMESPAN: _bcl.encode_timespan,
    Kind.BCL_DECIMAL: _bcl.encode_decimal,
    Kind.BCL_GUID: _bcl.encode_guid,
}
_DECODE = {
    Kind.BCL_DATETIME: _bcl.decode_datetime,
    Kind.BCL_TIMESPAN: _bcl.decode_timespan,
    Kind.BCL_DECIMAL: _bcl.decode_decimal,
    Kind.BCL_GUID: _bcl.decode_guid,
}


def _fields_of(body: bytes) -> dict[int, int]:
    """The numbers of a bcl body (varints and fixed64s, as protoattr writes them)."""
    out: dict[int, int] = {}
    pos = 0
    while pos < len(body):
        tag = body[pos]
        pos += 1
        if tag & 7 == 1:
            out[tag >> 3] = int.from_bytes(body[pos : pos + 8], "little")
            pos += 8
            continue
        x = shift = 0
        while True:
            b = body[pos]
            pos += 1
            x |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        out[tag >> 3] = x
    return out


def bcl_writer(
    vt: ValueType, where: str, enum_ints: bool = False, always: bool = False
) -> Callable[[Any], Any]:
    """The JSON object of a bcl value, as json_format prints the message (``enum_ints``:
    scale and kind as numbers; ``always``: its zero fields too)."""
    kind = vt.kind
    encode: Callable[[Any], bytes] = _bcl.encode_datetime_kind if vt.with_kind else _ENCODE[kind]
    fields = _FIELDS[kind]

    def write_bcl(v: Any) -> dict[str, Any]:
        try:
            numbers = _fields_of(encode(v))
        except (TypeError, ValueError) as exc:
            raise EncodeError(f"{where}: {exc}") from None
        out: dict[str, Any] = {}
        for name, number, wide, names in fields:
            x = numbers.get(number, 0)
            if not x and not always:
                continue
            if number == 1 and kind in (Kind.BCL_DATETIME, Kind.BCL_TIMESPAN):
                x = (x >> 1) ^ -(x & 1)  # sint64
            if names:
                out[name] = x if enum_ints else names.get(x, x)
            else:
                out[name] = str(x) if wide else x
        return out

    return write_bcl


def bcl_reader(vt: ValueType, p: Callable[[Any], str]) -> Callable[..., Any]:
    """A bcl value from its JSON object (numbers as numbers or strings, enums by name or
    number), through the binary rules."""
    kind = vt.kind
    fields = _FIELDS[kind]
    decode = _DECODE[kind]
    known = {name for name, *_ in fields}

    def read_bcl(v: Any, path: Any, depth: int) -> Any:
        if not isinstance(v, dict):
            raise DecodeError(f"{p(path)}: expected an object for {kind.value}, got {v!r:.40}")
        unknown = set(v) - known
        if unknown:
            raise DecodeError(f"{p(path)}: {kind.value} has no field {sorted(unknown)[0]!r}")
        body = b""
        for name, number, _wide, names in fields:
            if name not in v or v[name] is None:
                continue
            x = v[name]
            if names is not None and isinstance(x, str):
                if x not in _BY_NAME[name]:
                    raise DecodeError(f"{p(path)}.{name}: unknown {name} {x!r}")
                x = _BY_NAME[name][x]
            elif isinstance(x, str) and x.lstrip("-").isdigit():
                x = int(x)
            if type(x) is not int:
                raise DecodeError(f"{p(path)}.{name}: expected an integer, got {x!r:.40}")
            if kind is Kind.BCL_GUID:
                if not 0 <= x < 1 << 64:
                    raise DecodeError(f"{p(path)}.{name}: {x} does not fit fixed64")
                body += bytes([number << 3 | 1]) + x.to_bytes(8, "little")
                continue
            if number == 1 and kind in (Kind.BCL_DATETIME, Kind.BCL_TIMESPAN):
                if not _bcl.INT64_MIN <= x <= _bcl.INT64_MAX:
                    raise DecodeError(f"{p(path)}.{name}: {x} does not fit sint64")
                x = (x << 1) ^ (x >> 63)
            if not 0 <= x < 1 << 64:
                raise DecodeError(f"{p(path)}.{name}: {x} is out of range")
            body += bytes([number << 3]) + encode_varint(x)
        try:
            return decode(body, 0, len(body), 0, 100, p(path))
        except DecodeError as exc:
            raise DecodeError(str(exc).split(" (at byte")[0]) from None

    return read_bcl
