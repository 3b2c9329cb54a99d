"""What the JSON codec shares: option sets, per-model plan caches, enum names, the
context special forms get, and the rules of names and numbers both directions use."""

from __future__ import annotations

import datetime
import enum
import json
import math
import re
import struct
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core.contract import ValueType
from .._core.types import Kind
from .._core.wkt import NullValue, ValueMessage

if TYPE_CHECKING:
    from .._model.codecs import CodecModel
    from .read import _Reader

_INT64_KINDS = frozenset(
    {Kind.INT64, Kind.UINT64, Kind.SINT64, Kind.FIXED64, Kind.SFIXED64}
)  # fmt: skip
_FLOAT32_MAX = 3.4028234663852886e38
#: the shortest form json_format prints for the largest float32: above _FLOAT32_MAX, so
#: json_format's own range check refuses it; protoattr reads it (and only it) as that float
_FLOAT32_MAX_PRINTED = 3.4028235e38
_FLOAT_NAMES = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_INT_TEXT = re.compile(r"[-+]?[0-9]+")
_NUMBER_TEXT = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_BASE64 = re.compile(r"[A-Za-z0-9+/\-_]*={0,2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_PACK_F = struct.Struct("<f")
_PACK_D = struct.Struct("<d")
#: the Python type whose special form a kind without a class of its own uses
_KIND_TYPES: dict[Kind, type] = {
    Kind.TIMESTAMP: datetime.datetime,
    Kind.DURATION: datetime.timedelta,
}


def json_name(proto_name: str) -> str:
    """protoc's ``json_name``: underscores dropped, the letter after each upper-cased."""
    out: list[str] = []
    upper = False
    for ch in proto_name:
        if ch == "_":
            upper = True
        elif upper:
            out.append(ch.upper())
            upper = False
        else:
            out.append(ch)
    return "".join(out)


def shortest_float32(x: float) -> float:
    """The shortest decimal that reads back as the float32 ``x`` (json_format's rule).

    ``x`` must already be a finite float32 value; nine significant digits always do.
    """
    for precision in range(6, 10):
        rounded = float(f"{x:.{precision}g}")
        if _PACK_F.unpack(_PACK_F.pack(rounded))[0] == x:
            return rounded
    return x


def any_type_claim(model: Any, name: str) -> tuple[list[Any], type] | None:
    """The class an Any's ``"@type"`` ``name`` stands for in ``model``, for the C engine's
    JSON, with the list of claims that gave it: the engine's per-name cache keeps an entry
    only while ``names._CLAIMS[name]`` is still that very list (a declaration under the
    name replaces the list).  None where the reference must answer instead: no class, or
    an ambiguous name (the reference's error says which)."""
    from .._core import names

    try:
        cls: type | None = model.find(name)
    except Exception:  # an ambiguous name: the reference says so
        return None
    if cls is None:
        return None
    claimed = names._CLAIMS.get(name)
    if claimed is None or len(claimed) != 1 or claimed[0]() is not cls:
        return None
    return claimed, cls


def _show(value: Any) -> str:
    """A short rendering of a JSON value for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENT.fullmatch(key) else f"{path}[{json.dumps(key)}]"


_IDENT = re.compile(r"[A-Za-z_@][A-Za-z0-9_]*")


# ------------------------------------------------------------------- options


class _Options:
    """One combination of printing options, and the plans built for it."""

    __slots__ = ("always", "enum_ints", "proto_names", "top", "writers")

    def __init__(self, proto_names: bool, enum_ints: bool, always: bool) -> None:
        self.proto_names = proto_names
        self.enum_ints = enum_ints
        self.always = always
        self.writers: dict[type, Callable[[Any], Any]] = {}
        self.top: dict[type, Callable[[Any], Any]] = {}  # top-level values, forms included


class _Plans:
    """Everything JSON a model has built: writers per option set, readers."""

    def __init__(self, model: CodecModel) -> None:
        self.model_ref = weakref.ref(model)
        self.options: dict[tuple[bool, bool, bool], _Options] = {}
        self.readers: dict[tuple[type, bool], _Reader] = {}
        self.top: dict[tuple[Any, bool], Callable[[Any], Any]] = {}  # top-level readers
        self.enums: dict[type, _EnumNames] = {}
        #: the C readers by ignore_unknown_fields, then class (see _json/native_read.py)
        self.native_readers: tuple[dict[Any, Any], dict[Any, Any]] = ({}, {})
        self.lock = threading.RLock()

    @property
    def model(self) -> CodecModel:
        model = self.model_ref()
        assert model is not None
        return model

    def opts(self, proto_names: bool, enum_ints: bool, always: bool) -> _Options:
        key = (proto_names, enum_ints, always)
        found = self.options.get(key)
        if found is None:
            found = self.options.setdefault(key, _Options(*key))
        return found

    def enum_names(self, enum_cls: type) -> _EnumNames:
        found = self.enums.get(enum_cls)
        if found is None:
            found = self.enums.setdefault(enum_cls, _EnumNames(enum_cls))
        return found


_PLANS_LOCK = threading.Lock()


def _plans(model: CodecModel) -> _Plans:
    """The model's JSON plans, kept on the model itself (``_json_plans``)."""
    plans: _Plans | None = model.__dict__.get("_json_plans")
    if plans is None:
        with _PLANS_LOCK:
            plans = model.__dict__.get("_json_plans")
            if plans is None:
                _load_forms()
                plans = _Plans(model)
                model.__dict__["_json_plans"] = plans
    return plans


def _load_forms() -> None:
    """Import the modules that register special forms, before the first plan is built.

    They are imported here, at first use, so that ``import protoattr`` loads
    neither the JSON forms nor the well-known types they describe.
    """
    from . import times as _times  # noqa: F401  (datetime and timedelta)
    from . import wkt as _wkt  # noqa: F401  (the well-known types)


class _EnumNames:
    """An enum's JSON names: the member names, plus the names schema export may use."""

    def __init__(self, enum_cls: type) -> None:
        members: dict[str, Any] = dict(enum_cls.__members__)  # type: ignore[attr-defined]
        self.cls = enum_cls
        self.is_flag = issubclass(enum_cls, enum.Flag)
        self.name_of: dict[int, str] = {}
        self.by_name: dict[str, Any] = {}
        self.by_number: dict[int, Any] = {}
        for name, member in members.items():
            number = int(member.value)
            self.name_of.setdefault(number, name)
            self.by_number.setdefault(number, member)
            self.by_name[name] = member
        # schema export prefixes colliding value names with UPPER_SNAKE(enum name)_ and
        # adds <ENUM>_UNSPECIFIED = 0 where no member is zero: accept those spellings too
        prefix = re.sub(
            r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", enum_cls.__name__
        ).upper()
        for name, member in members.items():
            if not name.startswith(prefix + "_"):
                self.by_name.setdefault(f"{prefix}_{name}", member)
        if 0 not in self.by_number:
            zero: Any = enum_cls(0) if self.is_flag else 0
            self.by_name.setdefault(f"{prefix}_UNSPECIFIED", zero)
            if enum_cls not in _closed_enums():
                self.name_of[0] = f"{prefix}_UNSPECIFIED"


def _closed_enums() -> Any:
    from .._core.contract import _CLOSED_ENUMS

    return _CLOSED_ENUMS


# ------------------------------------------------------------------- context


class _Context:
    """The :class:`~protoattr._json.forms.JsonContext` special forms are called with."""

    __slots__ = ("ignore_unknown", "model", "opts", "plans")

    def __init__(self, plans: _Plans, opts: _Options | None, ignore_unknown: bool) -> None:
        self.plans = plans
        self.model = plans.model
        self.opts = opts
        self.ignore_unknown = ignore_unknown

    def message_to_json(self, obj: object) -> Any:
        from .write import _writer

        opts = self.opts or self.plans.opts(False, False, False)
        return _writer(self.plans, opts, obj.__class__)(obj)

    def message_from_json(self, cls: type, value: Any, path: str, depth: int = 0) -> Any:
        from .read import _reader

        return _reader(self.plans, cls, self.ignore_unknown).read(value, path, depth)


def _form_key(vt: ValueType) -> type | None:
    if vt.domain is not None:
        return vt.domain
    if vt.py_type is not None:
        return vt.py_type
    return _KIND_TYPES.get(vt.kind)


def _null_is_a_value(vt: ValueType) -> bool:
    """Whether JSON ``null`` is a value of ``vt`` rather than its absence.

    It is for ``google.protobuf.Value`` (its ``null_value``) and for the enum
    ``google.protobuf.NullValue`` (its one value), as in ``json_format``: a field of
    either type that reads ``null`` is set, an item of a list or map is kept.
    """
    return vt.py_type is ValueMessage or vt.py_type is NullValue


def _wire_zero(kind: Kind) -> Any:
    return {Kind.STRING: "", Kind.BYTES: b""}.get(kind, 0)


def _wire_type(vt: ValueType) -> ValueType:
    """The type a converted value travels as (Decimal -> string...)."""
    return ValueType(vt.kind, vt.py_type, vt.closed)
