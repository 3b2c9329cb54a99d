"""Reflection: turn a decorated class into a :class:`ContractInfo`.

This is where declarations are read and validated (tags, annotations,
options), so that every mistake surfaces as a :class:`ContractError` naming the
class and the field, at decoration time where possible.  Nothing here
generates code; :mod:`protoattr._codegen` reads the infos built here.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime
import decimal
import enum
import sys
import threading
import types
import typing
import uuid
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, Union

import attrs

from . import _convert
from ._errors import ContractError
from ._fields import METADATA_KEY, ProtoMember
from ._types import INT_RANGES, MAP_KEY_KINDS, PACKABLE, Kind
from ._wire import MAX_FIELD_NUMBER

__all__ = ["ContractInfo", "FieldInfo", "Label", "ValueType", "proto_contract"]

T = TypeVar("T", bound=type)
E = TypeVar("E", bound=type)


class _Missing:
    """Marks "no default declared" (``dataclasses.MISSING`` cannot be a dataclass default)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Label(enum.Enum):
    """How many values a field holds and how absence is told apart."""

    SINGULAR = "singular"  # written unless equal to its default
    OPTIONAL = "optional"  # explicit presence: None is absent
    REPEATED = "repeated"
    MAP = "map"


@dataclasses.dataclass(frozen=True)
class ValueType:
    """The type of one value on the wire (a field's element type for repeated/map)."""

    kind: Kind
    py_type: type | None = None  # the enum class or the contract class
    closed: bool = False  # closed enum: unknown numbers go to the unknown fields
    #: for types that travel as another kind (Decimal, UUID, date, surrogates):
    domain: type | None = None  # the Python type users hold
    encode_with: Callable[[Any], Any] | None = None  # domain value -> wire-kind value
    decode_with: Callable[[Any], Any] | None = None  # wire-kind value -> domain value
    zero: Any = None  # the domain zero (the default of a singular field without one)

    @property
    def is_message(self) -> bool:
        return self.kind is Kind.MESSAGE

    def describe(self) -> str:
        if self.domain is not None:
            return self.domain.__qualname__
        if self.py_type is not None:
            return self.py_type.__qualname__
        return self.kind.value


@dataclasses.dataclass
class FieldInfo:
    """One protobuf field of a contract, fully resolved."""

    name: str  # the attribute
    tag: int
    label: Label
    value: ValueType
    key: ValueType | None = None  # map keys
    container: type = list  # for repeated fields: list or tuple
    packed: bool = False
    required: bool = False
    group: bool = False
    oneof: str | None = None
    proto_name: str = ""
    init_name: str | None = None  # the __init__ keyword, None when not an init argument
    default: Any = MISSING  # the value a missing field decodes to
    default_factory: Callable[[], Any] | None = None
    owner: str = ""  # "Class.attr", for messages

    @property
    def where(self) -> str:
        return f"{self.owner}.{self.name}"


@dataclasses.dataclass
class ContractOptions:
    """What ``@proto_contract(...)`` was given."""

    implicit_fields: bool = False
    reserved: tuple[int | str | range, ...] = ()
    subtype_tag: int | None = None
    name: str | None = None
    preserve_unknown: bool = True


@dataclasses.dataclass
class ContractInfo:
    """A contract class, resolved: its own fields in tag order and how to build it."""

    cls: type
    options: ContractOptions
    fields: list[FieldInfo]
    construct: str  # "init" (call the class) or "setattr" (plain classes)
    frozen: bool
    #: ``(attribute, init keyword, keyword-only)`` of every ``__init__`` parameter, in order
    init_params: list[tuple[str, str, bool]] = dataclasses.field(default_factory=list)

    @property
    def name(self) -> str:
        return self.options.name or self.cls.__name__


# The classes decorated with @proto_contract and their options.
_DECLARED: weakref.WeakKeyDictionary[type, ContractOptions] = weakref.WeakKeyDictionary()
_RESOLVED: weakref.WeakKeyDictionary[type, ContractInfo] = weakref.WeakKeyDictionary()
_LOCALS: weakref.WeakKeyDictionary[type, dict[str, Any]] = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()


# Subtypes declared with @proto_contract(subtype_tag=N): base -> {tag: subclass}.
_DECLARED_SUBTYPES: weakref.WeakKeyDictionary[type, dict[int, type]] = weakref.WeakKeyDictionary()
_CLOSED_ENUMS: weakref.WeakSet[type] = weakref.WeakSet()


def closed_enum(enum_cls: E) -> E:
    """Mark an enum *closed* (proto2 semantics): an unknown number on the wire is
    kept with the unknown fields instead of being stored in the attribute.

    Enums are open by default (proto3 semantics): an unknown number decodes to
    the plain ``int`` and re-encodes unchanged.  The class itself is not changed.
    """
    if not (isinstance(enum_cls, type) and issubclass(enum_cls, enum.Enum)):
        raise ContractError(f"closed_enum decorates Enum classes, not {enum_cls!r}")
    _CLOSED_ENUMS.add(enum_cls)
    return enum_cls


def declared_subtypes(cls: type) -> dict[int, type]:
    """The subtypes declared on ``cls`` with ``subtype_tag``, by tag."""
    return dict(_DECLARED_SUBTYPES.get(cls, {}))


def contract_base(cls: type) -> type | None:
    """The nearest base class of ``cls`` that is a contract."""
    for base in cls.__mro__[1:]:
        if base in _DECLARED:
            return base
    return None


def is_contract(cls: Any) -> bool:
    """True for classes decorated with :func:`proto_contract`."""
    return isinstance(cls, type) and cls in _DECLARED


def declared_options(cls: type) -> ContractOptions:
    return _DECLARED[cls]


def proto_contract(
    cls: T | None = None,
    *,
    implicit_fields: bool = False,
    reserved: Iterable[int | str | range] = (),
    subtype_tag: int | None = None,
    name: str | None = None,
    preserve_unknown: bool = True,
) -> Any:
    """Declare ``cls`` a protobuf contract; usable bare or with options.

    The class is validated now (tags, annotations, options) and registered
    with the default model; its own behaviour (``__init__``, ``__eq__``,
    slots, frozen-ness) is left exactly as it was.
    """
    options = ContractOptions(
        implicit_fields=implicit_fields,
        reserved=tuple(reserved),
        subtype_tag=subtype_tag,
        name=name,
        preserve_unknown=preserve_unknown,
    )

    def decorate(c: T, _frames: int = 1) -> T:
        if not isinstance(c, type):
            raise ContractError(f"@proto_contract decorates classes, not {c!r}")
        # Classes declared inside a function may refer to its other local classes in
        # string annotations: remember the names visible where the class was declared.
        frame = sys._getframe(_frames)
        if frame.f_code.co_name != "<module>":
            _LOCALS[c] = dict(frame.f_locals)
        with _LOCK:
            _DECLARED[c] = options
            _RESOLVED.pop(c, None)
        try:
            resolve(c)
        except _Unresolved:
            pass  # a forward reference: resolved when the codec is first compiled
        except ContractError:
            with _LOCK:
                del _DECLARED[c]
            raise
        if options.subtype_tag is not None:
            base = contract_base(c)
            if base is None:
                with _LOCK:
                    del _DECLARED[c]
                raise ContractError(
                    f"{c.__qualname__}: subtype_tag={options.subtype_tag} needs a base class "
                    "that is a contract"
                )
            with _LOCK:
                siblings = _DECLARED_SUBTYPES.setdefault(base, {})
                other = siblings.get(options.subtype_tag)
                if other is not None and other.__qualname__ != c.__qualname__:
                    del _DECLARED[c]
                    raise ContractError(
                        f"{c.__qualname__}: subtype_tag {options.subtype_tag} is already used "
                        f"by {other.__qualname__} in {base.__qualname__}"
                    )
                siblings[options.subtype_tag] = c
                # under the same lock as code generation (every model's lock is this one),
                # so no codec is generated from half a hierarchy
                from ._model import _MODELS

                for model in list(_MODELS):
                    model._hierarchy_changed(base)
        from ._model import default_model

        default_model.add(c, _compile=False)
        return c

    if cls is not None:
        return decorate(cls, 2)
    return decorate


class _Unresolved(Exception):
    """A forward reference that cannot be resolved yet."""


def resolve(cls: type, *, final: bool = False) -> ContractInfo:
    """The :class:`ContractInfo` of a declared contract, built once and cached.

    With ``final=False`` an unresolvable forward reference raises
    ``_Unresolved`` (the caller tries again later); with ``final=True`` it is a
    :class:`ContractError`.
    """
    info = _RESOLVED.get(cls)
    if info is not None:
        return info
    with _LOCK:
        info = _RESOLVED.get(cls)
        if info is None:
            if cls not in _DECLARED:
                raise ContractError(
                    f"{cls.__qualname__} is not a contract: decorate it with @proto_contract"
                )
            info = _build_info(cls, _DECLARED[cls], final=final)
            _RESOLVED[cls] = info
        return info


def _type_hints(cls: type, final: bool) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    globalns = dict(vars(module)) if module is not None else {}
    localns = {**_LOCALS.get(cls, {}), cls.__name__: cls}
    try:
        return typing.get_type_hints(cls, globalns=globalns, localns=localns, include_extras=True)
    except NameError as exc:
        if final:
            raise ContractError(
                f"{cls.__qualname__}: cannot resolve annotation ({exc}); define the "
                "referenced class at module level before first use"
            ) from None
        raise _Unresolved(str(exc)) from None


@dataclasses.dataclass
class _Declared:
    """One attribute as the class declares it, before protobuf reading."""

    name: str
    annotation: Any
    member: ProtoMember | None
    default: Any
    default_factory: Callable[[], Any] | None
    init_name: str | None
    kw_only: bool = False


def _declared_attributes(cls: type, hints: dict[str, Any]) -> tuple[list[_Declared], str, bool]:
    """The class's attributes, in declaration order, whatever kind of class it is."""
    found: list[_Declared] = []
    if dataclasses.is_dataclass(cls):
        params = getattr(cls, "__dataclass_params__", None)
        frozen = bool(getattr(params, "frozen", False))
        for f in dataclasses.fields(cls):
            factory = None if f.default_factory is dataclasses.MISSING else f.default_factory
            found.append(
                _Declared(
                    f.name,
                    hints.get(f.name, f.type),
                    f.metadata.get(METADATA_KEY),
                    MISSING if f.default is dataclasses.MISSING else f.default,
                    factory,
                    f.name if f.init else None,
                    bool(getattr(f, "kw_only", False)),
                )
            )
        return found, "init", frozen
    if attrs.has(cls):
        # attrs installs its own __setattr__ on frozen classes
        frozen = getattr(getattr(cls, "__setattr__", None), "__name__", "") == "_frozen_setattrs"
        for a in attrs.fields(cls):
            default, factory = a.default, None
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                if default.takes_self:
                    raise ContractError(
                        f"{cls.__qualname__}.{a.name}: Factory(takes_self=True) is not supported"
                    )
                factory, default = default.factory, MISSING
            elif default is attrs.NOTHING:
                default = MISSING
            found.append(
                _Declared(
                    a.name,
                    hints.get(a.name, a.type),
                    None,
                    default,
                    factory,
                    (a.alias or a.name) if a.init else None,
                    bool(a.kw_only),
                )
            )
        return found, "init", frozen
    for attr_name, annotation in hints.items():
        if typing.get_origin(annotation) is typing.ClassVar:
            continue
        found.append(
            _Declared(attr_name, annotation, None, getattr(cls, attr_name, MISSING), None, None)
        )
    return found, "setattr", False


def _split_annotated(annotation: Any) -> tuple[Any, list[Any]]:
    """Strip (possibly nested) ``Annotated`` and return ``(type, metadata)``."""
    metadata: list[Any] = []
    while typing.get_origin(annotation) is typing.Annotated:
        metadata.extend(annotation.__metadata__)
        annotation = annotation.__origin__
    return annotation, metadata


def _build_info(cls: type, options: ContractOptions, *, final: bool) -> ContractInfo:
    qual = cls.__qualname__
    hints = _type_hints(cls, final)
    declared, construct, frozen = _declared_attributes(cls, hints)
    inherited = _inherited_names(cls) if options.subtype_tag is not None else set()
    fields: list[FieldInfo] = []
    pending: list[tuple[_Declared, ProtoMember]] = []
    for d in declared:
        if d.name in inherited:
            continue  # a base contract's field: travels in the base's message
        _, metadata = _split_annotated(d.annotation)
        members = [m for m in metadata if isinstance(m, ProtoMember)]
        if d.member is not None:
            members.append(d.member)
        if len(members) > 1:
            raise ContractError(f"{qual}.{d.name}: more than one field()/member() marker")
        mem = members[0] if members else None
        if mem is None:
            if options.implicit_fields:
                mem = ProtoMember(None)
            else:
                if construct == "init" and d.init_name is not None and _no_default(d):
                    raise ContractError(
                        f"{qual}.{d.name} has no tag and no default, so decoding could not "
                        f"construct {qual}: give it field(tag) or a default"
                    )
                continue
        pending.append((d, mem))

    used = {m.tag for _, m in pending if m.tag is not None}
    next_tag = 1
    for d, mem in pending:
        tag = mem.tag
        if tag is None:
            while next_tag in used or 19000 <= next_tag <= 19999:
                next_tag += 1
            tag = next_tag
            used.add(tag)
        fields.append(_field_info(cls, d, mem, tag, options))

    _check_tags(qual, fields, options)
    fields.sort(key=lambda f: f.tag)
    init_params = [(d.name, d.init_name, d.kw_only) for d in declared if d.init_name is not None]
    return ContractInfo(cls, options, fields, construct, frozen, init_params)


def _inherited_names(cls: type) -> set[str]:
    """Attribute names that belong to a base contract's own message."""
    names: set[str] = set()
    for base in cls.__mro__[1:]:
        if base in _DECLARED:
            hints = getattr(base, "__annotations__", {})
            names.update(hints)
            if dataclasses.is_dataclass(base):
                names.update(f.name for f in dataclasses.fields(base))
            elif attrs.has(base):
                names.update(a.name for a in attrs.fields(base))
    return names


def _no_default(d: _Declared) -> bool:
    return d.default is MISSING and d.default_factory is None


def _check_tags(qual: str, fields: list[FieldInfo], options: ContractOptions) -> None:
    seen: dict[int, str] = {}
    reserved_numbers = [r for r in options.reserved if not isinstance(r, str)]
    reserved_names = {r for r in options.reserved if isinstance(r, str)}
    for f in fields:
        if not 1 <= f.tag <= MAX_FIELD_NUMBER:
            raise ContractError(f"{qual}.{f.name}: tag {f.tag} is outside 1..{MAX_FIELD_NUMBER}")
        if 19000 <= f.tag <= 19999:
            raise ContractError(
                f"{qual}.{f.name}: tag {f.tag} is in 19000..19999, reserved by protobuf"
            )
        if f.tag in seen:
            raise ContractError(f"{qual}.{f.name}: tag {f.tag} is already used by {seen[f.tag]}")
        seen[f.tag] = f.name
        for r in reserved_numbers:
            if (f.tag in r) if isinstance(r, range) else f.tag == r:
                raise ContractError(f"{qual}.{f.name}: tag {f.tag} is reserved")
        if f.proto_name in reserved_names or f.name in reserved_names:
            raise ContractError(f"{qual}.{f.name}: the name {f.proto_name!r} is reserved")
    if options.subtype_tag is not None and not 1 <= options.subtype_tag <= MAX_FIELD_NUMBER:
        raise ContractError(f"{qual}: subtype_tag {options.subtype_tag} is out of range")


_UNION_TYPES: tuple[Any, ...] = (Union, types.UnionType)
_SEQUENCE_ORIGINS = (
    list,
    collections.abc.Sequence,
    collections.abc.MutableSequence,
    collections.abc.Iterable,
    collections.abc.Collection,
)
_MAP_ORIGINS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)


def _field_info(
    cls: type, d: _Declared, mem: ProtoMember, tag: int, options: ContractOptions
) -> FieldInfo:
    where = f"{cls.__qualname__}.{d.name}"
    annotation = d.annotation
    stripped, metadata = _split_annotated(annotation)
    markers = tuple(m for m in metadata if not isinstance(m, ProtoMember))
    params = (stripped, *markers)
    annotation = typing.Annotated[params] if markers else stripped
    label = Label.SINGULAR
    optional = False
    if typing.get_origin(annotation) in _UNION_TYPES:
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) != 1 or len(typing.get_args(annotation)) != 2:
            raise ContractError(f"{where}: unions other than Optional[T] are not supported")
        optional = True
        annotation = members[0]
        label = Label.OPTIONAL
    bare, _ = _split_annotated(annotation)
    origin = typing.get_origin(bare)
    key: ValueType | None = None
    container: type = list
    args: tuple[Any, ...]
    if origin in _SEQUENCE_ORIGINS or origin in (tuple, set, frozenset, collections.abc.Set):
        args = typing.get_args(bare)
        if origin is tuple:
            if len(args) != 2 or args[1] is not Ellipsis:
                raise ContractError(f"{where}: only tuple[T, ...] is supported, not {bare!r}")
            container = tuple
        elif origin in (set, frozenset, collections.abc.Set):
            container = frozenset if origin is frozenset else set
            if len(args) != 1:
                raise ContractError(f"{where}: {bare!r} needs an element type")
        elif len(args) != 1:
            raise ContractError(f"{where}: {bare!r} needs an element type")
        value = _value_type(where, args[0])
        label = Label.REPEATED
    elif origin in _MAP_ORIGINS:
        args = typing.get_args(bare)
        if len(args) != 2:
            raise ContractError(f"{where}: {bare!r} needs key and value types")
        key = _value_type(where, args[0])
        if key.kind not in MAP_KEY_KINDS:
            raise ContractError(
                f"{where}: map keys must be integers, bool or str, not {key.describe()}"
            )
        value = _value_type(where, args[1])
        label = Label.MAP
    elif bare in (list, tuple, dict, set, frozenset):
        raise ContractError(f"{where}: {bare.__name__} needs its element types, e.g. list[int]")
    else:
        value = _value_type(where, annotation)

    if mem.oneof is not None:
        if label in (Label.REPEATED, Label.MAP):
            raise ContractError(f"{where}: a repeated or map field cannot be in a oneof")
        label = Label.OPTIONAL
    if mem.required and (optional or label in (Label.REPEATED, Label.MAP)):
        raise ContractError(f"{where}: required=True needs a singular, non-Optional field")
    if mem.packed and (label is not Label.REPEATED or value.kind not in PACKABLE):
        raise ContractError(
            f"{where}: packed=True needs a repeated numeric or enum field, not {value.describe()}"
        )
    if mem.group and value.kind is not Kind.MESSAGE:
        raise ContractError(f"{where}: group=True needs a contract class, not {value.describe()}")
    if mem.group and label is Label.MAP:
        raise ContractError(f"{where}: map values cannot be groups")
    packed = label is Label.REPEATED and value.kind in PACKABLE and mem.packed is not False

    info = FieldInfo(
        name=d.name,
        tag=tag,
        label=label,
        value=value,
        key=key,
        container=container,
        packed=packed,
        required=mem.required,
        group=mem.group,
        oneof=mem.oneof,
        proto_name=mem.name or d.name,
        init_name=d.init_name,
        owner=cls.__qualname__,
    )
    _set_default(info, d)
    check_default_fits(info)
    return info


def _value_type(where: str, annotation: Any) -> ValueType:
    bare, metadata = _split_annotated(annotation)
    kinds = [m for m in metadata if isinstance(m, Kind)]
    if kinds:
        kind = kinds[-1]
        expected = float if kind in (Kind.FLOAT, Kind.DOUBLE) else int
        if bare is not expected:
            raise ContractError(f"{where}: {kind.value} annotates {expected.__name__}")
        return ValueType(kind)
    if bare is bool:
        return ValueType(Kind.BOOL)
    converted = _converted_type(where, bare, metadata)
    if converted is not None:
        return converted
    if isinstance(bare, type) and issubclass(bare, enum.Flag):
        if not issubclass(bare, int):
            raise ContractError(f"{where}: flag {bare.__qualname__} must be an IntFlag")
        # any combination of flags is a valid value: build it by calling the class
        return ValueType(Kind.ENUM, bare, decode_with=bare, zero=bare(0))
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        values = [m.value for m in bare]
        lo, hi = INT_RANGES[Kind.ENUM]
        if not all(isinstance(v, int) and lo <= v <= hi for v in values):
            raise ContractError(f"{where}: enum {bare.__qualname__} needs int32 values")
        return ValueType(Kind.ENUM, bare, closed=bare in _CLOSED_ENUMS)
    simple = {
        int: Kind.INT64,
        float: Kind.DOUBLE,
        str: Kind.STRING,
        bytes: Kind.BYTES,
        datetime.datetime: Kind.TIMESTAMP,
        datetime.timedelta: Kind.DURATION,
    }
    if bare in simple:
        return ValueType(simple[bare])
    if isinstance(bare, type) and bare in _DECLARED:
        return ValueType(Kind.MESSAGE, bare)
    if isinstance(bare, type) and (dataclasses.is_dataclass(bare) or attrs.has(bare)):
        raise ContractError(
            f"{where}: {bare.__qualname__} is not a contract: decorate it with @proto_contract"
        )
    origin = typing.get_origin(bare)
    if origin is not None and (origin in _SEQUENCE_ORIGINS or origin in _MAP_ORIGINS):
        raise ContractError(f"{where}: nested collections ({bare!r}) are not supported")
    raise ContractError(f"{where}: unsupported annotation {bare!r}")


def _converted_type(where: str, bare: Any, metadata: list[Any]) -> ValueType | None:
    """Value types that travel as another kind (see :mod:`protoattr._convert`)."""
    if bare is decimal.Decimal:
        return ValueType(
            Kind.STRING, None, False, bare, _convert.decimal_to_str, _convert.str_to_decimal,
            decimal.Decimal(0),
        )  # fmt: skip
    if bare is uuid.UUID:
        if _convert.Format.BYTES in metadata:
            return ValueType(
                Kind.BYTES, None, False, bare, _convert.uuid_to_bytes, _convert.bytes_to_uuid,
                uuid.UUID(int=0),
            )  # fmt: skip
        return ValueType(
            Kind.STRING, None, False, bare, _convert.uuid_to_str, _convert.str_to_uuid,
            uuid.UUID(int=0),
        )  # fmt: skip
    if bare is datetime.date:
        return ValueType(
            Kind.INT32, None, False, bare, _convert.date_to_days, _convert.days_to_date,
            datetime.date(1, 1, 1),
        )  # fmt: skip
    if bare is bytearray:
        return ValueType(Kind.BYTES, None, False, bare, None, bytearray, bytearray())
    sur = _convert.surrogate_for(bare)
    if sur is not None:
        return ValueType(
            Kind.MESSAGE, sur.contract, False, bare, sur.to_surrogate, sur.from_surrogate
        )
    return None


def zero_value(value: ValueType) -> Any:
    """The proto3 zero of a value type (``None`` for messages: built lazily)."""
    if value.zero is not None:
        return value.zero
    kind = value.kind
    if kind is Kind.ENUM:
        assert value.py_type is not None
        members: list[Any] = list(value.py_type)  # type: ignore[call-overload]
        by_value = {m.value: m for m in members}
        return by_value.get(0, members[0] if members else 0)
    return _ZEROS.get(kind)


_ZEROS: dict[Kind, Any] = {k: 0 for k in INT_RANGES} | {
    Kind.BOOL: False,
    Kind.FLOAT: 0.0,
    Kind.DOUBLE: 0.0,
    Kind.STRING: "",
    Kind.BYTES: b"",
    Kind.TIMESTAMP: datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc),
    Kind.DURATION: datetime.timedelta(0),
}
del _ZEROS[Kind.ENUM]


def _set_default(info: FieldInfo, d: _Declared) -> None:
    """What a missing field decodes to, and what a singular scalar is compared against."""
    if d.default_factory is not None:
        info.default_factory = d.default_factory
        return
    if d.default is not MISSING:
        info.default = d.default
        return
    if info.label is Label.OPTIONAL:
        info.default = None
    elif info.label is Label.REPEATED:
        info.default_factory = info.container
    elif info.label is Label.MAP:
        info.default_factory = dict
    elif info.value.kind is not Kind.MESSAGE:
        info.default = zero_value(info.value)
    # a singular message without default: an empty instance, built by the codec


def check_default_fits(info: FieldInfo) -> None:
    """Reject integer defaults that could never be written (``default='a'`` on an int32)."""
    if info.label is not Label.SINGULAR or info.default is MISSING or info.default is None:
        return
    if info.value.domain is not None:
        return
    kind = info.value.kind
    if kind in INT_RANGES and kind is not Kind.ENUM:
        lo, hi = INT_RANGES[kind]
        if type(info.default) is not int or not lo <= info.default <= hi:
            raise ContractError(f"{info.where}: default {info.default!r} is not a {kind.value}")


def iter_message_types(info: ContractInfo) -> Sequence[type]:
    """Contract classes the fields of ``info`` reach directly."""
    return [f.value.py_type for f in info.fields if f.value.is_message and f.value.py_type]
