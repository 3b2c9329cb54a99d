"""Writing canonical JSON: one writer per contract and option set (see :mod:`protoattr._json.api`).

A writer is a flat loop over the steps of one message level, each
``(attribute, key, presence mode, default, converter, printed default)``; the
converters are closures specialised per kind, built once.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable
from typing import Any

from .._core.contract import MISSING, FieldInfo, Label, ValueType, declared_options, zero_value
from .._core.errors import ContractError, EncodeError
from .._core.types import BCL_KINDS, INT_RANGES, Kind
from .._core.wkt import NullValue
from . import extensions as _jsonext
from . import forms as _jsonforms
from .bcl import bcl_writer
from .plan import (
    _INT64_KINDS,
    _PACK_D,
    _PACK_F,
    _Context,
    _EnumNames,
    _form_key,
    _Options,
    _Plans,
    _wire_type,
    _wire_zero,
    json_name,
    shortest_float32,
)

# ------------------------------------------------------------------- writing


# modes: how a field's absence is told on the way out
_ALWAYS, _UNLESS_NONE, _UNLESS_EMPTY, _UNLESS_DEFAULT, _UNLESS_SAME_BITS, _REQUIRED = range(6)


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
            write = opts.writers[cls]
            if write is late:  # another thread is still building it: wait for that
                with plans.lock:
                    write = opts.writers[cls]
            return write(obj)

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
        steps = [step for _, step in items]
        if declared_options(level).extensions:  # extensions' "[full.name]" keys go in too
            return _jsonext.extendable_writer(
                model,
                level,
                _level_writer(steps, False),
                {step[1]: tag for tag, step in items},
                [(s[1], s[5]) for s in steps if s[5] is not _NO_DEFAULT] if opts.always else [],
                lambda holder: _writer(plans, opts, holder),
            )
        return _level_writer(steps, opts.always)

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
            if mode:
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
                elif v is None:  # _REQUIRED
                    raise EncodeError(f"{default}: required field is None")
            if conv is None:  # a str field: written as it is
                if v.__class__ is not str:
                    v = _not_str(v, attr, obj)
                out[key] = v
            else:
                out[key] = conv(v)
        if defaults:
            for key, printed in defaults:
                if key not in out:
                    out[key] = printed
        return out

    return write


def _not_str(v: Any, attr: str, obj: Any) -> str:
    if isinstance(v, str):
        return str(v)
    where = f"{obj.__class__.__qualname__}.{attr}"
    raise EncodeError(f"{where}: expected str, got {type(v).__name__}")


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
        return (f.name, key, _REQUIRED, where, _inline(vt, value_conv), printed)
    if f.label is Label.OPTIONAL or vt.kind in (
        Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION, Kind.BCL_DATETIME
    ):  # fmt: skip
        return (f.name, key, _UNLESS_NONE, None, _inline(vt, value_conv), printed)
    default = f.default_factory() if f.default_factory is not None else f.default
    if default is MISSING:
        default = zero_value(vt)
    if vt.kind in BCL_KINDS:  # a message in the schema: absent at its default, never printed
        return (f.name, key, _UNLESS_DEFAULT, default, _inline(vt, value_conv), printed)
    implicit = _is_zero(vt, default) and not vt.closed
    if implicit:
        if vt.domain is not None and vt.encode_with is not None:
            # the wire zero, which Google's runtime holds for the absent field
            printed = _value_writer(plans, opts, _wire_type(vt), where)(_wire_zero(vt.kind))
        else:
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
        default = _EnumDefault(getattr(default, "value", default))
    if vt.kind is Kind.BOOL:
        return (f.name, key, _UNLESS_DEFAULT, bool(default), value_conv, printed)
    return (f.name, key, _UNLESS_DEFAULT, default, _inline(vt, value_conv), printed)


class _EnumDefault:
    """Equal to an enum value whose number is the default's: a member (of a plain ``Enum``
    too, which is not ``==`` its number) or the int itself, as the binary codec compares."""

    __slots__ = ("number",)

    def __init__(self, number: Any) -> None:
        self.number = number

    def __eq__(self, other: object) -> bool:
        return bool(getattr(other, "value", other) == self.number)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EnumDefault({self.number!r})"


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


def _inline(vt: ValueType, conv: Callable[[Any], Any]) -> Callable[[Any], Any] | None:
    """``None`` (the level writer checks the type itself) for plain ``str`` fields."""
    if vt.kind is Kind.STRING and vt.domain is None and vt.py_type is None:
        return None
    return conv


def _list_writer(conv: Callable[[Any], Any], where: str) -> Callable[[Any], Any]:
    def write(v: Any) -> list[Any]:
        try:
            return [conv(x) for x in v]
        except TypeError as exc:
            if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
                raise EncodeError(f"{where}: expected a sequence, got {type(v).__name__}") from None
            raise exc
        except EncodeError as exc:  # which item: found again, only now that one failed
            for i, x in enumerate(v):
                try:
                    conv(x)
                except EncodeError:
                    raise _at(exc, where, f"{where}[{i}]") from None
            raise

    return write


def _at(exc: EncodeError, where: str, path: str) -> EncodeError:
    """``exc`` (``Outer.items.n: ...``) with ``where`` (``Outer.items``) replaced by the
    fuller ``path`` (``Outer.items[2]``), as binary encode errors name it."""
    text = str(exc)
    if text.startswith((where + ".", where + ":")):
        return EncodeError(path + text[len(where) :])
    return exc


def _map_writer(
    key_conv: Callable[[Any], str], conv: Callable[[Any], Any], where: str
) -> Callable[[Any], Any]:
    def write(v: Any) -> dict[str, Any]:
        try:
            items = v.items()
        except AttributeError:
            raise EncodeError(f"{where}: expected a mapping, got {type(v).__name__}") from None
        try:
            return {key_conv(k): conv(x) for k, x in items}
        except EncodeError as exc:  # which value: found again, only now that one failed
            for k, x in v.items():
                try:
                    conv(x)
                except EncodeError:
                    raise _at(exc, where, f"{where}[{k!r}]") from None
            raise

    return write


def _key_writer(vt: ValueType, where: str) -> Callable[[Any], str]:
    if vt.domain is not None and vt.encode_with is not None:  # UUID keys...: their wire form
        to_wire, plain = vt.encode_with, _key_writer(_wire_type(vt), where)

        def write_domain(k: Any) -> str:
            try:
                wire = to_wire(k)
            except (TypeError, ValueError, AttributeError) as exc:
                raise EncodeError(f"{where}[key]: {exc}") from None
            return plain(wire)

        return write_domain
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
        return v

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
            try:
                return w(v)
            except EncodeError as exc:  # "V.n: ..." one level down -> "Outer.one.n: ..."
                raise _at(exc, v.__class__.__qualname__, where) from None

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
            return v

        return write_int
    if kind in BCL_KINDS:
        return bcl_writer(vt, where, opts.enum_ints, opts.always)
    raise ContractError(f"{where}: no JSON form for {vt.describe()}")


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
        return shortest_float32(x)

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
            return v
        raise EncodeError(f"{where}: expected {enum_cls.__qualname__}, got {v!r}")

    if as_int:
        return number
    if enum_cls is NullValue:

        def write_null(v: Any) -> None:
            number(v)
            return None  # every NullValue prints as null, as json_format prints it

        return write_null

    def write(v: Any) -> Any:
        n = number(v)
        name = name_of.get(n)
        return n if name is None else name

    return write
