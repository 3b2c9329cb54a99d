"""The canonical proto3 JSON mapping, for contracts.

``to_dict``/``to_json`` turn a contract instance into the JSON Google's
``json_format.MessageToDict``/``MessageToJson`` print for the same message
(the message of the ``.proto`` that :meth:`TypeModel.schema` exports);
``from_dict``/``from_json`` read what ``json_format.Parse`` reads, and reject
what it rejects, with a :class:`DecodeError` naming the JSON path
(``Order.items[3].price: ...``).

How it works: for each contract (and each combination of printing options)
a *plan* is built once - per field its attribute, its JSON key, how absence
is told and a converter closure specialised for the field's kind - and
cached per model; the per-call work is a flat loop over the plan.  Values
with a special form (``datetime``, ``timedelta`` and the well-known types)
go through the functions registered in :mod:`protoattr._jsonforms`.

protoattr-only constructs have the form their exported schema gives them:
a subtype is a field named after the subtype's message, holding an object
with the subtype's own fields (``{"name": "c", "Circle": {"radius": 2.0}}``),
exactly as the binary form nests it; ``Decimal``/``UUID``/``date`` are the
string/bytes/int32 they travel as; a surrogate is its contract's object;
groups are objects; unknown fields are not printed.
"""

from __future__ import annotations

import base64
import binascii
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

from . import _json_time, _jsonforms  # noqa: F401  (_json_time registers its forms)
from ._contract import MISSING, FieldInfo, Label, ValueType, is_contract, resolve, zero_value
from ._errors import ContractError, DecodeError, EncodeError
from ._types import INT_RANGES, Kind

if TYPE_CHECKING:
    from ._model import TypeModel

__all__ = ["from_dict", "from_json", "json_name", "to_dict", "to_json"]

_INT64_KINDS = frozenset(
    {Kind.INT64, Kind.UINT64, Kind.SINT64, Kind.FIXED64, Kind.SFIXED64}
)  # fmt: skip
_FLOAT32_MAX = 3.4028234663852886e38
#: the largest double that rounds to the largest float32 (C++'s SafeDoubleToFloat): the
#: shortest form json_format prints for it, 3.4028235e+38, is above _FLOAT32_MAX
_FLOAT32_ROUNDED_MAX = 3.4028235677973366e38
_FLOAT_NAMES = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_INT_TEXT = re.compile(r"[-+]?[0-9]+")
_NUMBER_TEXT = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_BASE64 = re.compile(r"[A-Za-z0-9+/\-_]*={0,2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_PACK_F = struct.Struct("<f")
_PACK_D = struct.Struct("<d")
#: the Python type whose special form a kind without a class of its own uses
_KIND_TYPES: dict[Kind, type] = {}


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

    __slots__ = ("always", "enum_ints", "proto_names", "writers")

    def __init__(self, proto_names: bool, enum_ints: bool, always: bool) -> None:
        self.proto_names = proto_names
        self.enum_ints = enum_ints
        self.always = always
        self.writers: dict[type, Callable[[Any], Any]] = {}


class _Plans:
    """Everything JSON a model has built: writers per option set, readers."""

    def __init__(self, model: TypeModel) -> None:
        self.model_ref = weakref.ref(model)
        self.options: dict[tuple[bool, bool, bool], _Options] = {}
        self.readers: dict[tuple[type, bool], _Reader] = {}
        self.enums: dict[type, _EnumNames] = {}
        self.lock = threading.RLock()

    @property
    def model(self) -> TypeModel:
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


_PLANS: weakref.WeakKeyDictionary[Any, _Plans] = weakref.WeakKeyDictionary()
_PLANS_LOCK = threading.Lock()


def _plans(model: TypeModel) -> _Plans:
    plans = _PLANS.get(model)
    if plans is None:
        with _PLANS_LOCK:
            plans = _PLANS.get(model)
            if plans is None:
                plans = _PLANS[model] = _Plans(model)
    return plans


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


# ------------------------------------------------------------------- context


class _Context:
    """The :class:`~protoattr._jsonforms.JsonContext` special forms are called with."""

    __slots__ = ("ignore_unknown", "model", "opts", "plans")

    def __init__(self, plans: _Plans, opts: _Options | None, ignore_unknown: bool) -> None:
        self.plans = plans
        self.model = plans.model
        self.opts = opts
        self.ignore_unknown = ignore_unknown

    def message_to_json(self, obj: object) -> Any:
        opts = self.opts or self.plans.opts(False, False, False)
        return _writer(self.plans, opts, obj.__class__)(obj)

    def message_from_json(self, cls: type, value: Any, path: str) -> Any:
        return _reader(self.plans, cls, self.ignore_unknown).read(value, path, 0)


def _form_key(vt: ValueType) -> type | None:
    if vt.domain is not None:
        return vt.domain
    if vt.py_type is not None:
        return vt.py_type
    return _KIND_TYPES.get(vt.kind)


# ------------------------------------------------------------------- writing


# modes: how a field's absence is told on the way out
_ALWAYS, _UNLESS_NONE, _UNLESS_EMPTY, _UNLESS_DEFAULT, _UNLESS_SAME_BITS = range(5)


def _writer(plans: _Plans, opts: _Options, cls: type) -> Callable[[Any], Any]:
    """The function turning an instance of ``cls`` (exactly) into a JSON object."""
    found = opts.writers.get(cls)
    if found is not None:
        return found
    with plans.lock:
        found = opts.writers.get(cls)
        if found is not None:
            return found
        # a placeholder that late-binds: recursive contracts refer to themselves
        def late(obj: Any) -> Any:
            return opts.writers[cls](obj)

        opts.writers[cls] = late
        try:
            made = _build_writer(plans, opts, cls)
        except BaseException:
            del opts.writers[cls]
            raise
        opts.writers[cls] = made
        return made


def _build_writer(plans: _Plans, opts: _Options, cls: type) -> Callable[[Any], Any]:
    model = plans.model
    levels = list(reversed(model._chain(cls)))  # the root first, cls last

    def level_writer(i: int) -> Callable[[Any], Any]:
        level = levels[i]
        items: list[tuple[int, tuple[Any, ...]]] = []
        for f in model._own_fields(level):
            items.append((f.tag, _field_step(plans, opts, f)))
        if i + 1 < len(levels):  # the next level down: the subtype's own message
            sub = levels[i + 1]
            link = model._parent_of(sub)
            assert link is not None
            step = (None, model.info(sub).name, _ALWAYS, None, level_writer(i + 1), _NO_DEFAULT)
            items.append((link[1], step))
        items.sort(key=lambda item: item[0])
        return _level_writer([step for _, step in items], opts.always)

    return level_writer(0)


def _level_writer(steps: list[tuple[Any, ...]], always: bool) -> Callable[[Any], Any]:
    """The loop writing one level of a hierarchy (one protobuf message).

    Like ``json_format``, fields that are set come first, in field-number order;
    with ``always`` the unset fields without presence follow, in the same order.
    """
    ordered = tuple(steps)
    defaults = tuple((s[1], s[5]) for s in ordered if s[5] is not _NO_DEFAULT) if always else ()
    def write(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attr, key, mode, default, conv, _printed in ordered:
            if attr is None:
                out[key] = conv(obj)
                continue
            v = getattr(obj, attr)
            if mode == _UNLESS_DEFAULT:
                if v == default:
                    continue
            elif mode == _UNLESS_NONE:
                if v is None:
                    continue
            elif mode == _UNLESS_EMPTY:
                if not v:
                    continue
            elif mode == _UNLESS_SAME_BITS:
                if _same_bits(v, default):
                    continue
            out[key] = conv(v)
        if defaults:
            for key, printed in defaults:
                if key not in out:
                    out[key] = printed
        return out

    return write


def _same_bits(v: Any, default: tuple[Callable[[Any], bytes], bytes]) -> bool:
    """Whether float ``v`` has its default's bits (``-0.0`` is not ``0.0``), as on the wire."""
    pack, bits = default
    try:
        return pack(v) == bits
    except (struct.error, OverflowError, TypeError):
        return False  # the converter names the field and the problem


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


_NO_DEFAULT: Any = _NoDefault()


def _field_step(plans: _Plans, opts: _Options, f: FieldInfo) -> tuple[Any, ...]:
    """``(attribute, key, mode, default, converter, printed default)`` of one field."""
    key = f.proto_name if opts.proto_names else json_name(f.proto_name)
    where = f.where
    value_conv = _value_writer(plans, opts, f.value, where)
    printed: Any = _NO_DEFAULT  # what always_print_fields_with_no_presence prints
    if f.label is Label.REPEATED:
        conv = _list_writer(value_conv, where)
        return (f.name, key, _UNLESS_EMPTY, None, conv, [])
    if f.label is Label.MAP:
        assert f.key is not None
        conv = _map_writer(_key_writer(f.key, where), value_conv, where)
        return (f.name, key, _UNLESS_EMPTY, None, conv, {})
    vt = f.value
    if f.required:
        return (f.name, key, _ALWAYS, None, _required(value_conv, where), printed)
    if f.label is Label.OPTIONAL or vt.kind in (Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION):
        return (f.name, key, _UNLESS_NONE, None, value_conv, printed)
    default = f.default_factory() if f.default_factory is not None else f.default
    if default is MISSING:
        default = zero_value(vt)
    implicit = _is_zero(vt, default) and not vt.closed
    if implicit:
        printed = value_conv(default)
    if vt.domain is None and vt.kind in (Kind.FLOAT, Kind.DOUBLE):
        pack = (_PACK_F if vt.kind is Kind.FLOAT else _PACK_D).pack
        try:
            bits = pack(float(default))
        except (TypeError, ValueError, OverflowError, struct.error):
            bits = pack(0.0)
        return (f.name, key, _UNLESS_SAME_BITS, (pack, bits), value_conv, printed)
    if vt.domain is not None and vt.encode_with is not None:
        # compared on the wire form, as the binary codec does (Decimal('0.0') is not '0')
        to_wire = vt.encode_with
        wire_default = to_wire(default)
        conv = value_conv

        class _WireEq:
            """Equal to a domain value whose wire form is the default's."""

            __slots__ = ()

            def __eq__(self, other: object) -> bool:
                try:
                    return bool(to_wire(other) == wire_default)
                except (TypeError, ValueError, AttributeError):
                    return False

            __hash__ = None  # type: ignore[assignment]

        return (f.name, key, _UNLESS_DEFAULT, _WireEq(), conv, printed)
    if vt.kind is Kind.ENUM:
        default = getattr(default, "value", default)
    if vt.kind is Kind.BOOL:
        return (f.name, key, _UNLESS_DEFAULT, bool(default), value_conv, printed)
    return (f.name, key, _UNLESS_DEFAULT, default, value_conv, printed)


def _is_zero(vt: ValueType, default: Any) -> bool:
    """Whether ``default`` is what an absent field reads as without ``[default = ...]``."""
    if vt.domain is not None:
        if vt.zero is not None and default == vt.zero:
            return True
        if vt.encode_with is None:
            return not default
        try:
            wire = vt.encode_with(default)
        except (TypeError, ValueError):
            return False
        return wire in (0, "", b"")
    kind = vt.kind
    if kind in (Kind.FLOAT, Kind.DOUBLE):
        try:
            return _PACK_D.pack(float(default)) == _PACK_D.pack(0.0)
        except (TypeError, ValueError):
            return False
    if kind is Kind.ENUM:
        return int(getattr(default, "value", default)) == 0
    return not default


def _required(conv: Callable[[Any], Any], where: str) -> Callable[[Any], Any]:
    def write(v: Any) -> Any:
        if v is None:
            raise EncodeError(f"{where}: required field is None")
        return conv(v)

    return write


def _list_writer(conv: Callable[[Any], Any], where: str) -> Callable[[Any], Any]:
    def write(v: Any) -> list[Any]:
        try:
            return [conv(x) for x in v]
        except TypeError as exc:
            if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
                raise EncodeError(f"{where}: expected a sequence, got {type(v).__name__}") from None
            raise exc

    return write


def _map_writer(
    key_conv: Callable[[Any], str], conv: Callable[[Any], Any], where: str
) -> Callable[[Any], Any]:
    def write(v: Any) -> dict[str, Any]:
        try:
            items = v.items()
        except AttributeError:
            raise EncodeError(f"{where}: expected a mapping, got {type(v).__name__}") from None
        return {key_conv(k): conv(x) for k, x in items}

    return write


def _key_writer(vt: ValueType, where: str) -> Callable[[Any], str]:
    kind = vt.kind
    if kind is Kind.STRING:
        return _string_writer(where + "[key]")
    if kind is Kind.BOOL:
        bool_conv = _bool_writer(where + "[key]")
        return lambda k: "true" if bool_conv(k) else "false"
    lo, hi = INT_RANGES[kind]
    int_where = where + "[key]"

    def write(k: Any) -> str:
        if k.__class__ is not int or not lo <= k <= hi:
            _bad_int(int_where, kind, k)
        return str(k)

    return write


def _bad_int(where: str, kind: Kind, v: Any) -> None:
    if not isinstance(v, int) or isinstance(v, bool):
        raise EncodeError(f"{where}: expected int ({kind.value}), got {type(v).__name__}")
    if v.__class__ is not int:  # an int subclass (an IntEnum member...) is fine
        lo, hi = INT_RANGES[kind]
        if lo <= v <= hi:
            return
    raise EncodeError(f"{where}: {v} is out of range for {kind.value}")


def _string_writer(where: str) -> Callable[[Any], str]:
    def write(v: Any) -> str:
        if v.__class__ is not str:
            if isinstance(v, str):
                return str(v)
            raise EncodeError(f"{where}: expected str, got {type(v).__name__}")
        return v  # type: ignore[no-any-return]

    return write


def _bool_writer(where: str) -> Callable[[Any], bool]:
    def write(v: Any) -> bool:
        if v is True or v is False:
            return v
        if v.__class__ is int and v in (0, 1):
            return bool(v)
        raise EncodeError(f"{where}: expected bool, got {type(v).__name__}")

    return write


def _value_writer(plans: _Plans, opts: _Options, vt: ValueType, where: str) -> Callable[[Any], Any]:
    """The converter of one value of type ``vt`` to its JSON value."""
    form = _jsonforms.form_for(_form_key(vt))
    if form is not None:
        to_form = form[0]
        ctx = _Context(plans, opts, False)

        def write_form(v: Any) -> Any:
            try:
                return to_form(v, ctx)
            except EncodeError as exc:
                text = str(exc)
                if text.startswith(where):
                    raise
                raise EncodeError(f"{where}: {text}") from None

        return write_form
    if vt.domain is not None and vt.encode_with is not None:
        to_wire = vt.encode_with
        plain = _value_writer(plans, opts, _wire_type(vt), where)

        def write_domain(v: Any) -> Any:
            try:
                wire = to_wire(v)
            except (TypeError, ValueError, AttributeError, OverflowError) as exc:
                raise EncodeError(f"{where}: {exc}") from None
            return plain(wire)

        return write_domain
    kind = vt.kind
    if kind is Kind.MESSAGE:
        assert vt.py_type is not None
        writers = opts.writers
        message_cls = vt.py_type

        def write_message(v: Any) -> Any:
            w = writers.get(v.__class__)
            if w is None:
                if not isinstance(v, message_cls):
                    raise EncodeError(
                        f"{where}: expected {message_cls.__qualname__}, got {type(v).__name__}"
                    )
                w = _writer(plans, opts, v.__class__)
            return w(v)

        return write_message
    if kind is Kind.STRING:
        return _string_writer(where)
    if kind is Kind.BOOL:
        return _bool_writer(where)
    if kind is Kind.BYTES:
        b64 = base64.b64encode

        def write_bytes(v: Any) -> str:
            try:
                return b64(v).decode("ascii")
            except TypeError:
                raise EncodeError(f"{where}: expected bytes, got {type(v).__name__}") from None

        return write_bytes
    if kind is Kind.DOUBLE:

        def write_double(v: Any) -> Any:
            if v.__class__ is not float:
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    raise EncodeError(f"{where}: expected float, got {type(v).__name__}")
                v = float(v)
            if v - v == 0.0:  # finite
                return v
            return "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")

        return write_double
    if kind is Kind.FLOAT:
        return _float32_writer(where)
    if kind is Kind.ENUM:
        assert vt.py_type is not None
        return _enum_writer(plans.enum_names(vt.py_type), opts.enum_ints, vt, where)
    if kind in INT_RANGES:
        lo, hi = INT_RANGES[kind]
        if kind in _INT64_KINDS:

            def write_int64(v: Any) -> str:
                if v.__class__ is not int or not lo <= v <= hi:
                    _bad_int(where, kind, v)
                return str(int(v))

            return write_int64

        def write_int(v: Any) -> int:
            if v.__class__ is not int or not lo <= v <= hi:
                _bad_int(where, kind, v)
                return int(v)
            return v  # type: ignore[no-any-return]

        return write_int
    raise ContractError(f"{where}: no JSON form for {vt.describe()}")


def _wire_type(vt: ValueType) -> ValueType:
    """The type a converted value travels as (Decimal -> string...)."""
    return ValueType(vt.kind, vt.py_type, vt.closed)


def _shortest_float32(x: float) -> float:
    """The shortest decimal that reads back as the same float32 (json_format's rule)."""
    for precision in range(6, 10):
        rounded = float(f"{x:.{precision}g}")
        if _PACK_F.unpack(_PACK_F.pack(rounded))[0] == x:
            return rounded
    return x


def _float32_writer(where: str) -> Callable[[Any], Any]:
    pack, unpack = _PACK_F.pack, _PACK_F.unpack

    def write(v: Any) -> Any:
        if v.__class__ is not float:
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise EncodeError(f"{where}: expected float, got {type(v).__name__}")
            v = float(v)
        if v - v != 0.0:
            return "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")
        try:
            x = unpack(pack(v))[0]
        except OverflowError:
            raise EncodeError(f"{where}: {v!r} is out of range for float") from None
        if x == 0.0 or x - x != 0.0:
            return x if x == 0.0 else ("Infinity" if x > 0 else "-Infinity")
        return _shortest_float32(x)

    return write


def _enum_writer(
    names: _EnumNames, as_int: bool, vt: ValueType, where: str
) -> Callable[[Any], Any]:
    name_of = names.name_of
    lo, hi = INT_RANGES[Kind.ENUM]
    enum_cls = names.cls

    def number(v: Any) -> int:
        if isinstance(v, enum_cls):
            return int(v.value)  # type: ignore[attr-defined]
        if v.__class__ is int and lo <= v <= hi:
            return v  # type: ignore[no-any-return]
        raise EncodeError(f"{where}: expected {enum_cls.__qualname__}, got {v!r}")

    if as_int:
        return number

    def write(v: Any) -> Any:
        n = number(v)
        name = name_of.get(n)
        return n if name is None else name

    return write


# ------------------------------------------------------------------- reading


class _Reader:
    """Reads the JSON object of one contract's hierarchy (its root's message)."""

    __slots__ = ("cls", "ignore_unknown", "levels", "max_depth", "name", "plans", "root")

    def __init__(self, plans: _Plans, cls: type, ignore_unknown: bool) -> None:
        self.plans = plans
        self.cls = cls
        self.ignore_unknown = ignore_unknown
        model = plans.model
        self.max_depth = model.max_depth
        self.root = model._chain(cls)[-1]
        self.name = model.info(cls).name
        self.levels: dict[type, _Level] = {}

    def level(self, cls: type) -> _Level:
        found = self.levels.get(cls)
        if found is None:
            found = self.levels[cls] = _Level(self, cls)
        return found

    def read(self, value: Any, path: str, depth: int) -> Any:
        if depth >= self.max_depth:
            raise DecodeError(f"{path}: nesting deeper than {self.max_depth} levels")
        if value.__class__ is not dict:
            _not_object(value, path, self.name)
        values: dict[str, Any] = {}
        final = self.level(self.root).read(value, path, depth, values)
        cls = self.cls
        if final is not cls and not issubclass(final, cls):
            raise DecodeError(
                f"{path}: a {final.__qualname__} where {cls.__qualname__} is expected "
                f"(no {self.plans.model.info(cls).name!r} member)"
            )
        return self.level(final).build(values, path, depth)


def _not_object(value: Any, path: str, name: str) -> None:
    if isinstance(value, _Duplicate):
        raise DecodeError(f"{path}: the key {value.key!r} is given twice")
    raise DecodeError(f"{path}: expected a JSON object for {name}, got {_show(value)}")


class _Duplicate(dict):  # type: ignore[type-arg]
    """A JSON object in which a key appeared twice (reported with its path when met)."""

    key: str = ""


class _Level:
    """One level of a hierarchy: its own fields' readers by key, and its subtypes."""

    def __init__(self, reader: _Reader, cls: type) -> None:
        plans = reader.plans
        model = plans.model
        self.cls = cls
        self.reader = reader
        self.info = model.info(cls)
        chain = model._chain(cls)
        self.chain = chain
        self.fields: dict[str, tuple[FieldInfo, Callable[..., Any], str]] = {}
        for f in model._own_fields(cls):
            read = _field_reader(plans, f, reader.ignore_unknown)
            entry = (f, read, f.proto_name)
            self.fields[json_name(f.proto_name)] = entry
            self.fields.setdefault(f.proto_name, entry)
        self.subtypes: dict[str, type] = {}
        for _, sub in model._children_of(cls):
            self.subtypes[model.info(sub).name] = sub
        self.all_fields = [f for level in reversed(chain) for f in model._own_fields(level)]
        self.required = [f for f in self.all_fields if f.required]

    def read(self, obj: dict[str, Any], path: str, depth: int, values: dict[str, Any]) -> type:
        """Read this level's keys of ``obj`` into ``values``; return the final class."""
        final = self.cls
        oneofs: dict[str, str] | None = None
        fields = self.fields
        for key, v in obj.items():
            entry = fields.get(key)
            if entry is None:
                sub = self.subtypes.get(key)
                if sub is not None:
                    if final is not self.cls:
                        raise DecodeError(
                            f"{path}: more than one subtype is given ({key!r} and "
                            f"{self.reader.plans.model.info(final).name!r})"
                        )
                    if v is None:
                        continue
                    sub_path = _key_path(path, key)
                    if v.__class__ is not dict:
                        _not_object(v, sub_path, key)
                    final = self.reader.level(sub).read(v, sub_path, depth + 1, values)
                    continue
                if self.reader.ignore_unknown:
                    continue
                raise DecodeError(f"{_key_path(path, key)}: {self.info.name} has no field {key!r}")
            f, read, name = entry
            if f.name in values:
                raise DecodeError(
                    f"{_key_path(path, key)}: the field {name!r} is given twice "
                    "(as its proto name and its JSON name)"
                )
            if v is None:
                if f.oneof is None:
                    continue  # null: the field's default
                values[f.name] = None
                continue
            if f.oneof is not None:
                if oneofs is None:
                    oneofs = {}
                other = oneofs.get(f.oneof)
                if other is not None:
                    raise DecodeError(
                        f"{_key_path(path, key)}: oneof {f.oneof!r} already has {other!r}"
                    )
                oneofs[f.oneof] = key
            got = read(v, _key_path(path, key), depth)
            if got is not _SKIP:
                values[f.name] = got
        return final

    def build(self, values: dict[str, Any], path: str, depth: int) -> Any:
        """Complete ``values`` with defaults and construct the instance."""
        for f in self.required:
            if f.name not in values:
                raise DecodeError(f"{path}: required field {f.proto_name!r} is missing")
        for f in self.all_fields:
            if f.name in values:
                v = values[f.name]
                if f.label is Label.REPEATED and f.container is not list:
                    values[f.name] = f.container(v)
                continue
            if f.default_factory is not None:
                values[f.name] = f.default_factory()
            elif f.default is not MISSING:
                values[f.name] = f.default
            elif f.label is Label.SINGULAR and f.value.kind is Kind.MESSAGE:
                values[f.name] = _empty(self.reader, f.value, path, depth)
            else:
                values[f.name] = zero_value(f.value)
        info = self.info
        cls = self.cls
        try:
            if info.construct == "init":
                by_name = {f.name: f for f in self.all_fields}
                kwargs = {
                    init: values[attr]
                    for attr, init, _ in info.init_params
                    if attr in by_name and attr in values
                }
                obj = cls(**kwargs)
                late = [f for f in self.all_fields if f.init_name is None]
            else:
                obj = object.__new__(cls)
                late = self.all_fields
            for f in late:
                object.__setattr__(obj, f.name, values[f.name])
        except DecodeError:
            raise
        except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise DecodeError(f"{path}: {cls.__qualname__}: {exc}") from None
        return obj


def _empty(reader: _Reader, vt: ValueType, path: str, depth: int) -> Any:
    """The value of an absent non-Optional message: an empty one."""
    assert vt.py_type is not None
    inner = _reader(reader.plans, vt.py_type, reader.ignore_unknown).read({}, path, depth + 1)
    if vt.decode_with is not None:
        return vt.decode_with(inner)
    return inner


class _Skip:
    def __repr__(self) -> str:
        return "SKIP"


#: returned by a value reader for an unknown enum name under ignore_unknown_fields
_SKIP: Any = _Skip()


def _reader(plans: _Plans, cls: type, ignore_unknown: bool) -> _Reader:
    key = (cls, ignore_unknown)
    found = plans.readers.get(key)
    if found is None:
        with plans.lock:
            found = plans.readers.get(key)
            if found is None:
                if not is_contract(cls):
                    resolve(cls)  # the ContractError saying so
                found = plans.readers[key] = _Reader(plans, cls, ignore_unknown)
    return found


def _field_reader(plans: _Plans, f: FieldInfo, ignore_unknown: bool) -> Callable[..., Any]:
    """``(json value, path, depth) -> value`` for one field (lists and maps whole)."""
    vt = f.value
    read_value = _value_reader(plans, vt, ignore_unknown)
    takes_null = _jsonforms.form_for(_form_key(vt)) is not None
    if f.label is Label.REPEATED:

        def read_list(v: Any, path: str, depth: int) -> list[Any]:
            if v.__class__ is not list:
                raise DecodeError(f"{path}: a repeated field needs a JSON array, got {_show(v)}")
            out = []
            for i, x in enumerate(v):
                if x is None and not takes_null:
                    raise DecodeError(f"{path}[{i}]: null is not allowed in a repeated field")
                got = read_value(x, f"{path}[{i}]", depth)
                if got is not _SKIP:
                    out.append(got)
            return out

        return read_list
    if f.label is Label.MAP:
        assert f.key is not None
        read_key = _key_reader(f.key)

        def read_map(v: Any, path: str, depth: int) -> dict[Any, Any]:
            if v.__class__ is not dict:
                if isinstance(v, _Duplicate):
                    raise DecodeError(f"{path}: the key {v.key!r} is given twice")
                raise DecodeError(f"{path}: a map field needs a JSON object, got {_show(v)}")
            out = {}
            for k, x in v.items():
                item_path = f"{path}[{json.dumps(k, ensure_ascii=False)}]"
                if x is None and not takes_null:
                    raise DecodeError(f"{item_path}: a map value cannot be null")
                got = read_value(x, item_path, depth)
                if got is not _SKIP:
                    out[read_key(k, item_path)] = got
            return out

        return read_map
    return read_value


def _key_reader(vt: ValueType) -> Callable[[str, str], Any]:
    kind = vt.kind
    if kind is Kind.STRING:
        return lambda k, path: k
    if kind is Kind.BOOL:

        def read_bool(k: str, path: str) -> bool:
            if k == "true":
                return True
            if k == "false":
                return False
            raise DecodeError(f"{path}: a bool map key is \"true\" or \"false\", not {k!r}")

        return read_bool
    lo, hi = INT_RANGES[kind]

    def read_int(k: str, path: str) -> int:
        if not _INT_TEXT.fullmatch(k):
            raise DecodeError(f"{path}: the map key {k!r} is not an integer")
        n = int(k)
        if not lo <= n <= hi:
            raise DecodeError(f"{path}: the map key {k} is out of range for {kind.value}")
        return n

    return read_int


def _value_reader(plans: _Plans, vt: ValueType, ignore_unknown: bool) -> Callable[..., Any]:
    """``(json value, path, depth) -> value`` for one value of type ``vt``."""
    form = _jsonforms.form_for(_form_key(vt))
    if form is not None:
        from_form = form[1]
        ctx = _Context(plans, None, ignore_unknown)

        def read_form(v: Any, path: str, depth: int) -> Any:
            return from_form(_plain(v, path), path, ctx)

        return read_form
    if vt.domain is not None and vt.decode_with is not None:
        from_wire = vt.decode_with
        plain = _value_reader(plans, _wire_type(vt), ignore_unknown)
        what = vt.domain.__qualname__

        def read_domain(v: Any, path: str, depth: int) -> Any:
            wire = plain(v, path, depth)
            try:
                return from_wire(wire)
            except DecodeError:
                raise
            except (TypeError, ValueError, ArithmeticError) as exc:
                raise DecodeError(f"{path}: not a valid {what} ({exc})") from None

        return read_domain
    kind = vt.kind
    if kind is Kind.MESSAGE:
        assert vt.py_type is not None
        cls = vt.py_type
        holder: list[_Reader] = []

        def read_message(v: Any, path: str, depth: int) -> Any:
            if not holder:
                holder.append(_reader(plans, cls, ignore_unknown))
            return holder[0].read(v, path, depth + 1)

        return read_message
    if kind is Kind.STRING:

        def read_string(v: Any, path: str, depth: int) -> str:
            if v.__class__ is not str:
                raise DecodeError(f"{path}: expected a string, got {_show(v)}")
            if _LONE_SURROGATE.search(v):
                raise DecodeError(f"{path}: the string has an unpaired surrogate")
            return v  # type: ignore[no-any-return]

        return read_string
    if kind is Kind.BOOL:

        def read_bool(v: Any, path: str, depth: int) -> bool:
            if v is True or v is False:
                return v
            raise DecodeError(f"{path}: expected true or false, got {_show(v)}")

        return read_bool
    if kind is Kind.BYTES:
        return _read_bytes
    if kind in (Kind.FLOAT, Kind.DOUBLE):
        return _float_reader(kind is Kind.FLOAT)
    if kind is Kind.ENUM:
        assert vt.py_type is not None
        return _enum_reader(plans.enum_names(vt.py_type), vt, ignore_unknown)
    if kind in INT_RANGES:
        return _int_reader(kind)
    raise ContractError(f"no JSON form for {vt.describe()}")


def _plain(v: Any, path: str) -> Any:
    """``v`` with every object a plain ``dict``: a duplicated key is an error here."""
    if isinstance(v, dict):
        if isinstance(v, _Duplicate):
            raise DecodeError(f"{path}: the key {v.key!r} is given twice")
        if any(isinstance(x, (dict, list)) for x in v.values()):
            return {k: _plain(x, _key_path(path, k)) for k, x in v.items()}
        return v
    if isinstance(v, list) and any(isinstance(x, (dict, list)) for x in v):
        return [_plain(x, f"{path}[{i}]") for i, x in enumerate(v)]
    return v


def _read_bytes(v: Any, path: str, depth: int) -> bytes:
    if v.__class__ is not str:
        raise DecodeError(f"{path}: expected a base64 string, got {_show(v)}")
    if not _BASE64.fullmatch(v) or len(v.rstrip("=")) % 4 == 1:
        raise DecodeError(f"{path}: {_show(v)} is not base64")
    data = v.rstrip("=")
    if "=" in v and len(v) % 4:
        raise DecodeError(f"{path}: {_show(v)} has wrong base64 padding")
    try:
        return base64.urlsafe_b64decode(
            data.replace("+", "-").replace("/", "_") + "=" * (-len(data) % 4)
        )
    except (binascii.Error, ValueError):
        raise DecodeError(f"{path}: {_show(v)} is not base64") from None


def _float_reader(single: bool) -> Callable[..., float]:
    pack, unpack = _PACK_F.pack, _PACK_F.unpack

    def read(v: Any, path: str, depth: int) -> float:
        cls = v.__class__
        if cls is float:
            x = v
            if x - x != 0.0:
                raise DecodeError(
                    f"{path}: {_show(v)} is not a JSON number (write \"NaN\", \"Infinity\" "
                    "or \"-Infinity\" as strings)"
                )
        elif cls is int:
            try:
                x = float(v)
            except OverflowError:
                raise DecodeError(f"{path}: {v} is out of range for a double") from None
        elif cls is str:
            special = _FLOAT_NAMES.get(v)
            if special is not None:
                return special
            if not _NUMBER_TEXT.fullmatch(v):
                raise DecodeError(f"{path}: {_show(v)} is not a number")
            x = float(v)
            if x - x != 0.0:
                raise DecodeError(f"{path}: {_show(v)} is out of range for a double")
        else:
            raise DecodeError(f"{path}: expected a number, got {_show(v)}")
        if single:
            if not -_FLOAT32_MAX <= x <= _FLOAT32_MAX:
                if not -_FLOAT32_ROUNDED_MAX <= x <= _FLOAT32_ROUNDED_MAX:
                    raise DecodeError(f"{path}: {_show(v)} is out of range for a float")
                return _FLOAT32_MAX if x > 0 else -_FLOAT32_MAX
            return unpack(pack(x))[0]  # type: ignore[no-any-return]
        return x  # type: ignore[no-any-return]

    return read


def _int_reader(kind: Kind) -> Callable[..., int]:
    lo, hi = INT_RANGES[kind]
    name = kind.value

    def read(v: Any, path: str, depth: int) -> int:
        if v.__class__ is int:
            if lo <= v <= hi:
                return v  # type: ignore[no-any-return]
            raise DecodeError(f"{path}: {v} is out of range for {name}")
        return _int_slow(v, path, lo, hi, name)

    return read


def _int_slow(v: Any, path: str, lo: int, hi: int, name: str) -> int:
    if v.__class__ is str:
        if _INT_TEXT.fullmatch(v):
            n = int(v)
        elif _NUMBER_TEXT.fullmatch(v):
            x = float(v)
            if not x.is_integer():
                raise DecodeError(f"{path}: {_show(v)} is not an integer")
            n = int(x)
        else:
            raise DecodeError(f"{path}: {_show(v)} is not an integer")
    elif v.__class__ is float:
        if not v.is_integer():
            raise DecodeError(f"{path}: {_show(v)} is not an integer")
        n = int(v)
    else:
        raise DecodeError(f"{path}: expected an integer ({name}), got {_show(v)}")
    if not lo <= n <= hi:
        raise DecodeError(f"{path}: {_show(v)} is out of range for {name}")
    return n


def _enum_reader(names: _EnumNames, vt: ValueType, ignore_unknown: bool) -> Callable[..., Any]:
    by_name = names.by_name
    by_number = names.by_number
    closed = vt.closed
    lo, hi = INT_RANGES[Kind.ENUM]
    enum_name = names.cls.__qualname__
    make = vt.decode_with

    def read(v: Any, path: str, depth: int) -> Any:
        if v.__class__ is str:
            member = by_name.get(v)
            if member is not None:
                return member
            if not _INT_TEXT.fullmatch(v):
                if ignore_unknown:
                    return _SKIP
                raise DecodeError(f"{path}: {v!r} is not a value of {enum_name}")
            v = int(v)
        elif v.__class__ is not int:
            raise DecodeError(f"{path}: expected a {enum_name} name or number, got {_show(v)}")
        member = by_number.get(v)
        if member is not None:
            return member
        if not lo <= v <= hi:
            raise DecodeError(f"{path}: {v} is out of range for an enum")
        if closed:
            raise DecodeError(f"{path}: {v} is not a value of the closed enum {enum_name}")
        if make is not None:
            return make(v)
        return v

    return read


# ------------------------------------------------------------------- entry points


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        dup = _Duplicate(d)
        for k, _ in pairs:
            if k in seen:
                dup.key = k
                break
            seen.add(k)
        return dup
    return d


def to_dict(
    model: TypeModel,
    obj: Any,
    *,
    preserving_proto_field_name: bool = False,
    use_integers_for_enums: bool = False,
    always_print_fields_with_no_presence: bool = False,
) -> Any:
    """``obj`` as the JSON value (a dict for contracts) ``json_format.MessageToDict`` makes."""
    plans = _plans(model)
    opts = plans.opts(
        preserving_proto_field_name, use_integers_for_enums, always_print_fields_with_no_presence
    )
    writer = opts.writers.get(obj.__class__)
    if writer is None:
        form = _jsonforms.form_for(obj.__class__)
        if form is not None:
            return form[0](obj, _Context(plans, opts, False))
        if not is_contract(obj.__class__):
            raise EncodeError(f"{obj.__class__.__qualname__} is not a contract")
        writer = _writer(plans, opts, obj.__class__)
    try:
        return writer(obj)
    except (EncodeError, ContractError):
        raise
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise EncodeError(f"{obj.__class__.__qualname__}: {exc}") from None


def to_json(
    model: TypeModel,
    obj: Any,
    *,
    preserving_proto_field_name: bool = False,
    use_integers_for_enums: bool = False,
    always_print_fields_with_no_presence: bool = False,
    indent: int | None = 2,
    sort_keys: bool = False,
    ensure_ascii: bool = True,
) -> str:
    """``obj`` as JSON text, byte for byte what ``json_format.MessageToJson`` writes."""
    data = to_dict(
        model,
        obj,
        preserving_proto_field_name=preserving_proto_field_name,
        use_integers_for_enums=use_integers_for_enums,
        always_print_fields_with_no_presence=always_print_fields_with_no_presence,
    )
    return json.dumps(data, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)


def from_dict(
    model: TypeModel, cls: Any, data: Any, *, ignore_unknown_fields: bool = False
) -> Any:
    """An instance of ``cls`` read from a JSON value (what ``json.loads`` returns)."""
    plans = _plans(model)
    form = _jsonforms.form_for(cls) if isinstance(cls, type) else None
    if form is not None and not is_contract(cls):
        name = getattr(cls, "__qualname__", str(cls))
        return form[1](_plain(data, name), name, _Context(plans, None, ignore_unknown_fields))
    if not isinstance(cls, type):
        raise ContractError(f"{cls!r} is not a contract class")
    reader = _reader(plans, cls, ignore_unknown_fields)
    if form is not None:
        return form[1](_plain(data, reader.name), reader.name, _Context(plans, None, ignore_unknown_fields))
    try:
        return reader.read(data, reader.name, 0)
    except (DecodeError, ContractError):
        raise
    except RecursionError:
        raise DecodeError(f"{reader.name}: nested too deeply") from None
    except (TypeError, ValueError, AttributeError, KeyError, ArithmeticError) as exc:
        raise DecodeError(f"{reader.name}: {exc}") from None


def from_json(
    model: TypeModel, cls: Any, text: str | bytes | bytearray, *, ignore_unknown_fields: bool = False
) -> Any:
    """An instance of ``cls`` read from JSON text (``str``, or UTF-8 ``bytes``)."""
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _positioned(f"JSON text is not UTF-8: {exc.reason}", exc.start) from None
        except TypeError:
            raise TypeError(f"from_json takes str or bytes, not {type(text).__name__}") from None
    try:
        data = json.loads(text, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as exc:
        raise _positioned(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", exc.pos) from None
    except RecursionError:
        raise DecodeError("malformed JSON: nested too deeply") from None
    return from_dict(model, cls, data, ignore_unknown_fields=ignore_unknown_fields)


def _positioned(message: str, pos: int) -> DecodeError:
    exc = DecodeError(f"{message} (char {pos})")
    exc.offset = pos
    return exc


_KIND_TYPES.update({Kind.TIMESTAMP: datetime.datetime, Kind.DURATION: datetime.timedelta})
