"""The canonical-JSON forms of the well-known types, registered with :mod:`._jsonforms`.

Each form is a pair ``to_json(value, ctx)`` / ``from_json(json_value, path, ctx)``
keyed by the Python type a field holds: ``pa.Timestamp``, ``pa.Duration``,
``pa.FieldMask``, ``pa.Any``, ``dict`` (``pa.Struct``), ``object``
(``pa.JsonValue``), ``list`` (``pa.ListValue``), ``pa.NullValue`` and the nine
wrapper contracts (which hold the bare value).  The rules are
``google.protobuf.json_format``'s; where it accepts sloppier input (``int()``'s
underscores and spaces in a Duration, one-digit months in a Timestamp) these
forms are stricter, never looser.

Values that have no JSON form (a Timestamp outside 0001..9999, ``NaN`` in a
``Value``) are :class:`EncodeError`; bad JSON is a :class:`DecodeError` whose
message starts with the JSON path.
"""

from __future__ import annotations

import base64
import datetime
import math
import struct
import typing
from collections.abc import Callable

from .._core import wkt as _wkt
from .._core.errors import DecodeError, EncodeError
from .._core.types import INT_RANGES, Kind
from .._core.wkt import duration_text, timestamp_text
from . import forms as _jsonforms
from . import times as _times
from .forms import JsonContext
from .plan import _LONE_SURROGATE, shortest_float32
from .read import _float_reader, _int_reader, _read_bytes

__all__ = ["duration_text", "register_all", "timestamp_text"]

_NANOS = _wkt._NANOS
_EPOCH = datetime.datetime(1970, 1, 1)


# -- Timestamp -----------------------------------------------------------------------


def parse_timestamp(value: typing.Any, path: str) -> _wkt.Timestamp:
    """A ``pa.Timestamp`` from its JSON form (the same rules as a ``datetime`` field's)."""
    return _wkt.Timestamp(*_times.parse_timestamp(value, path))


# -- Duration ------------------------------------------------------------------------


def parse_duration(value: typing.Any, path: str) -> _wkt.Duration:
    """A ``pa.Duration`` from its JSON form (the same rules as a ``timedelta`` field's)."""
    return _wkt.Duration(*_times.parse_duration(value, path))


# -- FieldMask -----------------------------------------------------------------------


def _camel(path: str) -> str:
    out: list[str] = []
    after_underscore = False
    for c in path:
        if c.isupper():
            raise ValueError(
                f"FieldMask path {path!r} has an uppercase letter (paths are snake_case)"
            )
        if after_underscore:
            if not c.islower():
                raise ValueError(
                    f"FieldMask path {path!r}: a '_' must be followed by a lowercase letter"
                )
            out.append(c.upper())
            after_underscore = False
        elif c == "_":
            after_underscore = True
        else:
            out.append(c)
    if after_underscore:
        raise ValueError(f"FieldMask path {path!r} ends with '_'")
    return "".join(out)


def _snake(path: str, where: str) -> str:
    out: list[str] = []
    for c in path:
        if c == "_":
            raise DecodeError(f"{where}: FieldMask path {path!r} must be lowerCamel, without '_'")
        if c.isupper():
            out += ["_", c.lower()]
        else:
            out.append(c)
    return "".join(out)


def field_mask_to_json(value: typing.Any, ctx: JsonContext) -> str:
    try:
        return ",".join(_camel(p) for p in value.paths)
    except ValueError as exc:
        raise EncodeError(str(exc)) from None


def field_mask_from_json(value: typing.Any, path: str, ctx: JsonContext) -> _wkt.FieldMask:
    if not isinstance(value, str):
        raise DecodeError(f"{path}: a FieldMask is a string like 'a.b,cD', not {_kind(value)}")
    if not value:
        return _wkt.FieldMask()
    _no_lone_surrogate(value, path)
    return _wkt.FieldMask(tuple(_snake(p, path) for p in value.split(",")))


# -- Struct, Value, ListValue, NullValue ---------------------------------------------


def value_to_json(x: typing.Any, ctx: JsonContext | None = None) -> typing.Any:
    """A JSON value as it prints: numbers are doubles, dicts and lists are walked.

    ``null`` is ``None`` or ``NullValue.NULL_VALUE``; a ``Value`` message with no kind
    set prints as ``null`` too, as ``json_format`` prints it.
    """
    if x is None or x is True or x is False or isinstance(x, str):
        return x
    if x is _wkt.NullValue.NULL_VALUE or isinstance(x, _wkt.ValueMessage):
        return None
    if isinstance(x, (int, float)):
        f = float(x)
        if not math.isfinite(f):
            raise EncodeError(
                f"{x!r} in a google.protobuf.Value has no JSON form (it would "
                "read back as a string)"
            )
        return f
    if isinstance(x, dict):
        return struct_to_json(x)
    if isinstance(x, (list, tuple)):
        return [value_to_json(v) for v in x]
    raise EncodeError(f"{type(x).__name__} {x!r} is not a JSON value")


def struct_to_json(d: typing.Any, ctx: JsonContext | None = None) -> dict[str, typing.Any]:
    if not isinstance(d, dict):
        raise EncodeError(f"a google.protobuf.Struct is a dict, not {type(d).__name__}")
    out = {}
    for k, v in d.items():
        if not isinstance(k, str):
            raise EncodeError(f"Struct keys are strings, not {type(k).__name__} {k!r}")
        out[k] = value_to_json(v)
    return out


def list_to_json(items: typing.Any, ctx: JsonContext | None = None) -> list[typing.Any]:
    if not isinstance(items, (list, tuple)):
        raise EncodeError(f"a google.protobuf.ListValue is a list, not {type(items).__name__}")
    return [value_to_json(v) for v in items]


def _too_deep(path: str, depth: int, ctx: JsonContext | None) -> None:
    """Refuse a message nested ``depth`` levels deep past the model's ``max_depth``
    (``Value``, ``Struct`` and ``ListValue`` are messages, each a level, as on the wire)."""
    limit = _max_depth(ctx)
    if depth >= limit:
        raise DecodeError(f"{path}: nesting deeper than {limit} levels")


def _max_depth(ctx: JsonContext | None) -> int:
    if ctx is None:
        return _DEFAULT_MAX_DEPTH
    return int(getattr(ctx.model, "max_depth", _DEFAULT_MAX_DEPTH))


_DEFAULT_MAX_DEPTH = 100


def value_from_json(
    value: typing.Any, path: str, ctx: JsonContext | None = None, depth: int = 0
) -> typing.Any:
    """What a ``pa.JsonValue`` holds after reading ``value``: ``null`` is
    ``NullValue.NULL_VALUE`` (``None`` would be the absent field), numbers are floats.
    ``depth`` is the ``Value`` message's own nesting level."""
    _too_deep(path, depth, ctx)
    if value is None:
        return _wkt.NullValue.NULL_VALUE
    return _json_value(value, path, ctx, depth)


def _json_value(value: typing.Any, path: str, ctx: JsonContext | None, depth: int) -> typing.Any:
    """A JSON value in a ``Value`` message at level ``depth`` (``null`` is ``None``)."""
    if value is None or value is True or value is False:
        return value
    if isinstance(value, str):
        return _no_lone_surrogate(value, path)
    if isinstance(value, (int, float)):
        f = float(value)
        if not math.isfinite(f):
            raise DecodeError(f"{path}: {value!r} is not a finite number")
        return f
    if isinstance(value, dict):
        return struct_from_json(value, path, ctx, depth + 1)
    if isinstance(value, list):
        return list_from_json(value, path, ctx, depth + 1)
    raise DecodeError(f"{path}: {_kind(value)} is not a JSON value")


def _item(value: typing.Any, path: str, ctx: JsonContext | None, depth: int) -> typing.Any:
    """One value of a ``Struct`` or ``ListValue``: a ``Value`` message at ``depth``."""
    _too_deep(path, depth, ctx)
    return _json_value(value, path, ctx, depth)


def struct_from_json(
    value: typing.Any, path: str, ctx: JsonContext | None = None, depth: int = 0
) -> dict[str, typing.Any]:
    if not isinstance(value, dict):
        raise DecodeError(f"{path}: a google.protobuf.Struct is a JSON object, not {_kind(value)}")
    _too_deep(path, depth, ctx)
    # each value sits in a map entry, a level of its own on the wire
    return {
        _no_lone_surrogate(k, f"{path}.{k}"): _item(v, f"{path}.{k}", ctx, depth + 2)
        for k, v in value.items()
    }


def list_from_json(
    value: typing.Any, path: str, ctx: JsonContext | None = None, depth: int = 0
) -> list[typing.Any]:
    if not isinstance(value, list):
        raise DecodeError(
            f"{path}: a google.protobuf.ListValue is a JSON array, not {_kind(value)}"
        )
    _too_deep(path, depth, ctx)
    return [_item(v, f"{path}[{i}]", ctx, depth + 1) for i, v in enumerate(value)]


# -- wrappers ------------------------------------------------------------------------


def _float32(x: float) -> float:
    return typing.cast(float, struct.unpack("<f", struct.pack("<f", x))[0])


def _float_to_json(x: float, f32: bool) -> typing.Any:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if not f32:
        return float(x)
    try:
        return shortest_float32(_float32(x))
    except OverflowError:  # what the binary encoder says of the same value
        raise EncodeError(f"{x!r} does not fit float (32-bit)") from None


_WRAPPER_KINDS = {
    "DoubleValue": Kind.DOUBLE,
    "FloatValue": Kind.FLOAT,
    "Int64Value": Kind.INT64,
    "UInt64Value": Kind.UINT64,
    "Int32Value": Kind.INT32,
    "UInt32Value": Kind.UINT32,
    "BoolValue": Kind.BOOL,
    "StringValue": Kind.STRING,
    "BytesValue": Kind.BYTES,
}


def _no_lone_surrogate(text: str, path: str) -> str:
    """``text``, unless it holds an unpaired surrogate, which no encoder can write."""
    if not text.isascii() and _LONE_SURROGATE.search(text):
        raise DecodeError(f"{path}: the string has an unpaired surrogate")
    return text


def _unwrap(value: typing.Any) -> typing.Any:
    """A wrapper's bare value (an Any payload arrives as the wrapper message)."""
    return value.value if type(value) in _wkt.WRAPPER_CLASSES else value


def wrapper_form(name: str) -> tuple[_jsonforms.ToJson, _jsonforms.FromJson]:
    kind = _WRAPPER_KINDS[name]

    def to_json(value: typing.Any, ctx: JsonContext) -> typing.Any:
        value = _unwrap(value)
        if value is None:
            return None
        if kind in (Kind.DOUBLE, Kind.FLOAT):
            return _float_to_json(value, kind is Kind.FLOAT)
        if kind in (Kind.INT64, Kind.UINT64):
            return str(value)
        if kind is Kind.BYTES:
            return base64.b64encode(value).decode("ascii")
        return value

    # the value inside a wrapper reads by the rules of an ordinary field of its kind
    if kind in (Kind.DOUBLE, Kind.FLOAT):
        read_scalar: Callable[[typing.Any, str, int], typing.Any] | None = _float_reader(
            kind is Kind.FLOAT
        )
    elif kind in INT_RANGES:
        read_scalar = _int_reader(kind)
    elif kind is Kind.BYTES:
        read_scalar = _read_bytes
    else:
        read_scalar = None

    def from_json(value: typing.Any, path: str, ctx: JsonContext) -> typing.Any:
        # a null field is absent before it gets here: a null here is a list's or a
        # map's item, which json_format refuses (it would hold nothing to write)
        if value is None:
            raise DecodeError(f"{path}: a google.protobuf.{name} is not null here")
        if read_scalar is not None:
            return read_scalar(value, path, 0)
        if kind is Kind.BOOL:
            if value is True or value is False:
                return value
            raise DecodeError(f"{path}: expected true or false, got {_kind(value)}")
        if isinstance(value, str):  # STRING, the one kind left
            return _no_lone_surrogate(value, path)
        raise DecodeError(f"{path}: expected a string, got {_kind(value)}")

    return to_json, from_json


# -- Any -----------------------------------------------------------------------------

#: payload contract -> (message -> JSON, (JSON, path, ctx) -> message): the types whose
#: JSON inside an Any is ``{"@type": ..., "value": <their special form>}``
_PAYLOADS: dict[type, tuple[Callable[..., typing.Any], Callable[..., typing.Any]]] = {}
#: the well-known payloads that hold messages of their own, read with their nesting level
_NESTED_PAYLOADS: dict[type, _jsonforms.NestedFromJson] = {}


def any_to_json(value: typing.Any, ctx: JsonContext) -> typing.Any:
    if not value.type_url and not value.value:
        return {}
    name = value.type_name
    cls = ctx.model.find(name)
    if cls is None:
        raise EncodeError(
            f"Any: no contract is named {name!r} (from {value.type_url!r}), so its JSON form "
            "cannot be written: import the module declaring it"
        )
    message = ctx.model.deserialize(cls, value.value)
    payload = _PAYLOADS.get(cls)
    if payload is not None:
        return {"@type": value.type_url, "value": payload[0](message, ctx)}
    body = ctx.message_to_json(message)
    return {"@type": value.type_url, **body}


def any_from_json(value: typing.Any, path: str, ctx: JsonContext, depth: int = 0) -> _wkt.Any:
    """An ``Any`` at nesting level ``depth``: the message it holds is read at the same
    level (its fields are the Any's), a well-known payload one level deeper, as
    ``json_format`` counts them."""
    if not isinstance(value, dict):
        raise DecodeError(f"{path}: a google.protobuf.Any is a JSON object, not {_kind(value)}")
    _too_deep(path, depth, ctx)
    if not value:
        return _wkt.Any()
    url = value.get("@type")
    if url is None:
        raise DecodeError(f"{path}: @type is missing in a google.protobuf.Any")
    if not isinstance(url, str):
        raise DecodeError(f"{path}.@type: expected a type URL string, got {_kind(url)}")
    name = url.rpartition("/")[2]
    cls = ctx.model.find(name)
    if cls is None:
        raise DecodeError(f"{path}.@type: no contract is named {name!r} (from {url!r})")
    payload = _PAYLOADS.get(cls)
    if payload is not None:
        extra = sorted(set(value) - {"@type", "value"})
        if extra and not ctx.ignore_unknown:  # json_format ignores them: docs/json.md
            raise DecodeError(f"{path}: unexpected {extra[0]!r} beside @type and value")
        if "value" not in value:
            raise DecodeError(f"{path}: a {name} inside an Any needs its 'value'")
        nested = _NESTED_PAYLOADS.get(cls)
        if nested is not None:
            message = nested(value["value"], f"{path}.value", ctx, depth + 1)
        else:
            message = payload[1](value["value"], f"{path}.value", ctx)
    else:
        body = {k: v for k, v in value.items() if k != "@type"}
        message = ctx.message_from_json(cls, body, path, depth)
    return _wkt.Any(url, ctx.model.serialize(message))


# -- registration --------------------------------------------------------------------


def _kind(value: typing.Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    for t, text in names.items():
        if isinstance(value, t):
            return f"{text} {str(value)[:40]}" if t is str else text
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return type(value).__name__


def _text_form(
    write: Callable[[typing.Any], str],
    read: Callable[[typing.Any, str], typing.Any],
) -> tuple[_jsonforms.ToJson, _jsonforms.FromJson]:
    def to_json(value: typing.Any, ctx: JsonContext) -> str:
        try:
            return write(value)
        except ValueError as exc:
            raise EncodeError(str(exc)) from None

    def from_json(value: typing.Any, path: str, ctx: JsonContext) -> typing.Any:
        return read(value, path)

    return to_json, from_json


def register_all() -> None:
    """Register every well-known form (the JSON codec imports this module)."""
    ts = _text_form(timestamp_text, parse_timestamp)
    dur = _text_form(duration_text, parse_duration)
    forms: dict[type, tuple[_jsonforms.ToJson, _jsonforms.FromJson]] = {
        _wkt.Timestamp: ts,
        _wkt.Duration: dur,
        _wkt.FieldMask: (field_mask_to_json, field_mask_from_json),
        _wkt.Any: (any_to_json, any_from_json),
        dict: (struct_to_json, struct_from_json),
        object: (value_to_json, value_from_json),
        list: (list_to_json, list_from_json),
    }
    for name, (contract, _) in _wkt.WRAPPERS.items():
        forms[contract] = wrapper_form(name)
        to_json, from_json = forms[contract]
        _PAYLOADS[contract] = (to_json, _rewrap(contract, from_json))
    nested: dict[type, _jsonforms.NestedFromJson] = {
        _wkt.Any: any_from_json,
        dict: struct_from_json,
        object: value_from_json,
        list: list_from_json,
    }
    for cls, (to_json, from_json) in forms.items():
        _jsonforms.register(cls, to_json, from_json, nested=nested.get(cls))
    _PAYLOADS.update(
        {
            _wkt.Timestamp: ts,
            _wkt.Duration: dur,
            _wkt.FieldMask: (field_mask_to_json, field_mask_from_json),
            _wkt.Any: (any_to_json, any_from_json),
            _wkt.StructMessage: (
                lambda m, ctx: struct_to_json(_wkt.from_struct(m)),
                lambda v, p, ctx: _wkt.to_struct(struct_from_json(v, p)),
            ),
            _wkt.ValueMessage: (
                lambda m, ctx: value_to_json(_wkt.from_value(m)),
                lambda v, p, ctx: _wkt.to_value(value_from_json(v, p)),
            ),
            _wkt.ListValueMessage: (
                lambda m, ctx: list_to_json(_wkt.from_list_value(m)),
                lambda v, p, ctx: _wkt.to_list_value(list_from_json(v, p)),
            ),
        }
    )
    _NESTED_PAYLOADS.update(
        {
            _wkt.Any: any_from_json,
            _wkt.StructMessage: lambda v, p, ctx, d: _wkt.to_struct(struct_from_json(v, p, ctx, d)),
            _wkt.ValueMessage: lambda v, p, ctx, d: _wkt.to_value(value_from_json(v, p, ctx, d)),
            _wkt.ListValueMessage: (
                lambda v, p, ctx, d: _wkt.to_list_value(list_from_json(v, p, ctx, d))
            ),
        }
    )


def _rewrap(contract: type, from_json: _jsonforms.FromJson) -> _jsonforms.FromJson:
    def read(value: typing.Any, path: str, ctx: JsonContext) -> typing.Any:
        bare = from_json(value, path, ctx)
        if bare is None:
            raise DecodeError(f"{path}: a wrapper inside an Any needs a value, not null")
        return contract(bare)

    return read


register_all()
