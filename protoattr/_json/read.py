"""Reading canonical JSON: one reader per contract (see :mod:`protoattr._json.api`).

A reader looks each key up in its level's table (JSON name and proto name),
reads the value with a converter specialised per kind, and builds the object
from a precomputed fill-and-construct plan.  Error paths are nested tuples,
rendered as text (``Order.items[3].price``) only when an error is raised.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any

from .._core.contract import MISSING, FieldInfo, Label, ValueType, is_contract, resolve, zero_value
from .._core.errors import ContractError, DecodeError
from .._core.types import BCL_KINDS, INT_RANGES, Kind
from .._core.wkt import NullValue
from . import extensions as _jsonext
from . import forms as _jsonforms
from .bcl import bcl_reader
from .plan import (
    _BASE64,
    _FLOAT32_MAX,
    _FLOAT32_MAX_PRINTED,
    _FLOAT_NAMES,
    _INT_TEXT,
    _LONE_SURROGATE,
    _NUMBER_TEXT,
    _PACK_F,
    _Context,
    _EnumNames,
    _form_key,
    _key_path,
    _null_is_a_value,
    _Plans,
    _show,
    _wire_type,
    _wire_zero,
    json_name,
)

# ------------------------------------------------------------------- reading


class _Reader:
    """Reads the JSON object of one contract's hierarchy (its root's message)."""

    __slots__ = (
        "cls", "ignore_unknown", "levels", "max_depth", "name", "own_level", "plans", "root",
        "root_level",
    )  # fmt: skip

    def __init__(self, plans: _Plans, cls: type, ignore_unknown: bool) -> None:
        self.plans = plans
        self.cls = cls
        self.ignore_unknown = ignore_unknown
        model = plans.model
        self.max_depth = model.max_depth
        self.root = model._chain(cls)[-1]
        self.name = model.info(cls).name
        self.levels: dict[type, _Level] = {}
        self.root_level: _Level | None = None
        self.own_level: _Level | None = None

    def level(self, cls: type) -> _Level:
        found = self.levels.get(cls)
        if found is None:
            found = self.levels[cls] = _Level(self, cls)
        return found

    def read(self, value: Any, path: Any, depth: int) -> Any:
        if depth >= self.max_depth:
            raise DecodeError(f"{_p(path)}: nesting deeper than {self.max_depth} levels")
        if value.__class__ is not dict and not _is_object(value):
            _not_object(value, _p(path), self.name)
        values: dict[str, Any] = {}
        root = self.root_level
        if root is None:
            root = self.root_level = self.level(self.root)
        final = root.read(value, path, depth, values)
        cls = self.cls
        extensions = values.pop(_jsonext.KEY, None)
        if final is cls:
            own = self.own_level
            if own is None:
                own = self.own_level = self.level(cls)
            obj = own.build(values, path, depth)
        elif not issubclass(final, cls):
            raise DecodeError(
                f"{_p(path)}: a {final.__qualname__} where {cls.__qualname__} is expected "
                f"(no {self.plans.model.info(cls).name!r} member)"
            )
        else:
            obj = self.level(final).build(values, path, depth)
        if extensions:
            _jsonext.store(obj, extensions, self.plans.model)
        return obj


def _not_object(value: Any, path: str, name: str) -> None:
    if isinstance(value, _Duplicate):
        raise DecodeError(f"{_p(path)}: the key {value.key!r} is given twice")
    raise DecodeError(f"{_p(path)}: expected a JSON object for {name}, got {_show(value)}")


def _is_object(value: Any) -> bool:
    """A JSON object: a dict (an ``OrderedDict`` too, from ``from_dict``), but not one
    in which the JSON text gave a key twice."""
    return isinstance(value, dict) and not isinstance(value, _Duplicate)


class _Duplicate(dict):  # type: ignore[type-arg]
    """A JSON object in which a key appeared twice (reported with its path when met)."""

    key: str = ""


class _Level:
    """One level of a hierarchy: its own fields' readers by key, and its subtypes.

    Reading fills a dict of attribute values across the levels; the level of the
    final class then completes it with defaults and constructs the instance.
    """

    def __init__(self, reader: _Reader, cls: type) -> None:
        plans = reader.plans
        model = plans.model
        self.cls = cls
        self.reader = reader
        self.info = model.info(cls)
        chain = model._chain(cls)
        #: key (JSON name or proto name) -> (attribute, reader, oneof, proto name, whether
        #: ``null`` is a value rather than the default)
        self.fields: dict[str, tuple[str, Callable[..., Any], str | None, str, bool]] = {}
        for f in model._own_fields(cls):
            read = _field_reader(plans, f, reader.ignore_unknown)
            null_value = f.label is not Label.REPEATED and f.label is not Label.MAP
            entry = (f.name, read, f.oneof, f.proto_name, null_value and _null_is_a_value(f.value))
            self.fields[json_name(f.proto_name)] = entry
            self.fields.setdefault(f.proto_name, entry)
        self.subtypes: dict[str, type] = {}
        for _, sub in model._children_of(cls):
            self.subtypes[model.info(sub).name] = sub
        fields = [f for level in reversed(chain) for f in model._own_fields(level)]
        self.count = len(fields)
        self.required = [(f.name, f.proto_name) for f in fields if f.required]
        #: (attribute, how to fill it when absent, with what)
        self.fill: list[tuple[str, int, Any]] = []
        for f in fields:
            if f.required:
                continue
            if f.default_factory is not None:
                self.fill.append((f.name, _FACTORY, f.default_factory))
            elif f.default is not MISSING:
                self.fill.append((f.name, _CONSTANT, f.default))
            elif f.label is Label.SINGULAR and f.value.kind is Kind.MESSAGE:
                self.fill.append((f.name, _EMPTY_MESSAGE, f.value))
            else:
                self.fill.append((f.name, _CONSTANT, zero_value(f.value)))
        self.containers = [
            (f.name, f.container)
            for f in fields
            if f.label is Label.REPEATED and f.container is not list
        ]
        info = self.info
        if info.construct == "init":
            names = {f.name for f in fields}
            self.init = [(attr, init) for attr, init, _ in info.init_params if attr in names]
            self.late = [f.name for f in fields if f.init_name is None]
            self.direct = not self.late and all(attr == init for attr, init in self.init)
        else:
            self.init = []
            self.late = [f.name for f in fields]
            self.direct = False

    def read(self, obj: dict[str, Any], path: Any, depth: int, values: dict[str, Any]) -> type:
        """Read this level's keys of ``obj`` into ``values``; return the final class."""
        final = self.cls
        oneofs: dict[str, str] | None = None
        fields = self.fields
        for key, v in obj.items():
            entry = fields.get(key)
            if entry is None:
                final = self._other_key(key, v, path, depth, values, final)
                continue
            attr, read, oneof, name, null_is_a_value = entry
            if attr in values:
                raise DecodeError(
                    f"{_p((path, key))}: the field {name!r} is given twice "
                    "(as its proto name and its JSON name)"
                )
            if v is None and not null_is_a_value:
                if oneof is not None:
                    values[attr] = None
                continue  # null: the field's default
            if oneof is not None:
                if oneofs is None:
                    oneofs = {}
                other = oneofs.get(oneof)
                if other is not None:
                    raise DecodeError(f"{_p((path, key))}: oneof {oneof!r} already has {other!r}")
                oneofs[oneof] = key
            got = read(v, (path, key), depth)
            if got is not _SKIP:
                values[attr] = got
        return final

    def _other_key(
        self, key: str, v: Any, path: Any, depth: int, values: dict[str, Any], final: type
    ) -> type:
        """A key that is no field of this level: a subtype, an extension, or unknown."""
        sub = self.subtypes.get(key)
        if sub is None and key[:1] == "[" and key[-1:] == "]":
            self._extension(key, v, (path, key), depth, values)
            return final
        if sub is None:
            if self.reader.ignore_unknown:
                _plain(v, _p((path, key)))  # skipped, but a key given twice is malformed
                return final
            raise DecodeError(f"{_p((path, key))}: {self.info.name} has no field {key!r}")
        if final is not self.cls:
            raise DecodeError(
                f"{_p(path)}: more than one subtype is given ({key!r} and "
                f"{self.reader.plans.model.info(final).name!r})"
            )
        if v is None:
            return final
        sub_path = (path, key)
        if v.__class__ is not dict and not _is_object(v):
            _not_object(v, _p(sub_path), key)
        return self.reader.level(sub).read(v, sub_path, depth + 1, values)

    def _extension(self, key: str, v: Any, path: Any, depth: int, values: dict[str, Any]) -> None:
        """Read ``"[full.name]": v`` into ``values[_jsonext.KEY]`` (see _Reader.read)."""
        reader = self.reader
        ext = reader.plans.model.find_extension(key[1:-1])
        if ext is None:
            if reader.ignore_unknown:
                return
            raise DecodeError(f"{_p(path)}: no extension {key[1:-1]!r} is declared")
        if ext.extendee is not self.cls:
            raise DecodeError(
                f"{_p(path)}: {key[1:-1]!r} extends {ext.extendee.__qualname__}, "
                f"not {self.cls.__qualname__}"
            )
        if v is None:
            return  # null: absent
        got = _field_reader(reader.plans, ext.info.field, reader.ignore_unknown)(v, path, depth)
        if got is not _SKIP:
            values.setdefault(_jsonext.KEY, []).append((ext, got))

    def build(self, values: dict[str, Any], path: Any, depth: int) -> Any:
        """Complete ``values`` with defaults and construct the instance."""
        if len(values) != self.count:
            for attr, proto_name in self.required:
                if attr not in values:
                    raise DecodeError(f"{_p(path)}: required field {proto_name!r} is missing")
            for attr, how, what in self.fill:
                if attr not in values:
                    if how == _CONSTANT:
                        values[attr] = what
                    elif how == _FACTORY:
                        values[attr] = what()
                    else:
                        values[attr] = _empty(self.reader, what, path, depth)
        for attr, container in self.containers:
            values[attr] = container(values[attr])
        cls = self.cls
        try:
            if self.direct:
                return cls(**values)
            if self.init:
                obj = cls(**{init: values[attr] for attr, init in self.init})
            else:
                obj = object.__new__(cls)
            for attr in self.late:
                object.__setattr__(obj, attr, values[attr])
        except DecodeError:
            raise
        except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise DecodeError(f"{_p(path)}: {cls.__qualname__}: {exc}") from None
        return obj


_CONSTANT, _FACTORY, _EMPTY_MESSAGE = range(3)


def _empty(reader: _Reader, vt: ValueType, path: Any, depth: int) -> Any:
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
    # a null item is a Value's null, NullValue's value, or whatever a special form makes
    # of it (the well-known forms refuse it)
    takes_null = _null_is_a_value(vt) or _jsonforms.form_for(_form_key(vt)) is not None
    if f.label is Label.REPEATED:

        def read_list(v: Any, path: Any, depth: int) -> list[Any]:
            if v.__class__ is not list and not isinstance(v, (list, tuple)):
                raise DecodeError(
                    f"{_p(path)}: a repeated field needs a JSON array, got {_show(v)}"
                )
            out = []
            for i, x in enumerate(v):
                if x is None and not takes_null:
                    raise DecodeError(f"{_p((path, i))}: null is not allowed in a repeated field")
                got = read_value(x, (path, i), depth)
                if got is not _SKIP:
                    out.append(got)
            return out

        return read_list
    if f.label is Label.MAP:
        assert f.key is not None
        read_key = _key_reader(f.key)

        def read_map(v: Any, path: Any, depth: int) -> dict[Any, Any]:
            if v.__class__ is not dict and not _is_object(v):
                if isinstance(v, _Duplicate):
                    raise DecodeError(f"{_p(path)}: the key {v.key!r} is given twice")
                raise DecodeError(f"{_p(path)}: a map field needs a JSON object, got {_show(v)}")
            out = {}
            for k, x in v.items():
                item_path = (path, k, None)
                if x is None and not takes_null:
                    raise DecodeError(f"{_p(item_path)}: a map value cannot be null")
                # the key first, as json_format reads it: an entry whose value is dropped
                # (an unknown enum name under ignore_unknown_fields) still needs a key
                key = read_key(k, item_path)
                # the entry is a message of its own on the wire, so a level of nesting
                got = read_value(x, item_path, depth + 1)
                if got is not _SKIP:
                    out[key] = got
            return out

        return read_map
    return read_value


def _key_reader(vt: ValueType) -> Callable[[str, Any], Any]:
    if vt.domain is not None and vt.decode_with is not None:  # UUID keys...
        from_wire, plain = vt.decode_with, _key_reader(_wire_type(vt))
        what = vt.domain.__qualname__

        def read_domain(k: str, path: Any) -> Any:
            wire = plain(k, path)
            try:
                return from_wire(wire)
            except (TypeError, ValueError, ArithmeticError) as exc:
                raise DecodeError(f"{_p(path)}: the key is not a valid {what} ({exc})") from None

        return read_domain
    kind = vt.kind
    if kind is Kind.STRING:

        def read_string_key(k: str, path: Any) -> str:
            if not k.isascii() and _LONE_SURROGATE.search(k):
                raise DecodeError(f"{_p(path)}: the key has an unpaired surrogate")
            return k

        return read_string_key
    if kind is Kind.BOOL:

        def read_bool(k: str, path: Any) -> bool:
            if k == "true":
                return True
            if k == "false":
                return False
            raise DecodeError(f'{_p(path)}: a bool map key is "true" or "false", not {k!r}')

        return read_bool
    lo, hi = INT_RANGES[kind]

    def read_int(k: str, path: Any) -> int:
        if _INT_TEXT.fullmatch(k):
            n = int(k)
        elif _NUMBER_TEXT.fullmatch(k) and float(k).is_integer():
            n = int(float(k))  # "1e3", "2147483647e0": integers as values read them
        else:
            raise DecodeError(f"{_p(path)}: the map key {k!r} is not an integer")
        if not lo <= n <= hi:
            raise DecodeError(f"{_p(path)}: the map key {k} is out of range for {kind.value}")
        return n

    return read_int


def _value_reader(plans: _Plans, vt: ValueType, ignore_unknown: bool) -> Callable[..., Any]:
    """``(json value, path, depth) -> value`` for one value of type ``vt``."""
    form = _jsonforms.form_for(_form_key(vt))
    if form is not None:
        from_form = form[1]
        nested = _jsonforms.nested_form_for(_form_key(vt))
        ctx = _Context(plans, None, ignore_unknown)
        if nested is not None:

            def read_nested(v: Any, path: Any, depth: int) -> Any:
                where = _p(path)
                return nested(_plain(v, where), where, ctx, depth + 1)

            return read_nested
        max_depth = plans.model.max_depth

        def read_form(v: Any, path: Any, depth: int) -> Any:
            where = _p(path)
            if depth + 1 >= max_depth:  # a Timestamp, a wrapper... is a message too
                raise DecodeError(f"{where}: nesting deeper than {max_depth} levels")
            return from_form(_plain(v, where), where, ctx)

        return read_form
    if vt.domain is not None and vt.decode_with is not None:
        from_wire = vt.decode_with
        plain = _value_reader(plans, _wire_type(vt), ignore_unknown)
        what = vt.domain.__qualname__

        wire_zero = _wire_zero(vt.kind)
        domain_zero = vt.zero

        def read_domain(v: Any, path: Any, depth: int) -> Any:
            wire = plain(v, path, depth)
            if wire == wire_zero and domain_zero is not None:
                return domain_zero  # what json_format prints for an unset Decimal, UUID...
            try:
                return from_wire(wire)
            except DecodeError:
                raise
            except (TypeError, ValueError, ArithmeticError) as exc:
                raise DecodeError(f"{_p(path)}: not a valid {what} ({exc})") from None

        return read_domain
    kind = vt.kind
    if kind is Kind.MESSAGE:
        assert vt.py_type is not None
        cls = vt.py_type
        holder: list[_Reader] = []

        def read_message(v: Any, path: Any, depth: int) -> Any:
            if not holder:
                holder.append(_reader(plans, cls, ignore_unknown))
            return holder[0].read(v, path, depth + 1)

        return read_message
    if kind is Kind.STRING:

        def read_string(v: Any, path: Any, depth: int) -> str:
            if v.__class__ is not str:
                raise DecodeError(f"{_p(path)}: expected a string, got {_show(v)}")
            if not v.isascii() and _LONE_SURROGATE.search(v):
                raise DecodeError(f"{_p(path)}: the string has an unpaired surrogate")
            return v

        return read_string
    if kind is Kind.BOOL:

        def read_bool(v: Any, path: Any, depth: int) -> bool:
            if v is True or v is False:
                return v
            raise DecodeError(f"{_p(path)}: expected true or false, got {_show(v)}")

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
    if kind in BCL_KINDS:
        return bcl_reader(vt, _p)
    raise ContractError(f"no JSON form for {vt.describe()}")


def _p(path: Any) -> str:
    """The text of a path: built lazily, as nested ``(parent, key)`` tuples, since only
    errors need it (``(parent, index)`` for list items, ``(parent, key, None)`` for maps)."""
    parts: list[Any] = []
    while path.__class__ is tuple:
        parts.append(path)
        path = path[0]
    text = str(path)
    for part in reversed(parts):
        key = part[1]
        if len(part) == 3:
            text = f"{text}[{json.dumps(key, ensure_ascii=False)}]"
        elif key.__class__ is int:
            text = f"{text}[{key}]"
        else:
            text = _key_path(text, key)
    return text


def _plain(v: Any, path: str) -> Any:
    """``v`` with every object a plain ``dict``: a duplicated key is an error here."""
    if isinstance(v, dict):
        if isinstance(v, _Duplicate):
            raise DecodeError(f"{_p(path)}: the key {v.key!r} is given twice")
        if any(isinstance(x, (dict, list)) for x in v.values()):
            return {k: _plain(x, _key_path(path, k)) for k, x in v.items()}
        return v
    if isinstance(v, list) and any(isinstance(x, (dict, list)) for x in v):
        return [_plain(x, f"{path}[{i}]") for i, x in enumerate(v)]
    return v


def _read_bytes(v: Any, path: Any, depth: int) -> bytes:
    if v.__class__ is not str:
        raise DecodeError(f"{_p(path)}: expected a base64 string, got {_show(v)}")
    if not _BASE64.fullmatch(v) or len(v.rstrip("=")) % 4 == 1:
        raise DecodeError(f"{_p(path)}: {_show(v)} is not base64")
    data = v.rstrip("=")
    if "=" in v and len(v) % 4:
        raise DecodeError(f"{_p(path)}: {_show(v)} has wrong base64 padding")
    try:
        return base64.urlsafe_b64decode(
            data.replace("+", "-").replace("/", "_") + "=" * (-len(data) % 4)
        )
    except (binascii.Error, ValueError):
        raise DecodeError(f"{_p(path)}: {_show(v)} is not base64") from None


def _float_reader(single: bool) -> Callable[..., float]:
    pack, unpack = _PACK_F.pack, _PACK_F.unpack

    def read(v: Any, path: Any, depth: int) -> float:
        cls = v.__class__
        if cls is float:
            x = v
            if x - x != 0.0:
                raise DecodeError(
                    f'{_p(path)}: {_show(v)} is not a JSON number (write "NaN", "Infinity" '
                    'or "-Infinity" as strings)'
                )
        elif cls is int:
            try:
                x = float(v)
            except OverflowError:
                raise DecodeError(f"{_p(path)}: {v} is out of range for a double") from None
        elif cls is str:
            special = _FLOAT_NAMES.get(v)
            if special is not None:
                return special
            if not _NUMBER_TEXT.fullmatch(v):
                raise DecodeError(f"{_p(path)}: {_show(v)} is not a number")
            x = float(v)
            if x - x != 0.0:
                raise DecodeError(f"{_p(path)}: {_show(v)} is out of range for a double")
        else:
            raise DecodeError(f"{_p(path)}: expected a number, got {_show(v)}")
        if single:
            if not -_FLOAT32_MAX <= x <= _FLOAT32_MAX:
                if x == _FLOAT32_MAX_PRINTED or x == -_FLOAT32_MAX_PRINTED:
                    return _FLOAT32_MAX if x > 0 else -_FLOAT32_MAX
                raise DecodeError(f"{_p(path)}: {_show(v)} is out of range for a float")
            return unpack(pack(x))[0]  # type: ignore[no-any-return]
        return x  # type: ignore[no-any-return]

    return read


def _int_reader(kind: Kind) -> Callable[..., int]:
    lo, hi = INT_RANGES[kind]
    name = kind.value

    def read(v: Any, path: Any, depth: int) -> int:
        if v.__class__ is int:
            if lo <= v <= hi:
                return v
            raise DecodeError(f"{_p(path)}: {v} is out of range for {name}")
        return _int_slow(v, path, lo, hi, name)

    return read


def _int_slow(v: Any, path: Any, lo: int, hi: int, name: str) -> int:
    if v.__class__ is str:
        if _INT_TEXT.fullmatch(v):
            n = int(v)
        elif _NUMBER_TEXT.fullmatch(v):
            x = float(v)
            if not x.is_integer():
                raise DecodeError(f"{_p(path)}: {_show(v)} is not an integer")
            n = int(x)
        else:
            raise DecodeError(f"{_p(path)}: {_show(v)} is not an integer")
    elif v.__class__ is float:
        if not v.is_integer():
            raise DecodeError(f"{_p(path)}: {_show(v)} is not an integer")
        n = int(v)
    else:
        raise DecodeError(f"{_p(path)}: expected an integer ({name}), got {_show(v)}")
    if not lo <= n <= hi:
        raise DecodeError(f"{_p(path)}: {_show(v)} is out of range for {name}")
    return n


def _enum_reader(names: _EnumNames, vt: ValueType, ignore_unknown: bool) -> Callable[..., Any]:
    by_name = names.by_name
    by_number = names.by_number
    closed = vt.closed
    lo, hi = INT_RANGES[Kind.ENUM]
    enum_name = names.cls.__qualname__
    make = vt.decode_with

    null = NullValue.NULL_VALUE if names.cls is NullValue else _SKIP

    def read(v: Any, path: Any, depth: int) -> Any:
        if v is None and null is not _SKIP:
            return null  # NullValue's one value
        if v.__class__ is str:
            member = by_name.get(v)
            if member is not None:
                return member
            if not _INT_TEXT.fullmatch(v):
                if not v.isidentifier():  # " 1", "1_0": json_format's int() reads them
                    raise DecodeError(
                        f"{_p(path)}: {_show(v)} is neither a name nor a number of {enum_name}"
                    )
                if ignore_unknown:
                    return _SKIP  # a name this enum does not know (yet)
                raise DecodeError(f"{_p(path)}: {v!r} is not a value of {enum_name}")
            v = int(v)
        elif v.__class__ is not int:
            raise DecodeError(f"{_p(path)}: expected a {enum_name} name or number, got {_show(v)}")
        member = by_number.get(v)
        if member is not None:
            return member
        if not lo <= v <= hi:
            raise DecodeError(f"{_p(path)}: {v} is out of range for an enum")
        if closed:
            raise DecodeError(f"{_p(path)}: {v} is not a value of the closed enum {enum_name}")
        if make is not None:
            return make(v)
        return v

    return read
