"""Google's well-known types (``google/protobuf/*.proto``), as Python users expect them.

Every one of them is an ordinary contract declared here with
``package="google.protobuf"``, so the codecs (and schema export, and any
backend) see plain messages, byte-identical with Google's:

* :class:`Timestamp` and :class:`Duration` keep ``seconds`` and ``nanos`` exactly
  (a ``datetime`` holds microseconds and the years 1..9999 only);
* :class:`Any`, :class:`FieldMask` and :class:`Empty` are the messages themselves,
  with the helpers their users reach for (``Any.pack``/``unpack``);
* ``Struct``/``Value``/``ListValue`` and the nine wrappers travel as their
  messages but are held as what they mean: ``dict``, a JSON value, ``list``, and
  ``Optional[int]``/``Optional[str]``/....  The annotations :data:`Struct`,
  :data:`JsonValue`, :data:`ListValue` and those in :mod:`protoattr.wrappers`
  carry a :class:`ValueMarker` that turns them into a converted message field
  (the mechanism ``Decimal`` and surrogates use: ``ValueType.domain``,
  ``encode_with``, ``decode_with``).

Their canonical JSON forms live in :mod:`protoattr._json.wkt`.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import time
import typing
from collections.abc import Callable
from typing import Annotated

from . import registry
from .contract import ValueMarker, ValueType, is_contract, proto_contract
from .errors import ContractError, DecodeError
from .fields import field
from .time_text import DURATION_MAX, TS_MAX, TS_MIN
from .time_text import duration_text as _duration_text
from .time_text import timestamp_text as _timestamp_text
from .types import INT_RANGES, Kind, float32, int32, int64, uint32, uint64

__all__ = [
    "WELL_KNOWN_FILES",
    "Any",
    "Duration",
    "Empty",
    "FieldMask",
    "JsonValue",
    "ListValue",
    "NullValue",
    "Struct",
    "Timestamp",
]

_PACKAGE = "google.protobuf"
_NANOS = 1_000_000_000
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_EPOCH_NAIVE = datetime.datetime(1970, 1, 1)


# -- Timestamp and Duration ----------------------------------------------------------


# -- the text forms (JSON, str()) --------------------------------------------


def timestamp_text(ts: typing.Any) -> str:
    """RFC 3339 in UTC with ``Z`` (``ValueError`` outside 0001..9999 or bad nanos)."""
    seconds, nanos = ts.seconds, ts.nanos
    if not TS_MIN <= seconds <= TS_MAX or not 0 <= nanos < _NANOS:
        raise ValueError(
            f"Timestamp(seconds={seconds}, nanos={nanos}) is outside 0001-01-01..9999-12-31 "
            "(or nanos outside 0..999999999), which RFC 3339 cannot write"
        )
    return _timestamp_text(seconds, nanos)


def duration_text(d: typing.Any) -> str:
    """``"1.000340012s"``-style text (``ValueError`` outside ±315,576,000,000 s)."""
    seconds, nanos = d.seconds, d.nanos
    if (
        abs(seconds) > DURATION_MAX
        or abs(nanos) >= _NANOS
        or (seconds < 0 < nanos)
        or (nanos < 0 < seconds)
    ):
        raise ValueError(
            f"Duration(seconds={seconds}, nanos={nanos}) is outside ±{DURATION_MAX} s "
            "or its seconds and nanos differ in sign"
        )
    return _duration_text(seconds, nanos)


@proto_contract(package=_PACKAGE, preserve_unknown=False)
@dataclasses.dataclass(frozen=True, order=True)
class Timestamp:
    """A point in time, exact to the nanosecond (``google.protobuf.Timestamp``).

    Hold this instead of a ``datetime`` when every value must survive a round
    trip: any ``seconds``/``nanos`` pair decodes and re-encodes unchanged, even
    outside the years 1..9999 a ``datetime`` (and the canonical JSON form) can
    hold.  Ordered and hashed as ``(seconds, nanos)``, which is time order for
    normalized values (``0 <= nanos < 10**9``).
    """

    seconds: int64 = field(1, default=0)
    nanos: int32 = field(2, default=0)

    @classmethod
    def from_datetime(cls, value: datetime.datetime) -> Timestamp:
        """The instant ``value`` names (a naive datetime is taken as UTC)."""
        delta = value - (_EPOCH_NAIVE if value.tzinfo is None else _EPOCH)
        return cls(delta.days * 86400 + delta.seconds, delta.microseconds * 1000)

    def to_datetime(self) -> datetime.datetime:
        """An aware UTC ``datetime``; nanoseconds below a microsecond are cut off, as
        ``google.protobuf``'s ``ToDatetime`` does.  ``ValueError`` outside years 1..9999."""
        try:
            return _EPOCH + datetime.timedelta(0, self.seconds, self.nanos // 1000)
        except OverflowError:
            raise ValueError(f"{self!r} is outside the years a datetime holds") from None

    @classmethod
    def from_nanos(cls, nanos: int) -> Timestamp:
        """The instant ``nanos`` nanoseconds after the Unix epoch."""
        seconds, rest = divmod(nanos, _NANOS)
        return cls(seconds, rest)

    def to_nanos(self) -> int:
        """Nanoseconds since the Unix epoch."""
        return self.seconds * _NANOS + self.nanos

    @classmethod
    def now(cls) -> Timestamp:
        """The current time, to the nanosecond the clock gives."""
        return cls.from_nanos(time.time_ns())

    def __add__(self, other: object) -> Timestamp:
        if not isinstance(other, Duration):
            return NotImplemented
        return Timestamp.from_nanos(self.to_nanos() + other.to_nanos())

    __radd__ = __add__

    @typing.overload
    def __sub__(self, other: Timestamp) -> Duration: ...
    @typing.overload
    def __sub__(self, other: Duration) -> Timestamp: ...
    def __sub__(self, other: object) -> Timestamp | Duration:
        if isinstance(other, Timestamp):
            return Duration.from_nanos(self.to_nanos() - other.to_nanos())
        if isinstance(other, Duration):
            return Timestamp.from_nanos(self.to_nanos() - other.to_nanos())
        return NotImplemented

    def __str__(self) -> str:
        """RFC 3339 (the JSON form); outside the years 1..9999, the repr."""
        try:
            return timestamp_text(self)
        except ValueError:
            return repr(self)


@proto_contract(package=_PACKAGE, preserve_unknown=False)
@dataclasses.dataclass(frozen=True, order=True)
class Duration:
    """A signed span of time, exact to the nanosecond (``google.protobuf.Duration``).

    ``seconds`` and ``nanos`` share one sign when normalized; ordered and hashed
    as ``(seconds, nanos)``.
    """

    seconds: int64 = field(1, default=0)
    nanos: int32 = field(2, default=0)

    @classmethod
    def from_timedelta(cls, value: datetime.timedelta) -> Duration:
        micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
        return cls.from_nanos(micros * 1000)

    def to_timedelta(self) -> datetime.timedelta:
        """A ``timedelta`` (microsecond precision: nanoseconds below it are cut off
        towards zero); ``ValueError`` when it does not fit one."""
        total = self.to_nanos()
        micros = abs(total) // 1000
        try:
            return datetime.timedelta(microseconds=micros if total >= 0 else -micros)
        except OverflowError:
            raise ValueError(f"{self!r} does not fit a timedelta") from None

    @classmethod
    def from_nanos(cls, nanos: int) -> Duration:
        """The span of ``nanos`` nanoseconds, normalized (nanos takes the sign of seconds)."""
        seconds, rest = divmod(abs(nanos), _NANOS)
        if nanos < 0:
            return cls(-seconds, -rest)
        return cls(seconds, rest)

    def to_nanos(self) -> int:
        return self.seconds * _NANOS + self.nanos

    def __add__(self, other: object) -> Duration:
        if not isinstance(other, Duration):
            return NotImplemented
        return Duration.from_nanos(self.to_nanos() + other.to_nanos())

    def __sub__(self, other: object) -> Duration:
        if not isinstance(other, Duration):
            return NotImplemented
        return Duration.from_nanos(self.to_nanos() - other.to_nanos())

    def __neg__(self) -> Duration:
        return Duration.from_nanos(-self.to_nanos())

    def __str__(self) -> str:
        """``"1.5s"`` (the JSON form); outside its range, the repr."""
        try:
            return duration_text(self)
        except ValueError:
            return repr(self)


# -- FieldMask and Empty ---------------------------------------------------------------


@proto_contract(package=_PACKAGE, preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class FieldMask:
    """A set of field paths (``google.protobuf.FieldMask``), e.g. ``("user.name", "id")``."""

    paths: tuple[str, ...] = field(1, default=())

    def __post_init__(self) -> None:
        if not isinstance(self.paths, tuple):  # FieldMask(paths=[...]) or a generator
            if isinstance(self.paths, str):
                raise TypeError("FieldMask.paths is a sequence of paths, not one string")
            object.__setattr__(self, "paths", tuple(self.paths))


@proto_contract(package=_PACKAGE, preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class Empty:
    """The message with no fields (``google.protobuf.Empty``)."""


# -- Struct, Value, ListValue --------------------------------------------------------


class NullValue(enum.IntEnum):
    """``google.protobuf.NullValue``: its one value is JSON's ``null``."""

    NULL_VALUE = 0


@proto_contract(package=_PACKAGE, name="Struct", preserve_unknown=False)
@dataclasses.dataclass
class StructMessage:
    """``google.protobuf.Struct`` as the wire has it; fields annotated :data:`Struct`
    hold a ``dict`` instead."""

    fields: dict[str, ValueMessage] = field(1, default_factory=dict)


@proto_contract(package=_PACKAGE, name="Value", preserve_unknown=False)
@dataclasses.dataclass
class ValueMessage:
    """``google.protobuf.Value``; fields annotated :data:`JsonValue` hold the JSON value."""

    null_value: NullValue | None = field(1, default=None, oneof="kind")
    number_value: float | None = field(2, default=None, oneof="kind")
    string_value: str | None = field(3, default=None, oneof="kind")
    bool_value: bool | None = field(4, default=None, oneof="kind")
    struct_value: StructMessage | None = field(5, default=None, oneof="kind")
    list_value: ListValueMessage | None = field(6, default=None, oneof="kind")


@proto_contract(package=_PACKAGE, name="ListValue", preserve_unknown=False)
@dataclasses.dataclass
class ListValueMessage:
    """``google.protobuf.ListValue``; fields annotated :data:`ListValue` hold a ``list``."""

    values: list[ValueMessage] = field(1, default_factory=list)


def to_value(x: typing.Any) -> ValueMessage:
    """A JSON value (``None``, bool, int, float, str, dict, list) as a ``Value`` message.

    ``NullValue.NULL_VALUE`` is JSON's ``null`` as well as ``None`` (it is what a
    :data:`JsonValue` field holds for a ``null``, ``None`` being the absent field), and
    a ``Value`` message itself (what decoding keeps for one with no kind set) is
    written as it is.
    """
    if x is None or x is NullValue.NULL_VALUE:
        return ValueMessage(null_value=NullValue.NULL_VALUE)
    if x is True or x is False:
        return ValueMessage(bool_value=x)
    if isinstance(x, (int, float)):
        return ValueMessage(number_value=float(x))
    if isinstance(x, str):
        return ValueMessage(string_value=x)
    if isinstance(x, dict):
        return ValueMessage(struct_value=to_struct(x))
    if isinstance(x, (list, tuple)):
        return ValueMessage(list_value=to_list_value(x))
    if isinstance(x, ValueMessage):
        return x
    raise TypeError(f"{type(x).__name__} {x!r} is not a JSON value")


def from_value(m: ValueMessage) -> typing.Any:
    """What a :data:`JsonValue` holds for a ``Value`` message: the JSON value, with
    ``null`` as ``NullValue.NULL_VALUE`` (``None`` is the absent field)."""
    if m.null_value is not None and int(m.null_value) == 0:
        return NullValue.NULL_VALUE
    return _json_of(m)


def _json_of(m: ValueMessage) -> typing.Any:
    """The JSON value inside a ``Struct`` or ``ListValue``, where ``null`` is ``None``.

    Numbers are floats.  A ``Value`` with no kind set (or an unknown ``null_value``
    number) is returned as the message itself, so that it re-encodes unchanged.
    """
    if m.number_value is not None:
        return m.number_value
    if m.string_value is not None:
        return m.string_value
    if m.bool_value is not None:
        return m.bool_value
    if m.struct_value is not None:
        return from_struct(m.struct_value)
    if m.list_value is not None:
        return from_list_value(m.list_value)
    if m.null_value is not None and int(m.null_value) == 0:
        return None
    return m


def to_struct(d: typing.Any) -> StructMessage:
    if not isinstance(d, dict):
        raise TypeError(f"expected a dict, got {type(d).__name__} {d!r}")
    fields = {}
    for k, v in d.items():
        if not isinstance(k, str):
            raise TypeError(f"Struct keys are strings, not {type(k).__name__} {k!r}")
        fields[k] = to_value(v)
    return StructMessage(fields)


def from_struct(m: StructMessage) -> dict[str, typing.Any]:
    return {k: _json_of(v) for k, v in m.fields.items()}


def to_list_value(items: typing.Any) -> ListValueMessage:
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"expected a list, got {type(items).__name__} {items!r}")
    return ListValueMessage([to_value(x) for x in items])


def from_list_value(m: ListValueMessage) -> list[typing.Any]:
    return [_json_of(v) for v in m.values]


# -- wrappers ------------------------------------------------------------------------


# One contract per wrapper message (``value = 1``); fields annotated
# ``pa.wrappers.<Name>`` hold the bare value instead, ``None`` when absent.


@proto_contract(package=_PACKAGE, name="DoubleValue", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class DoubleValueMessage:
    """``google.protobuf.DoubleValue``."""

    value: float = field(1, default=0.0)


@proto_contract(package=_PACKAGE, name="FloatValue", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class FloatValueMessage:
    """``google.protobuf.FloatValue``."""

    value: float32 = field(1, default=0.0)


@proto_contract(package=_PACKAGE, name="Int64Value", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class Int64ValueMessage:
    """``google.protobuf.Int64Value``."""

    value: int64 = field(1, default=0)


@proto_contract(package=_PACKAGE, name="UInt64Value", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class UInt64ValueMessage:
    """``google.protobuf.UInt64Value``."""

    value: uint64 = field(1, default=0)


@proto_contract(package=_PACKAGE, name="Int32Value", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class Int32ValueMessage:
    """``google.protobuf.Int32Value``."""

    value: int32 = field(1, default=0)


@proto_contract(package=_PACKAGE, name="UInt32Value", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class UInt32ValueMessage:
    """``google.protobuf.UInt32Value``."""

    value: uint32 = field(1, default=0)


@proto_contract(package=_PACKAGE, name="BoolValue", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class BoolValueMessage:
    """``google.protobuf.BoolValue``."""

    value: bool = field(1, default=False)


@proto_contract(package=_PACKAGE, name="StringValue", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class StringValueMessage:
    """``google.protobuf.StringValue``."""

    value: str = field(1, default="")


@proto_contract(package=_PACKAGE, name="BytesValue", preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class BytesValueMessage:
    """``google.protobuf.BytesValue``."""

    value: bytes = field(1, default=b"")


#: wrapper name -> (its contract, the Python type of its value)
WRAPPERS: dict[str, tuple[type, type]] = {
    "DoubleValue": (DoubleValueMessage, float),
    "FloatValue": (FloatValueMessage, float),
    "Int64Value": (Int64ValueMessage, int),
    "UInt64Value": (UInt64ValueMessage, int),
    "Int32Value": (Int32ValueMessage, int),
    "UInt32Value": (UInt32ValueMessage, int),
    "BoolValue": (BoolValueMessage, bool),
    "StringValue": (StringValueMessage, str),
    "BytesValue": (BytesValueMessage, bytes),
}
WRAPPER_CLASSES = frozenset(contract for contract, _ in WRAPPERS.values())


# -- the markers behind the annotations ----------------------------------------------


@dataclasses.dataclass(frozen=True, repr=False)
class _Converted(ValueMarker):
    """A message that users hold as another Python value."""

    contract: type
    domain: type | None
    to_message: Callable[[typing.Any], typing.Any]
    from_message: Callable[[typing.Any], typing.Any]
    nullable: bool = False

    def value_type(self) -> ValueType:
        return ValueType(
            Kind.MESSAGE, self.contract, False, self.domain, self.to_message, self.from_message
        )

    def __repr__(self) -> str:  # stable across processes: ahead-of-time fingerprints use it
        return f"<google.protobuf.{self.contract.__name__.removesuffix('Message')}>"


_WRAPPER_RANGES = {
    "Int64Value": INT_RANGES[Kind.INT64],
    "UInt64Value": INT_RANGES[Kind.UINT64],
    "Int32Value": INT_RANGES[Kind.INT32],
    "UInt32Value": INT_RANGES[Kind.UINT32],
}


def unwrap(message: typing.Any) -> typing.Any:
    """A wrapper message's bare value."""
    return message.value


def _wrapper_marker(name: str) -> _Converted:
    contract, py_type = WRAPPERS[name]
    bounds = _WRAPPER_RANGES.get(name)

    def to_message(value: typing.Any) -> typing.Any:
        wrong = not isinstance(value, py_type) or (py_type is not bool and isinstance(value, bool))
        an_int_for_a_float = py_type is float and type(value) is int
        if wrong and not an_int_for_a_float:
            raise TypeError(f"{name} holds {py_type.__name__}, not {type(value).__name__}")
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise ValueError(f"{value!r} does not fit {name}")
        return contract(value)

    # a module-level name, so that ahead-of-time modules can import it
    to_message.__name__ = to_message.__qualname__ = f"wrap_{name}"
    globals()[to_message.__name__] = to_message
    return _Converted(contract, None, to_message, unwrap, nullable=True)


STRUCT_MARKER = _Converted(StructMessage, dict, to_struct, from_struct)
VALUE_MARKER = _Converted(ValueMessage, object, to_value, from_value, nullable=True)
LIST_MARKER = _Converted(ListValueMessage, list, to_list_value, from_list_value)
WRAPPER_MARKERS = {name: _wrapper_marker(name) for name in WRAPPERS}

#: ``google.protobuf.Struct``, held as a ``dict`` of JSON values
Struct = Annotated[dict[str, typing.Any], STRUCT_MARKER]
#: ``google.protobuf.Value``, held as any JSON value (bool, float, str, dict, list, and
#: ``NullValue.NULL_VALUE`` for ``null``; ``None`` inside dicts and lists); ``None`` is absent
JsonValue = Annotated[typing.Any, VALUE_MARKER]
#: ``google.protobuf.ListValue``, held as a ``list`` of JSON values
ListValue = Annotated[list[typing.Any], LIST_MARKER]


def marker_of(annotation: typing.Any) -> _Converted | None:
    """The marker of ``pa.Struct``, ``pa.wrappers.Int32Value``, ... (``None`` otherwise)."""
    for m in getattr(annotation, "__metadata__", ()):
        if isinstance(m, _Converted):
            return m
    return None


#: the file of each well-known full name, for schema export's imports
WELL_KNOWN_FILES: dict[str, str] = {
    "google.protobuf.Any": "google/protobuf/any.proto",
    "google.protobuf.Duration": "google/protobuf/duration.proto",
    "google.protobuf.Empty": "google/protobuf/empty.proto",
    "google.protobuf.FieldMask": "google/protobuf/field_mask.proto",
    "google.protobuf.Struct": "google/protobuf/struct.proto",
    "google.protobuf.Value": "google/protobuf/struct.proto",
    "google.protobuf.ListValue": "google/protobuf/struct.proto",
    "google.protobuf.NullValue": "google/protobuf/struct.proto",
    "google.protobuf.Timestamp": "google/protobuf/timestamp.proto",
    **{f"google.protobuf.{name}": "google/protobuf/wrappers.proto" for name in WRAPPERS},
}

#: classes declared here, by full name (what schema export imports instead of declaring)
WELL_KNOWN_CLASSES: dict[type, str] = {
    Timestamp: "google.protobuf.Timestamp",
    Duration: "google.protobuf.Duration",
    FieldMask: "google.protobuf.FieldMask",
    Empty: "google.protobuf.Empty",
    StructMessage: "google.protobuf.Struct",
    ValueMessage: "google.protobuf.Value",
    ListValueMessage: "google.protobuf.ListValue",
    NullValue: "google.protobuf.NullValue",
    **{contract: f"google.protobuf.{name}" for name, (contract, _) in WRAPPERS.items()},
}


# -- Any -----------------------------------------------------------------------------

_DEFAULT_PREFIX = "type.googleapis.com/"


@proto_contract(package=_PACKAGE, preserve_unknown=False)
@dataclasses.dataclass(frozen=True)
class Any:
    """A message of any type, with the URL naming it (``google.protobuf.Any``).

    ``Any.pack(order)`` serializes a contract and names it by its full name;
    ``any.unpack()`` finds the class again through the model, ``any.unpack(Order)``
    checks the type first.  ``pa.Struct``, ``pa.JsonValue``, ``pa.ListValue`` and the
    wrappers pack with ``type=`` (``Any.pack(3, type=pa.wrappers.Int32Value)``) and
    unpack to the Python value they hold.
    """

    type_url: str = field(1, default="")
    value: bytes = field(2, default=b"")

    @classmethod
    def pack(
        cls,
        obj: object,
        *,
        type: typing.Any = None,
        model: typing.Any = None,
        type_url_prefix: str = _DEFAULT_PREFIX,
        deterministic: bool = False,
    ) -> Any:
        """``obj`` (a contract instance, or a value of the well-known annotation ``type``)
        serialized, under ``type_url_prefix`` + its full name.

        ``deterministic=True`` serializes it with map entries sorted by key (upb's
        ``Any.Pack(msg, deterministic=True)``), so equal messages pack to equal bytes.
        """
        model = _model(model)
        target, convert = _target(type if type is not None else obj.__class__, model)
        message = convert(obj) if convert is not None else obj
        if not type_url_prefix.endswith("/"):
            type_url_prefix += "/"
        value = model.serialize(message, deterministic=deterministic)
        return cls(type_url_prefix + model.full_name(target), value)

    @property
    def type_name(self) -> str:
        """The full name in the type URL (what follows its last ``/``)."""
        return self.type_url.rpartition("/")[2]

    def is_type(self, cls: typing.Any, *, model: typing.Any = None) -> bool:
        """Whether this ``Any`` holds a ``cls`` (a contract or a well-known annotation)."""
        model = _model(model)
        name: str = model.full_name(_target(cls, model)[0])
        return self.type_name == name

    def unpack(self, cls: typing.Any = None, *, model: typing.Any = None) -> typing.Any:
        """The message inside, decoded as ``cls`` or, by default, as the contract whose
        full name the type URL ends with (looked up in ``model``)."""
        model = _model(model)
        if cls is None:
            found = model.find(self.type_name)
            if found is None:
                raise ContractError(
                    f"Any: no contract is named {self.type_name!r} (from {self.type_url!r}): "
                    "import the module declaring it, or pass the class to unpack()"
                )
            target, back = found, _BACK.get(found)
        else:
            target, _ = _target(cls, model)
            back = _BACK.get(target)
            if self.type_name != model.full_name(target):
                raise DecodeError(f"Any holds {self.type_name!r}, not {model.full_name(target)!r}")
        message = model.deserialize(target, self.value)
        return back(message) if back is not None else message


WELL_KNOWN_CLASSES[Any] = "google.protobuf.Any"


def _model(model: typing.Any) -> typing.Any:
    return registry.default() if model is None else model


#: contracts users hold as other values -> how the message becomes that value
_BACK: dict[type, Callable[[typing.Any], typing.Any]] = {
    StructMessage: from_struct,
    ValueMessage: from_value,
    ListValueMessage: from_list_value,
    **{contract: unwrap for contract, _ in WRAPPERS.values()},
}


def _target(
    cls: typing.Any, model: typing.Any
) -> tuple[type, Callable[[typing.Any], typing.Any] | None]:
    """The contract ``cls`` travels as, and the conversion to it (``None``: none needed)."""
    marker = marker_of(cls)
    if marker is not None:
        return marker.contract, marker.to_message
    if not is_contract(cls):
        from .convert import surrogate_for

        sur = surrogate_for(cls)
        if sur is not None:
            return sur.contract, sur.to_surrogate
        raise ContractError(
            f"Any: {getattr(cls, '__qualname__', cls)!r} is not a contract (for a dict, a list, "
            "a JSON value or a bare scalar, say type=pa.Struct, pa.ListValue, pa.JsonValue, "
            "pa.wrappers.Int32Value ...)"
        )
    return cls, None
