"""Reflection: turn a decorated class into a :class:`ContractInfo`.

This is where declarations are read and validated (tags, annotations,
options), so that every mistake surfaces as a :class:`ContractError` naming the
class and the field, at decoration time where possible.  Nothing here
generates code; :mod:`protoattr._python.codegen` reads the infos built here.
"""

from __future__ import annotations

import _thread  # threading's locks, without importing threading (see record.py)
import collections.abc
import enum
import functools
import operator
import sys
import types
import typing
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, Union

from . import bcl as _bcl
from . import convert as _convert
from . import names as _names
from . import registry
from .errors import ContractError
from .fields import IGNORE, METADATA_KEY, ProtoMember
from .record import Record
from .types import BCL_KINDS, INT_RANGES, MAP_KEY_KINDS, PACKABLE, Kind
from .wire import MAX_FIELD_NUMBER

__all__ = ["ContractInfo", "FieldInfo", "Label", "ValueType", "proto_contract"]

T = TypeVar("T", bound=type)
E = TypeVar("E", bound=type)


class _Missing:
    """Marks "no default declared" (``dataclasses.MISSING`` cannot be a dataclass default)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
#: how a frozen record's ``__init__`` sets its fields
_set = object.__setattr__


class Label(enum.Enum):
    """How many values a field holds and how absence is told apart."""

    SINGULAR = "singular"  # written unless equal to its default
    OPTIONAL = "optional"  # explicit presence: None is absent
    REPEATED = "repeated"
    MAP = "map"


#: Label's and Kind's members as module globals, for the declaration path: on Python 3.11
#: every attribute read on an Enum class goes through ``EnumType.__getattr__`` (about a
#: thousand instructions; gone in 3.12), and a field read them a dozen times
_MAP = Label.MAP
_REPEATED = Label.REPEATED
_BCL_DECIMAL = Kind.BCL_DECIMAL
_BCL_GUID = Kind.BCL_GUID
_BOOL = Kind.BOOL
_DOUBLE = Kind.DOUBLE
_ENUM = Kind.ENUM
_FLOAT = Kind.FLOAT
_MESSAGE = Kind.MESSAGE
_OPTIONAL = Label.OPTIONAL
_SINGULAR = Label.SINGULAR


class ValueType(Record, frozen=True):
    """The type of one value on the wire (a field's element type for repeated/map)."""

    __slots__ = (  # noqa: RUF023 (the fields' order: positional arguments, repr)
        "kind",
        "py_type",  # the enum class or the contract class
        "closed",  # closed enum: unknown numbers go to the unknown fields
        # for types that travel as another kind (Decimal, UUID, date, surrogates):
        "domain",  # the Python type users hold
        "encode_with",  # domain value -> wire-kind value
        "decode_with",  # wire-kind value -> domain value
        "zero",  # the domain zero (the default of a singular field without one)
        "with_kind",  # BCL_DATETIME: write the kind too (protobuf-net's IncludeDateTimeKind)
        "__weakref__",
    )
    kind: Kind
    py_type: type | None
    closed: bool
    domain: type | None
    encode_with: Callable[[Any], Any] | None
    decode_with: Callable[[Any], Any] | None
    zero: Any
    with_kind: bool

    def __init__(
        self,
        kind: Kind,
        py_type: type | None = None,
        closed: bool = False,
        domain: type | None = None,
        encode_with: Callable[[Any], Any] | None = None,
        decode_with: Callable[[Any], Any] | None = None,
        zero: Any = None,
        with_kind: bool = False,
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "py_type", py_type)
        _set(self, "closed", closed)
        _set(self, "domain", domain)
        _set(self, "encode_with", encode_with)
        _set(self, "decode_with", decode_with)
        _set(self, "zero", zero)
        _set(self, "with_kind", with_kind)

    @property
    def is_message(self) -> bool:
        return self.kind is _MESSAGE

    def describe(self) -> str:
        if self.domain is not None:
            return self.domain.__qualname__
        if self.py_type is not None:
            return self.py_type.__qualname__
        return self.kind.value


class FieldInfo(Record):
    """One protobuf field of a contract, fully resolved."""

    __slots__ = (  # noqa: RUF023 (the fields' order: positional arguments, repr)
        "name",  # the attribute
        "tag",
        "label",
        "value",
        "key",  # map keys
        "container",  # for repeated fields: list or tuple
        "packed",
        "required",
        "group",
        "oneof",
        "proto_name",
        "init_name",  # the __init__ keyword, None when not an init argument
        "default",  # the value a missing field decodes to
        "default_factory",
        # the ``[default = d]`` of an explicit-presence field (``None`` absent, ``d`` to peers)
        "wire_default",
        "owner",  # "Class.attr", for messages
        "__weakref__",
    )
    name: str
    tag: int
    label: Label
    value: ValueType
    key: ValueType | None
    container: type
    packed: bool
    required: bool
    group: bool
    oneof: str | None
    proto_name: str
    init_name: str | None
    default: Any
    default_factory: Callable[[], Any] | None
    wire_default: Any
    owner: str

    def __init__(
        self,
        name: str,
        tag: int,
        label: Label,
        value: ValueType,
        key: ValueType | None = None,
        container: type = list,
        packed: bool = False,
        required: bool = False,
        group: bool = False,
        oneof: str | None = None,
        proto_name: str = "",
        init_name: str | None = None,
        default: Any = MISSING,
        default_factory: Callable[[], Any] | None = None,
        wire_default: Any = None,
        owner: str = "",
    ) -> None:
        self.name = name
        self.tag = tag
        self.label = label
        self.value = value
        self.key = key
        self.container = container
        self.packed = packed
        self.required = required
        self.group = group
        self.oneof = oneof
        self.proto_name = proto_name
        self.init_name = init_name
        self.default = default
        self.default_factory = default_factory
        self.wire_default = wire_default
        self.owner = owner

    @property
    def where(self) -> str:
        return f"{self.owner}.{self.name}"


class ContractOptions(Record):
    """What ``@proto_contract(...)`` was given."""

    __slots__ = (  # noqa: RUF023 (the fields' order: positional arguments, repr)
        "implicit_fields",
        "reserved",
        "subtype_tag",
        "name",
        "preserve_unknown",
        # ``package=`` (``ContractInfo.package`` falls back to ``__protobuf_package__``)
        "package",
        # ``extensions=``: the inclusive field-number ranges other declarations may extend
        "extensions",
        # every scalar's Python default is also its ``wire_default`` (protobuf-net's
        # ``[DefaultValue]`` on every member; protoattr 0.x's behaviour)
        "wire_defaults",
        # protobuf-net's CompatibilityLevel (200, 240, 300); None: the model's
        "compatibility_level",
        # protobuf-net's IncludeDateTimeKind for this contract's bcl.DateTime fields;
        # None: the model's
        "include_date_time_kind",
    )
    implicit_fields: bool
    reserved: tuple[int | str | range, ...]
    subtype_tag: int | None
    name: str | None
    preserve_unknown: bool
    package: str | None
    extensions: tuple[tuple[int, int], ...]
    wire_defaults: bool
    compatibility_level: int | None
    include_date_time_kind: bool | None

    def __init__(
        self,
        implicit_fields: bool = False,
        reserved: tuple[int | str | range, ...] = (),
        subtype_tag: int | None = None,
        name: str | None = None,
        preserve_unknown: bool = True,
        package: str | None = None,
        extensions: tuple[tuple[int, int], ...] = (),
        wire_defaults: bool = False,
        compatibility_level: int | None = None,
        include_date_time_kind: bool | None = None,
    ) -> None:
        self.implicit_fields = implicit_fields
        self.reserved = reserved
        self.subtype_tag = subtype_tag
        self.name = name
        self.preserve_unknown = preserve_unknown
        self.package = package
        self.extensions = extensions
        self.wire_defaults = wire_defaults
        self.compatibility_level = compatibility_level
        self.include_date_time_kind = include_date_time_kind


class ContractInfo(Record):
    """A contract class, resolved: its own fields in tag order and how to build it."""

    __slots__ = (  # noqa: RUF023 (the fields' order: positional arguments, repr)
        "cls",
        "options",
        "fields",
        "construct",  # "init" (call the class) or "setattr" (plain classes)
        "frozen",
        # ``(attribute, init keyword, keyword-only)`` of every ``__init__`` parameter, in order
        "init_params",
        "validated",  # constructing it validates (pydantic): a refused value is a DecodeError
        "__weakref__",
    )
    cls: type
    options: ContractOptions
    fields: list[FieldInfo]
    construct: str
    frozen: bool
    init_params: list[tuple[str, str, bool]]
    validated: bool

    def __init__(
        self,
        cls: type,
        options: ContractOptions,
        fields: list[FieldInfo],
        construct: str,
        frozen: bool,
        init_params: list[tuple[str, str, bool]] | None = None,
        validated: bool = False,
    ) -> None:
        self.cls = cls
        self.options = options
        self.fields = fields
        self.construct = construct
        self.frozen = frozen
        self.init_params = [] if init_params is None else init_params
        self.validated = validated

    @property
    def name(self) -> str:
        return self.options.name or self.cls.__name__

    @property
    def package(self) -> str | None:
        """The protobuf package: ``package=``, else the module's ``__protobuf_package__``
        (``None``: the contract has none); a nested contract has its outermost's."""
        return _names.package_of_class(self.cls, self.options.package)

    @property
    def scoped_name(self) -> str:
        """The name inside the package: ``Order.Line`` for a contract nested in ``Order``."""
        return _names.scoped_name(self.cls, self.options.name)

    @property
    def full_name(self) -> str:
        """``package.Name``, the name ``Any`` type URLs, JSON and schemas use."""
        return _names.full_name(self.scoped_name, self.package)


class ValueMarker:
    """``Annotated`` metadata that stands for a whole value type (the well-known types:
    ``pa.Struct`` is ``Annotated[dict[str, Any], <marker>]``).

    ``nullable`` markers make a singular field explicit-presence (wrappers: ``None``
    is absent).
    """

    nullable: bool = False

    def value_type(self) -> ValueType:
        raise NotImplementedError


def _is_attrs(cls: object) -> bool:
    """``attrs.has(cls)`` without importing attrs: an attrs class carries
    ``__attrs_attrs__``, and only a program that imported attrs has one, so
    ``import protoattr`` does not pay for importing attrs (about 10 ms)."""
    return isinstance(cls, type) and getattr(cls, "__attrs_attrs__", None) is not None


def _marker(metadata: Sequence[Any]) -> ValueMarker | None:
    if len(metadata) == 1:  # (most: pa.int32's kind)
        only = metadata[0]
        return only if isinstance(only, ValueMarker) else None
    found = [m for m in metadata if isinstance(m, ValueMarker)]
    return found[-1] if found else None


# The classes decorated with @proto_contract and their options.
_DECLARED: weakref.WeakKeyDictionary[type, ContractOptions] = weakref.WeakKeyDictionary()
_RESOLVED: weakref.WeakKeyDictionary[type, ContractInfo] = weakref.WeakKeyDictionary()
_LOCALS: weakref.WeakKeyDictionary[type, dict[str, Any]] = weakref.WeakKeyDictionary()
_LOCK = _thread.RLock()


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


def has_declared_subtypes(cls: type) -> bool:
    """Whether any subtype is declared on ``cls`` (:func:`declared_subtypes`, without the
    copy)."""
    return cls in _DECLARED_SUBTYPES


def _inherit_bcl_options(cls: type, options: ContractOptions) -> ContractOptions:
    """A subtype takes its contract base's compatibility_level and include_date_time_kind
    where it names none (protobuf-net's CompatibilityLevel attribute is inherited)."""
    base = contract_base(cls)
    if base is None:
        return options
    inherited = _DECLARED[base]
    level = options.compatibility_level
    kind = options.include_date_time_kind
    if (level is not None or inherited.compatibility_level is None) and (
        kind is not None or inherited.include_date_time_kind is None
    ):
        return options
    return options.replace(
        compatibility_level=inherited.compatibility_level if level is None else level,
        include_date_time_kind=inherited.include_date_time_kind if kind is None else kind,
    )


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
    package: str | None = None,
    extensions: Iterable[tuple[int, int] | range] = (),
    wire_defaults: bool = False,
    compatibility_level: int | None = None,
    include_date_time_kind: bool | None = None,
) -> Any:
    """Declare ``cls`` a protobuf contract; usable bare or with options.

    The class is validated now (tags, annotations, options) and registered
    with the default model; its own behaviour (``__init__``, ``__eq__``,
    slots, frozen-ness) is left exactly as it was.  ``package`` (or, when it
    is not given, a ``__protobuf_package__`` string in the class's module)
    makes the contract's full name ``package.Name``.  ``extensions`` lists the
    inclusive field-number ranges (``[(100, 199)]``, protobuf's ``extensions 100 to
    199;``) that :func:`protoattr.extension` declarations may use.
    makes the contract's full name ``package.Name``.  ``compatibility_level`` is
    protobuf-net's (200: plain ``datetime``, ``timedelta``, ``Decimal`` and ``UUID``
    fields take its bcl.proto forms; 240: bcl for ``Decimal`` and ``UUID`` only;
    300: none), and wins over the model's.  ``include_date_time_kind=True`` makes its
    bcl.DateTime fields write their kind (protobuf-net's ``IncludeDateTimeKind``).
    ``wire_defaults=True`` makes every scalar's Python default its
    ``field(wire_default=...)`` too.
    """
    options = ContractOptions(
        implicit_fields=implicit_fields,
        reserved=(reserved,) if isinstance(reserved, str) else tuple(reserved),
        subtype_tag=subtype_tag,
        name=name,
        preserve_unknown=preserve_unknown,
        package=package,
        extensions=_extension_ranges(extensions),
        wire_defaults=wire_defaults,
        compatibility_level=compatibility_level,
        include_date_time_kind=include_date_time_kind,
    )

    def decorate(c: T, _frames: int = 1) -> T:
        if not isinstance(c, type):
            raise ContractError(f"@proto_contract decorates classes, not {c!r}")
        _check_options(c.__qualname__, options)
        # Classes declared inside a function may refer to its other local classes in
        # string annotations: remember the names visible where the class was declared.
        frame = sys._getframe(_frames)
        if frame.f_code.co_name != "<module>":
            _LOCALS[c] = dict(frame.f_locals)
        with _LOCK:  # declared and resolved at once (what resolve(c) would do, without
            # looking for an info that cannot be there yet)
            declared = _DECLARED[c] = _inherit_bcl_options(c, options)
            _RESOLVED.pop(c, None)
            try:
                _RESOLVED[c] = _build_info(c, declared, final=False)
            except _Unresolved:
                pass  # a forward reference: resolved when the codec is first compiled
            except ContractError:
                del _DECLARED[c]
                raise
        try:
            _names.claim(c, options)
        except ContractError:
            with _LOCK:
                del _DECLARED[c]
            raise
        if options.subtype_tag is not None:
            base = contract_base(c)
            try:
                _check_subtype_tag(c, base, options.subtype_tag)
            except ContractError:
                with _LOCK:
                    del _DECLARED[c]
                raise
            assert base is not None
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
                for model in registry.models():
                    model._hierarchy_changed(base)
        registry.add_to_default(c)
        return c

    if cls is not None:
        return decorate(cls, 2)
    return decorate


def _check_subtype_tag(cls: type, base: type | None, tag: int) -> None:
    """A subtype's tag is a field number of its base: it must be free there."""
    if base is None:
        raise ContractError(
            f"{cls.__qualname__}: subtype_tag={tag} needs a base class that is a contract"
        )
    try:
        base_info = resolve(base)
    except _Unresolved:
        return  # checked when the hierarchy is first compiled
    for f in base_info.fields:
        if f.tag == tag:
            raise ContractError(
                f"{cls.__qualname__}: subtype tag {tag} collides with field "
                f"{base.__qualname__}.{f.name}"
            )
    if _is_reserved(tag, base_info.options):
        raise ContractError(
            f"{cls.__qualname__}: subtype tag {tag} is reserved in {base.__qualname__}"
        )
    if in_extension_range(tag, base_info.options):
        raise ContractError(
            f"{cls.__qualname__}: subtype tag {tag} is in an extension range of {base.__qualname__}"
        )


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
                raise not_a_contract(cls)
            info = _build_info(cls, _DECLARED[cls], final=final)
            _RESOLVED[cls] = info
        return info


def _type_hints(cls: type, final: bool) -> dict[str, Any]:
    if _PLAIN_HINTS:
        hints = _plain_hints(cls)
        if hints is not None:
            return hints
    module = sys.modules.get(cls.__module__)
    # the module's own namespace, not a copy (evaluating names only reads it): copying a
    # module of 200 contracts for each of them was a tenth of declaring them
    globalns = vars(module) if module is not None else {}
    localns = {**_LOCALS.get(cls, {}), cls.__name__: cls}
    try:
        try:
            hints = typing.get_type_hints(
                cls, globalns=globalns, localns=localns, include_extras=True
            )
        except TypeError:  # 3.10 refuses a quoted dataclasses.InitVar[...]: evaluate them here
            hints = _evaluated_annotations(cls, localns)
        else:
            if _HINTS_EVALUATE_NESTED_STRINGS:
                return hints
        return {name: _eval_strings(hint, globalns, localns) for name, hint in hints.items()}
    except NameError as exc:
        if final:
            raise ContractError(
                f"{cls.__qualname__}: cannot resolve annotation ({exc}); define the "
                "referenced class at module level before first use"
            ) from None
        raise _Unresolved(str(exc)) from None


#: ``get_type_hints`` evaluates quoted names inside builtin generics (``list["Node"]``)
#: itself from Python 3.11 on, so its hints need no :func:`_eval_strings` pass there
_HINTS_EVALUATE_NESTED_STRINGS = sys.version_info >= (3, 11)

#: Python 3.11 to 3.13: a class's own annotations are ``__dict__["__annotations__"]``, and
#: ``get_type_hints`` changes nothing in them but their forward references (3.14 defers
#: annotations; 3.10 leaves quoted names in builtin generics to :func:`_eval_strings`)
_PLAIN_HINTS = (3, 11) <= sys.version_info < (3, 14)
#: the annotation objects whose arguments ``get_type_hints`` evaluates
_EVALUATED_ALIASES: tuple[type, ...] = (
    type(typing.List[int]),  # noqa: UP006 (typing's own generic alias class)
    types.GenericAlias,
    types.UnionType,
)


def _plain_hints(cls: type) -> dict[str, Any] | None:
    """``typing.get_type_hints(cls, include_extras=True)`` when no annotation of ``cls`` or
    its bases holds a forward reference (a string anywhere in it), else ``None``.

    Without one, ``get_type_hints`` returns every annotation unchanged (``None`` as
    ``NoneType``, a builtin generic rebuilt equal) and cannot fail, so the annotations
    themselves are its answer: asking it was a fifth of declaring a contract.
    """
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        # read as get_type_hints reads it (inspect.get_annotations would copy the dict)
        annotations = base.__dict__.get("__annotations__")  # noqa: RUF063
        if not annotations:
            continue
        if type(annotations) is not dict:
            return None
        for name, value in annotations.items():
            if value is None:
                value = type(None)
            elif type(value) not in _CLASS_TYPES and _has_forward_ref(value):
                return None
            hints[name] = value
    return hints


def _has_forward_ref(annotation: Any) -> bool:
    """Whether ``get_type_hints`` would evaluate something in ``annotation`` (a string, a
    ``ForwardRef``; a string inside ``Literal[...]`` too: answering yes is only slower)."""
    kind = type(annotation)
    if kind in _CLASS_TYPES:
        return False
    if kind is str or kind is typing.ForwardRef:
        return True
    if isinstance(annotation, _EVALUATED_ALIASES):
        args: tuple[Any, ...] = typing.cast(Any, annotation).__args__
        for a in args:
            if type(a) not in _CLASS_TYPES and _has_forward_ref(a):
                return True
    return False


def _get_annotations(klass: type) -> dict[str, Any]:
    import inspect  # (Python 3.10 only: inspect is not imported by ``import protoattr``)

    return inspect.get_annotations(klass)


def _evaluated_annotations(cls: type, localns: dict[str, Any]) -> dict[str, Any]:
    """``cls``'s annotations (its bases' first), each string evaluated in the module of
    the class that wrote it: ``get_type_hints`` without its check that every hint is a
    type, which on Python 3.10 rejects ``InitVar[int]`` under ``from __future__ import
    annotations`` (3.11 accepts it)."""
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        module = sys.modules.get(klass.__module__)
        namespace = dict(vars(module)) if module is not None else {}
        for name, value in _get_annotations(klass).items():
            hints[name] = eval(value, namespace, localns) if isinstance(value, str) else value
    return hints


def _eval_strings(hint: Any, globalns: dict[str, Any], localns: dict[str, Any]) -> Any:
    """``hint`` with quoted names inside builtin generics (``list["Node"]``) evaluated.

    ``get_type_hints`` does that itself from Python 3.11 on; 3.10 leaves the
    string in place, so a contract declared the same way must work there too.
    """
    if isinstance(hint, str):
        return _eval_strings(eval(hint, globalns, localns), globalns, localns)
    args = getattr(hint, "__args__", None)
    if not args or typing.get_origin(hint) is typing.Literal:  # Literal["a"] holds values
        return hint
    new_args = tuple(_eval_strings(a, globalns, localns) for a in args)
    if all(a is b for a, b in zip(new_args, args, strict=True)):
        return hint
    origin = typing.get_origin(hint)
    if isinstance(hint, types.GenericAlias):
        return types.GenericAlias(origin, new_args)
    if origin is typing.Annotated:
        params = (_eval_strings(hint.__origin__, globalns, localns), *hint.__metadata__)
        return typing.Annotated[params]
    if origin in _UNION_TYPES:
        return Union[new_args]  # noqa: UP007 (X | Y needs two operands)
    return hint


class _Declared:
    """One attribute as the class declares it, before protobuf reading (a plain class
    with slots: one is built per attribute, and a dataclass instance costs more)."""

    __slots__ = (
        "annotation",
        "default",
        "default_factory",
        "init_name",
        "kw_only",
        "member",
        "name",
    )

    def __init__(
        self,
        name: str,
        annotation: Any,
        member: ProtoMember | None,
        default: Any,
        default_factory: Callable[[], Any] | None,
        init_name: str | None,
        kw_only: bool = False,
    ) -> None:
        self.name = name
        self.annotation = annotation
        self.member = member
        self.default = default
        self.default_factory = default_factory
        self.init_name = init_name
        self.kw_only = kw_only


def _declared_attributes(cls: type, hints: dict[str, Any]) -> tuple[list[_Declared], str, bool]:
    """The class's attributes, in declaration order, whatever kind of class it is."""
    found: list[_Declared] = []
    if _is_dataclass(cls):
        import dataclasses  # a dataclass exists: dataclasses is imported already

        params = getattr(cls, "__dataclass_params__", None)
        frozen = bool(getattr(params, "frozen", False))
        missing: Any = dataclasses.MISSING  # (read once: a module attribute)
        for f in dataclasses.fields(cls):
            name = f.name
            made: Any = f.default_factory
            default = f.default
            found.append(
                _Declared(
                    name,
                    hints.get(name, f.type),
                    f.metadata.get(METADATA_KEY),
                    MISSING if default is missing else default,
                    None if made is missing else made,
                    name if f.init else None,
                    f.kw_only is True,  # (MISSING when the class says nothing: False)
                )
            )
        return found, "init", frozen
    if _is_attrs(cls):
        import attrs  # an attrs class exists: attrs is imported already

        # attrs installs its own __setattr__ on frozen classes
        frozen = getattr(getattr(cls, "__setattr__", None), "__name__", "") == "_frozen_setattrs"
        for a in attrs.fields(cls):
            default, factory = a.default, None
            if _is_tagged_field(default):
                raise ContractError(
                    f"{cls.__qualname__}.{a.name}: field() declares a dataclass field, which "
                    f"attrs takes for a default value; in an attrs class write "
                    f"`{a.name}: Annotated[T, member(tag)] = default`"
                )
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
    if _pydantic_base(cls) is not None:
        return _pydantic_attributes(cls, hints)
    for attr_name, annotation in hints.items():
        if typing.get_origin(annotation) is typing.ClassVar:
            continue
        found.append(
            _Declared(attr_name, annotation, None, getattr(cls, attr_name, MISSING), None, None)
        )
    return found, "setattr", False


def _pydantic_base(cls: Any) -> type | None:
    """pydantic's ``BaseModel`` if ``cls`` is a model class (pydantic is not imported here:
    a program that has not imported it has no models)."""
    module = sys.modules.get("pydantic")
    base = getattr(module, "BaseModel", None) if module is not None else None
    if isinstance(base, type) and isinstance(cls, type) and issubclass(cls, base):
        return base
    return None


def _pydantic_attributes(cls: Any, hints: dict[str, Any]) -> tuple[list[_Declared], str, bool]:
    """A pydantic v2 model's fields.  Decoding calls the model with keywords (by alias
    when it has one), so decoded objects are validated models like any other."""
    qual = cls.__qualname__
    config = getattr(cls, "model_config", {})
    by_alias = config.get("validate_by_alias", True) is not False
    found: list[_Declared] = []
    for name, fi in cls.model_fields.items():
        if _is_tagged_field(getattr(fi, "_original_assignment", None)):
            raise ContractError(
                f"{qual}.{name}: field() declares a dataclass field, which pydantic reads "
                f"as a default value; in a pydantic model write "
                f"`{name}: Annotated[T, member(tag)] = default` (or = pydantic.Field(...))"
            )
        if getattr(fi, "default_factory_takes_data", False):
            raise ContractError(f"{qual}.{name}: a default_factory taking data is not supported")
        factory = fi.default_factory
        default = MISSING if fi.is_required() or factory is not None else fi.default
        alias = fi.validation_alias if isinstance(fi.validation_alias, str) else fi.alias
        init_name = alias if alias and by_alias else name
        found.append(
            _Declared(name, hints.get(name, fi.annotation), None, default, factory, init_name, True)
        )
    return found, "init", bool(config.get("frozen", False))


def _is_tagged_field(value: Any) -> bool:
    """A ``dataclasses.Field`` made by :func:`protoattr.field` (none exists before
    dataclasses is imported)."""
    dataclasses = sys.modules.get("dataclasses")
    return (
        dataclasses is not None
        and isinstance(value, dataclasses.Field)
        and METADATA_KEY in value.metadata
    )


def _is_dataclass(obj: object) -> bool:
    """``dataclasses.is_dataclass(obj)`` without importing dataclasses (``import protoattr``
    does not: see :mod:`protoattr._core.record`): a dataclass carries
    ``__dataclass_fields__``, and only a program that imported dataclasses has one."""
    return hasattr(obj if isinstance(obj, type) else type(obj), "__dataclass_fields__")


def _check_decorator_order(cls: type, final: bool) -> None:
    """``@dataclass`` written above ``@proto_contract`` leaves ``field()`` objects as
    plain class attributes when the contract is declared.  That is unambiguous:
    resolve the contract on first use, once the dataclass decorator has run."""
    if _is_dataclass(cls) or _is_attrs(cls) or _pydantic_base(cls) is not None:
        return
    tagged = [name for name, value in vars(cls).items() if _is_tagged_field(value)]
    if not tagged:
        return
    if not final:
        raise _Unresolved(f"{cls.__qualname__} is not a dataclass yet")
    raise ContractError(
        f"{cls.__qualname__}.{tagged[0]}: field() declares a dataclass field, but "
        f"{cls.__qualname__} is not a dataclass: decorate it with @dataclass, below "
        "@proto_contract (decorators apply bottom-up)"
    )


def not_a_contract(cls: type) -> ContractError:
    """The error for a class used as a contract that is not one, saying why if it can."""
    qual = cls.__qualname__
    if _is_dataclass(cls) or _is_attrs(cls):
        for declared in list(_DECLARED):
            if (
                declared is not cls
                and declared.__qualname__ == qual
                and declared.__module__ == cls.__module__
                and (declared not in _RESOLVED or _RESOLVED[declared].construct == "setattr")
            ):
                return ContractError(
                    f"{qual} is not a contract: a decorator written above @proto_contract "
                    f"replaced the class it declared (@dataclass(slots=True) and @attrs.define "
                    f"make a new class); put @proto_contract on top"
                )
    return ContractError(f"{qual} is not a contract: decorate it with @proto_contract")


#: the class of ``Annotated[...]`` aliases: ``typing.get_origin(a) is Annotated`` is an
#: isinstance check of it first (asked directly: a declaration splits each annotation
#: several times, and get_origin's other checks were a tenth of declaring a contract)
_ANNOTATED_ALIAS: Any = type(typing.Annotated[int, 0])


def _split_annotated(annotation: Any) -> tuple[Any, list[Any]]:
    """Strip (possibly nested) ``Annotated`` and return ``(type, metadata)``."""
    metadata: list[Any] = []
    while isinstance(annotation, _ANNOTATED_ALIAS):
        metadata.extend(annotation.__metadata__)
        annotation = annotation.__origin__
    return annotation, metadata


@functools.cache
def _plain_value(kind: Kind) -> ValueType:
    """``ValueType(kind)``, one per kind: it is frozen, so every field of a plain kind
    shares it (building a frozen dataclass costs a microsecond a field)."""
    return ValueType(kind)


def _build_info(cls: type, options: ContractOptions, *, final: bool) -> ContractInfo:
    qual = cls.__qualname__
    _check_decorator_order(cls, final)
    hints = _type_hints(cls, final)
    declared, construct, frozen = _declared_attributes(cls, hints)
    inherited = _inherited_names(cls) if options.subtype_tag is not None else set()
    fields: list[FieldInfo] = []
    # (attribute, its member, its annotation's type and other markers): the annotation is
    # split once here and read from these parts, never rebuilt or split again
    pending: list[tuple[_Declared, ProtoMember, Any, tuple[Any, ...]]] = []
    untagged: list[str] = []
    numbered = False  # some member has no tag (implicit_fields, field(None)): number it
    markers: tuple[Any, ...]
    only: Any
    for d in declared:
        if inherited and d.name in inherited:
            continue  # a base contract's field: travels in the base's message
        annotation = d.annotation
        if isinstance(annotation, _ANNOTATED_ALIAS):
            stripped, metadata = _split_annotated(annotation)
            only = metadata[0] if len(metadata) == 1 else IGNORE
            if only is not IGNORE and not isinstance(only, ProtoMember):
                # one marker that is no member (pa.int32's kind, pa.Timestamp's...): most
                markers, ignored, mem = (only,), False, d.member
            else:
                members = [m for m in metadata if isinstance(m, ProtoMember)]
                markers = tuple(m for m in metadata if not isinstance(m, ProtoMember))
                ignored = any(m is IGNORE for m in metadata)
                if d.member is not None:
                    members.append(d.member)
                if len(members) > 1:
                    raise ContractError(f"{qual}.{d.name}: more than one field()/member() marker")
                mem = members[0] if members else None
        else:  # a plain annotation (a field() gives the member): nothing to take apart
            stripped, markers, ignored, mem = annotation, (), False, d.member
        if ignored and mem is not None:
            raise ContractError(f"{qual}.{d.name}: pa.Ignored and a tag contradict each other")
        tag = None if mem is None else mem.tag
        if tag is not None and type(tag) is not int and not _is_tag_number(tag):
            raise ContractError(
                f"{qual}.{d.name}: the tag must be an int field number, not {tag!r}"
            )
        if mem is None:
            if ignored:
                if construct == "init" and d.init_name is not None and _no_default(d):
                    raise ContractError(
                        f"{qual}.{d.name} is ignored and has no default, so decoding could "
                        f"not construct {qual}: give it a default"
                    )
                continue
            if options.implicit_fields:
                mem = ProtoMember(None)
            else:
                if construct == "init" and d.init_name is not None and _no_default(d):
                    raise ContractError(
                        f"{qual}.{d.name} has no tag and no default, so decoding could not "
                        f"construct {qual}: give it field(tag) or a default"
                    )
                if construct != "init" or d.init_name is not None:
                    untagged.append(d.name)  # not init=False (derived state, never decoded)
                continue
        pending.append((d, mem, stripped, markers))
        if tag is None:
            numbered = True
    if untagged and not pending and options.subtype_tag is None:
        raise ContractError(
            f"{qual} has attributes ({', '.join(untagged)}) but no protobuf field, so it "
            "would always serialize to b'': tag them with field(tag) or "
            "Annotated[T, member(tag)], or use @proto_contract(implicit_fields=True)"
        )
    if untagged:  # beside tagged fields (or in a subtype): dropped on the wire, silently
        names = ", ".join(f"{qual}.{n}" for n in untagged)
        raise ContractError(
            f"{names}: no tag, so the value would be lost on every round trip: tag it "
            "with field(tag) or Annotated[T, member(tag)], or declare it pa.Ignored[T] "
            "if it is not part of the message"
        )

    used = {p[1].tag for p in pending if p[1].tag is not None} if numbered else set()
    next_tag = 1
    has_oneof = False
    for d, mem, stripped, markers in pending:
        tag = mem.tag
        if mem.oneof is not None:
            has_oneof = True
        if tag is None:
            while next_tag in used or 19000 <= next_tag <= 19999:
                next_tag += 1
            tag = next_tag
            used.add(tag)
        fields.append(_field_info(qual, d, mem, tag, options, stripped, markers))

    if not _plainly_distinct_tags(fields, options):
        _check_tags(qual, fields, options)  # in declaration order: the first wrong field
    if has_oneof:
        _check_oneof_defaults(qual, fields, {p[0].name: p[0] for p in pending})
    fields.sort(key=_TAG)
    init_params = [(d.name, d.init_name, d.kw_only) for d in declared if d.init_name is not None]
    validated = _pydantic_base(cls) is not None
    return ContractInfo(cls, options, fields, construct, frozen, init_params, validated)


_TAG = operator.attrgetter("tag")


def _inherited_names(cls: type) -> set[str]:
    """Attribute names that belong to a base contract's own message."""
    names: set[str] = set()
    for base in cls.__mro__[1:]:
        if base in _DECLARED:
            hints = getattr(base, "__annotations__", {})
            names.update(hints)
            if _is_dataclass(base):
                import dataclasses  # a dataclass exists: dataclasses is imported already

                names.update(f.name for f in dataclasses.fields(base))
            elif _is_attrs(base):
                names.update(a.name for a in base.__attrs_attrs__)  # type: ignore[attr-defined]
    return names


def _no_default(d: _Declared) -> bool:
    return d.default is MISSING and d.default_factory is None


def _check_oneof_defaults(
    qual: str, fields: list[FieldInfo], declared: dict[str, _Declared]
) -> None:
    """At most one member of a oneof may be set in a default instance, or it could
    not be serialized."""
    set_by_default: dict[str, list[str]] = {}
    for f in fields:
        d = declared[f.name]
        if f.oneof is not None and (
            d.default_factory is not None or d.default not in (None, MISSING)
        ):
            set_by_default.setdefault(f.oneof, []).append(f.name)
    for oneof, names in set_by_default.items():
        if len(names) > 1:
            raise ContractError(
                f"{qual}.{names[1]}: members {', '.join(names)} of oneof {oneof!r} all have "
                "a default other than None, so a default instance could not be serialized"
            )


def _extension_ranges(
    ranges: Iterable[tuple[int, int] | range],
) -> tuple[tuple[int, int], ...]:
    """``extensions=`` as a tuple of ``(first, last)`` pairs (checked by _check_options);
    a ``range(100, 200)`` is ``(100, 199)``, as in ``reserved=``."""
    try:
        return tuple(
            (r.start, r.stop - 1) if isinstance(r, range) and r.step == 1 else tuple(r)  # type: ignore[misc]
            for r in ranges
        )
    except TypeError:
        raise ContractError(
            f"extensions= takes (first, last) field-number pairs, like [(100, 199)], not {ranges!r}"
        ) from None


def in_extension_range(number: int, options: ContractOptions) -> bool:
    """Whether ``number`` is in one of the contract's ``extensions=`` ranges."""
    return any(lo <= number <= hi for lo, hi in options.extensions)


def _check_options(qual: str, options: ContractOptions) -> None:
    """The class-level options are well typed (a float tag would never match)."""
    for r in options.reserved:
        if not (isinstance(r, (str, range)) or _is_tag_number(r)):
            raise ContractError(
                f"{qual}: reserved entries are field numbers, ranges or names, not {r!r}"
            )
    for pair in options.extensions:
        ok = len(pair) == 2 and all(_is_tag_number(n) for n in pair)
        if not (ok and 1 <= pair[0] <= pair[1] <= MAX_FIELD_NUMBER):
            raise ContractError(
                f"{qual}: extensions= takes (first, last) field-number pairs with "
                f"1 <= first <= last <= {MAX_FIELD_NUMBER}, not {pair!r}"
            )
    level = options.compatibility_level
    if level is not None and level not in _bcl.LEVELS:
        raise ContractError(f"{qual}: compatibility_level must be 200, 240 or 300, not {level!r}")
    if options.include_date_time_kind not in (None, True, False):
        raise ContractError(f"{qual}: include_date_time_kind is True or False")
    tag = options.subtype_tag
    if tag is not None and not (_is_tag_number(tag) and 1 <= tag <= MAX_FIELD_NUMBER):
        raise ContractError(
            f"{qual}: subtype_tag must be an int in 1..{MAX_FIELD_NUMBER}, not {tag!r}"
        )


def _is_tag_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_reserved(tag: int, options: ContractOptions) -> bool:
    return any(
        (tag in r) if isinstance(r, range) else tag == r
        for r in options.reserved
        if not isinstance(r, str)
    )


def _plainly_distinct_tags(fields: list[FieldInfo], options: ContractOptions) -> bool:
    """What :func:`_check_tags` checks of a contract that reserves nothing and declares no
    extensions (most), in a few calls of builtins rather than a Python loop over the
    fields: distinct tags, all in 1..MAX_FIELD_NUMBER and none in protobuf's
    19000..19999.  False sends the contract to the full check, which says which field
    is wrong (or passes it)."""
    if options.reserved or options.extensions or not fields:
        return not fields
    tags = sorted(map(_TAG, fields))
    return (
        tags[0] >= 1
        and tags[-1] <= MAX_FIELD_NUMBER
        and len(set(tags)) == len(tags)
        and (tags[-1] < 19000 or tags[0] > 19999 or _none_in_19000s(tags))
    )


def _none_in_19000s(tags: list[int]) -> bool:
    """Whether the sorted ``tags`` skip 19000..19999 (asked only of a contract with a tag
    past 19000: ``bisect`` is imported then, not by ``import protoattr``)."""
    import bisect

    return bisect.bisect_left(tags, 19000) == bisect.bisect_right(tags, 19999)


def _check_tags(qual: str, fields: list[FieldInfo], options: ContractOptions) -> None:
    seen: dict[int, str] = {}
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
        # (most contracts reserve nothing and declare no extensions: no scan per field)
        if options.reserved and _is_reserved(f.tag, options):
            raise ContractError(f"{qual}.{f.name}: tag {f.tag} is reserved")
        if options.extensions and in_extension_range(f.tag, options):
            raise ContractError(f"{qual}.{f.name}: tag {f.tag} is in an extension range")
        if reserved_names and (f.proto_name in reserved_names or f.name in reserved_names):
            raise ContractError(f"{qual}.{f.name}: the name {f.proto_name!r} is reserved")


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
    qual: str,
    d: _Declared,
    mem: ProtoMember,
    tag: int,
    options: ContractOptions,
    stripped: Any,
    markers: tuple[Any, ...],
) -> FieldInfo:
    """One field, from its annotation's parts (``stripped`` and the ``markers`` beside the
    member) to the finished :class:`FieldInfo`, in one pass: every check on the way, the
    default computed before the info is built, nothing built only to be taken apart."""
    where = f"{qual}.{d.name}"
    label = _SINGULAR
    optional = False
    bare: Any
    bare_metadata: Sequence[Any]
    if markers:  # Annotated[T, ...] is never a union itself (Optional goes inside)
        bare, bare_metadata = stripped, markers
    elif type(stripped) not in _CLASS_TYPES and _origin(stripped) in _UNION_TYPES:
        union_args = _args(stripped)
        members = [a for a in union_args if a is not type(None)]
        if len(members) != 1 or len(union_args) != 2:
            raise ContractError(f"{where}: unions other than Optional[T] are not supported")
        optional = True
        label = _OPTIONAL
        bare, bare_metadata = _split_annotated(members[0])
    else:
        bare, bare_metadata = stripped, ()
    origin = None if type(bare) in _CLASS_TYPES else _origin(bare)
    key: ValueType | None = None
    container: type = list
    args: tuple[Any, ...]
    marker = _marker(bare_metadata) if bare_metadata else None
    if origin is None:  # not generic (most fields): a scalar, an enum or a contract
        if marker is not None:  # a well-known type: pa.Timestamp, pa.wrappers.Int32Value...
            value = marker.value_type()
            if marker.nullable:  # Optional[...] already: None is absent
                label = _OPTIONAL
                optional = True
        elif bare in (list, tuple, dict, set, frozenset):
            raise ContractError(f"{where}: {bare.__name__} needs its element types, e.g. list[int]")
        else:
            value = _value_of(where, bare, bare_metadata)
    else:
        if marker is None and origin in _MAP_ORIGINS and _args(bare) == (str, Any):
            from .wkt import STRUCT_MARKER  # a plain dict[str, Any] is a JSON object: a Struct

            marker = STRUCT_MARKER
        if marker is not None:  # a well-known type: pa.Struct, pa.wrappers.Int32Value...
            value = marker.value_type()
            if marker.nullable:  # Optional[...] already: None is absent
                label = _OPTIONAL
                optional = True
        elif origin in _SEQUENCE_ORIGINS or origin in (tuple, set, frozenset, collections.abc.Set):
            args = _args(bare)
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
            label = _REPEATED
        elif origin in _MAP_ORIGINS:
            args = _args(bare)
            if len(args) != 2:
                raise ContractError(f"{where}: {bare!r} needs key and value types")
            key = _value_type(where, args[0])
            if key.kind not in MAP_KEY_KINDS:
                raise ContractError(
                    f"{where}: map keys must be integers, bool or str, not {key.describe()}"
                )
            value = _value_type(where, args[1])
            label = _MAP
        else:
            value = _value_of(where, bare, bare_metadata)

    if optional and label in (_REPEATED, _MAP):
        kind = "repeated" if label is _REPEATED else "map"
        factory = "list" if label is _REPEATED else "dict"
        raise ContractError(
            f"{where}: a {kind} field cannot be Optional: protobuf has no presence for it (None "
            f"and empty would be the same bytes); declare it without Optional, with "
            f"default_factory={factory}"
        )
    if options.compatibility_level is not None or options.include_date_time_kind:
        value = at_level(
            value, options.compatibility_level or 300, bool(options.include_date_time_kind)
        )
    if mem.oneof is not None:
        if label in (_REPEATED, _MAP):
            raise ContractError(f"{where}: a repeated or map field cannot be in a oneof")
        if not optional:
            raise ContractError(
                f"{where}: a member of oneof {mem.oneof!r} must be Optional[...] = None, "
                "so that it is None while another member is set"
            )
        label = _OPTIONAL
    if container is not list and container is not tuple and value.is_message:  # a set's
        held = value.domain or value.py_type
        if getattr(held, "__hash__", None) is None:
            raise ContractError(
                f"{where}: the elements of a set must be hashable, and {value.describe()} "
                "is not (a dataclass needs frozen=True or unsafe_hash=True): use "
                f"list[{value.describe()}] or make it hashable"
            )
    if mem.required and (optional or label in (_REPEATED, _MAP)):
        raise ContractError(f"{where}: required=True needs a singular, non-Optional field")
    if mem.packed and (label is not _REPEATED or value.kind not in PACKABLE):
        raise ContractError(
            f"{where}: packed=True needs a repeated numeric or enum field, not {value.describe()}"
        )
    if mem.group and value.kind is not _MESSAGE:
        raise ContractError(f"{where}: group=True needs a contract class, not {value.describe()}")
    if mem.group and label is _MAP:
        raise ContractError(f"{where}: map values cannot be groups")
    packed = label is _REPEATED and value.kind in PACKABLE and mem.packed is not False

    # the defaults (see _defaults), before the info is built: it is built once, complete
    default, default_factory, wire_default = _defaults(where, d, mem, options, label, value)
    if label is _REPEATED:
        default_factory = container
    return FieldInfo(
        d.name,
        tag,
        label,
        value,
        key,
        container,
        packed,
        mem.required,
        mem.group,
        mem.oneof,
        mem.name or d.name,
        d.init_name,
        default,
        default_factory,
        wire_default,
        qual,
    )


#: the alias classes of ``list[T]``, ``Optional[T]``/``Union[...]`` and ``T | None``: their
#: ``typing.get_origin``/``get_args`` are their ``__origin__``/``__args__`` (a union's origin
#: is ``Union`` or ``types.UnionType`` itself), read directly by :func:`_origin` and
#: :func:`_args` (typing's functions try a dozen alias classes first: a twentieth of a
#: declaration); for a ``Callable[...]`` alias, whose arguments get_args regroups, and any
#: other annotation, typing's functions answer
_DIRECT_ALIASES = (types.GenericAlias, type(typing.Optional[int]))  # noqa: UP045 (typing's class)


def _origin(tp: Any) -> Any:
    """``typing.get_origin(tp)``, for an annotation that is no ``Annotated`` alias."""
    kind = type(tp)
    if kind in _DIRECT_ALIASES:
        return tp.__origin__
    if kind is types.UnionType:
        return types.UnionType
    return typing.get_origin(tp)


def _args(tp: Any) -> tuple[Any, ...]:
    """``typing.get_args(tp)``, for an annotation that is no ``Annotated`` alias."""
    kind = type(tp)
    if (kind in _DIRECT_ALIASES and tp.__origin__ is not collections.abc.Callable) or (
        kind is types.UnionType
    ):
        return tp.__args__  # type: ignore[no-any-return]
    return typing.get_args(tp)


#: the types of plain classes (``int``, a dataclass, an enum): never generic aliases, so
#: their ``typing.get_origin`` is ``None`` without asking it
_CLASS_TYPES = (type, type(enum.Enum))


_SIMPLE: dict[Any, Kind] = {
    int: Kind.INT64,
    float: Kind.DOUBLE,
    str: Kind.STRING,
    bytes: Kind.BYTES,
}  # and datetime's (see _add_datetime)

#: the kinds whose values are datetime's (the tables gain them in _add_datetime)
_TIME_KINDS = frozenset({Kind.TIMESTAMP, Kind.DURATION, Kind.BCL_DATETIME, Kind.BCL_TIMESPAN})


def _is_datetime_type(bare: Any) -> bool:
    """Whether ``bare`` is ``datetime`` or ``timedelta``, asked without importing their
    module (a class of it exists only once it is imported)."""
    datetime = sys.modules.get("datetime")
    return datetime is not None and (bare is datetime.datetime or bare is datetime.timedelta)


def _add_datetime() -> None:
    """Add ``datetime``'s types and values to the tables of kinds, zeros and default types,
    once: ``import protoattr`` does not import ``datetime``, and the first annotation
    naming one of its types (or a time kind's zero or default type) adds them."""
    if Kind.TIMESTAMP not in _ZEROS:  # (each entry is set at once: two threads agree)
        import datetime

        moment, span = datetime.datetime, datetime.timedelta
        types = {Kind.TIMESTAMP: moment, Kind.DURATION: span,
                 Kind.BCL_DATETIME: moment, Kind.BCL_TIMESPAN: span}  # fmt: skip
        _DEFAULT_TYPES.update(types)
        _FITTING.update(types)
        _SIMPLE.update({moment: Kind.TIMESTAMP, span: Kind.DURATION})
        _ZEROS.update({
            Kind.TIMESTAMP: moment(1970, 1, 1, tzinfo=datetime.timezone.utc),
            Kind.DURATION: span(0),
            Kind.BCL_DATETIME: moment.min,  # .NET's default(DateTime)
            Kind.BCL_TIMESPAN: span(0),
        })  # fmt: skip


def _value_type(where: str, annotation: Any) -> ValueType:
    bare, metadata = _split_annotated(annotation)
    return _value_of(where, bare, metadata)


def _value_of(where: str, bare: Any, metadata: Sequence[Any]) -> ValueType:
    """The value type of an annotation already split into ``bare`` and its ``metadata``."""
    # the common cases first, answered as the full way below would: pa.int32 and its kinds,
    # then the plain scalars and contract classes, unless a surrogate takes them over
    if metadata:
        if len(metadata) == 1 and type(metadata[0]) is Kind:
            only: Kind = metadata[0]
            if bare is (float if only is _FLOAT or only is _DOUBLE else int):
                return _plain_value(only)
    elif type(bare) is type and bare not in _convert._SURROGATES:
        simple = _SIMPLE.get(bare)
        if simple is not None:
            return _plain_value(simple)
        value = _MESSAGE_VALUES.get(bare)  # holds contract classes only
        if value is not None and bare in _DECLARED:
            return value
    if metadata:  # one pass over it: the last marker, bcl form and kind each
        marker: ValueMarker | None = None
        form: _bcl.Form | None = None
        kind: Kind | None = None
        for m in metadata:
            if type(m) is Kind:
                kind = m
            elif isinstance(m, ValueMarker):
                marker = m
            elif isinstance(m, _bcl.Form):
                form = m
        if marker is not None:
            return marker.value_type()
        if form is not None:
            return _bcl_type(where, bare, form)
        if kind is not None:
            expected = float if kind in (_FLOAT, _DOUBLE) else int
            if bare is not expected:
                raise ContractError(f"{where}: {kind.value} annotates {expected.__name__}")
            return _plain_value(kind)
    if bare is bool:
        return _plain_value(_BOOL)
    converted = _converted_type(where, bare, metadata)
    if converted is not None:
        return converted
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return _enum_value(where, bare)
    if bare not in _SIMPLE and _is_datetime_type(bare):
        _add_datetime()
    if bare in _SIMPLE:
        return _plain_value(_SIMPLE[bare])
    if isinstance(bare, type) and bare in _DECLARED:
        value = _MESSAGE_VALUES.get(bare)
        if value is None:
            value = _MESSAGE_VALUES[bare] = ValueType(_MESSAGE, bare)
        return value
    if isinstance(bare, type) and (
        _is_dataclass(bare) or _is_attrs(bare) or _pydantic_base(bare) is not None
    ):
        raise ContractError(f"{where}: {not_a_contract(bare)}")
    origin = typing.get_origin(bare)
    if origin is not None and (origin in _SEQUENCE_ORIGINS or origin in _MAP_ORIGINS):
        raise ContractError(f"{where}: nested collections ({bare!r}) are not supported")
    raise ContractError(f"{where}: unsupported annotation {bare!r}")


#: the value types of enum classes (open and closed) and of contract classes, built once per
#: class: they are frozen and depend on nothing but the class (an enum's members are fixed
#: when it is created; whether it is closed is asked again at every declaration), so every
#: field of that type shares one; weak, so a class that goes away takes its entries along
_ENUM_VALUES: weakref.WeakKeyDictionary[type, tuple[ValueType, ValueType]] = (
    weakref.WeakKeyDictionary()
)
_MESSAGE_VALUES: weakref.WeakKeyDictionary[type, ValueType] = weakref.WeakKeyDictionary()


def _enum_value(where: str, bare: type[enum.Enum]) -> ValueType:
    """An enum class's value type (``IntFlag``: any combination of its flags)."""
    pair = _ENUM_VALUES.get(bare)
    if pair is None:
        if issubclass(bare, enum.Flag):
            if not issubclass(bare, int):
                raise ContractError(f"{where}: flag {bare.__qualname__} must be an IntFlag")
            # any combination of flags is a valid value: build it by calling the class
            flag = ValueType(_ENUM, bare, decode_with=bare, zero=bare(0))
            pair = (flag, flag)
        else:
            lo, hi = INT_RANGES[_ENUM]
            if not all(isinstance(m.value, int) and lo <= m.value <= hi for m in bare):
                raise ContractError(f"{where}: enum {bare.__qualname__} needs int32 values")
            pair = (ValueType(_ENUM, bare), ValueType(_ENUM, bare, closed=True))
        _ENUM_VALUES[bare] = pair
    if pair[0].decode_with is not None:  # a flag: never closed
        return pair[0]
    return pair[1] if bare in _CLOSED_ENUMS else pair[0]


@functools.cache
def _bcl_forms() -> dict[_bcl.Form, tuple[Kind, type]]:
    """The bcl forms' kinds and Python types; built when first asked for, since
    ``datetime``, ``decimal`` and ``uuid`` are not imported by ``import protoattr``."""
    import datetime
    import decimal
    import uuid

    return {
        _bcl.Form.DATETIME: (Kind.BCL_DATETIME, datetime.datetime),
        _bcl.Form.DATETIME_WITH_KIND: (Kind.BCL_DATETIME, datetime.datetime),
        _bcl.Form.TIMESPAN: (Kind.BCL_TIMESPAN, datetime.timedelta),
        _bcl.Form.DECIMAL: (Kind.BCL_DECIMAL, decimal.Decimal),
        _bcl.Form.GUID: (Kind.BCL_GUID, uuid.UUID),
    }


_TICK_FORMS = frozenset({_bcl.Form.DATETIME_TICKS, _bcl.Form.TIMESPAN_TICKS})


@functools.cache
def _tick_forms() -> dict[_bcl.Form, tuple[type, Callable[[Any], Any], Callable[[Any], Any], Any]]:
    """DataFormat.FixedSize's types and converters, made when first asked for (they are
    ``datetime``'s: ``import protoattr`` does not import it)."""
    import datetime

    return {
        _bcl.Form.DATETIME_TICKS: (datetime.datetime, _bcl.datetime_to_ticks,
                                   _bcl.ticks_to_datetime, datetime.datetime.min),
        _bcl.Form.TIMESPAN_TICKS: (datetime.timedelta, _bcl.timedelta_to_ticks,
                                   _bcl.ticks_to_timedelta, datetime.timedelta(0)),
    }  # fmt: skip


def _bcl_type(where: str, bare: Any, form: _bcl.Form) -> ValueType:
    if form in _TICK_FORMS:  # DataFormat.FixedSize: converted to a bare sfixed64
        domain, to_wire, from_wire, zero = _tick_forms()[form]
        if bare is not domain:
            raise ContractError(f"{where}: {form.value} annotates {domain.__name__}, not {bare!r}")
        return ValueType(Kind.SFIXED64, None, False, domain, to_wire, from_wire, zero)
    kind, expected = _bcl_forms()[form]
    if bare is not expected:
        raise ContractError(f"{where}: {form.value} annotates {expected.__name__}, not {bare!r}")
    return ValueType(kind, with_kind=form is _bcl.Form.DATETIME_WITH_KIND)


def at_level(value: ValueType, level: int, include_kind: bool = False) -> ValueType:
    """``value`` as protobuf-net's compatibility ``level`` writes a plain annotation of it:
    at 200 ``datetime``/``timedelta`` take bcl.DateTime/TimeSpan, at 200 and 240
    ``Decimal``/``UUID`` (the string forms) take bcl.Decimal/Guid.  ``include_kind``
    (protobuf-net's IncludeDateTimeKind) makes every bcl.DateTime write its kind."""
    import decimal
    import uuid

    kind = value.kind
    if level == 200 and kind in (Kind.TIMESTAMP, Kind.DURATION):
        value = ValueType(Kind.BCL_DATETIME if kind is Kind.TIMESTAMP else Kind.BCL_TIMESPAN)
    elif (
        level in (200, 240) and kind is Kind.STRING and value.domain in (decimal.Decimal, uuid.UUID)
    ):
        value = ValueType(Kind.BCL_DECIMAL if value.domain is decimal.Decimal else Kind.BCL_GUID)
    if include_kind and value.kind is Kind.BCL_DATETIME and not value.with_kind:
        value = value.replace(with_kind=True)
    return value


def with_level(info: ContractInfo, level: int | None, include_kind: bool = False) -> ContractInfo:
    """``info`` as a model at compatibility ``level`` (and IncludeDateTimeKind) sees it: the
    contract's own options, where it has them, win; explicit annotations (``pa.bcl.*``,
    ``UUIDBytes``) keep their forms."""
    options = info.options
    if options.compatibility_level is not None:
        level = options.compatibility_level
    if options.include_date_time_kind is not None:
        include_kind = options.include_date_time_kind
    if (level is None or level == 300) and not include_kind:
        return info
    fields = []
    for f in info.fields:
        old = f.value
        value = at_level(old, level or 300, include_kind)
        if value is not old:
            no_default = f.default is zero_value(old)
            f = f.replace(value=value)
            if no_default and value.kind is not old.kind:  # the new kind's zero
                f.default = zero_value(value)
        fields.append(f)
    return info.replace(fields=fields)


def _converted_type(where: str, bare: Any, metadata: Sequence[Any]) -> ValueType | None:
    """Value types that travel as another kind (see :mod:`protoattr._core.convert`)."""
    # a Decimal or a UUID class exists only once its module is imported: look, don't import
    decimal = sys.modules.get("decimal")
    uuid = sys.modules.get("uuid")
    if decimal is not None and bare is decimal.Decimal:
        return ValueType(
            Kind.STRING, None, False, bare, _convert.decimal_to_str, _convert.str_to_decimal,
            decimal.Decimal(0),
        )  # fmt: skip
    if uuid is not None and bare is uuid.UUID:
        if _convert.Format.BYTES in metadata:
            return ValueType(
                Kind.BYTES, None, False, bare, _convert.uuid_to_bytes, _convert.bytes_to_uuid,
                uuid.UUID(int=0),
            )  # fmt: skip
        return ValueType(
            Kind.STRING, None, False, bare, _convert.uuid_to_str, _convert.str_to_uuid,
            uuid.UUID(int=0),
        )  # fmt: skip
    datetime = sys.modules.get("datetime")  # (likewise)
    if datetime is not None and bare is datetime.date:
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
    zero = _ZEROS.get(kind, MISSING)
    if zero is not MISSING:  # the scalars' (most fields)
        return zero
    if kind in _TIME_KINDS:
        _add_datetime()
        return _ZEROS[kind]
    if kind is _ENUM:
        assert value.py_type is not None
        members: list[Any] = list(value.py_type)  # type: ignore[call-overload]
        by_value = {m.value: m for m in members}
        return by_value.get(0, members[0] if members else 0)
    if kind is _BCL_DECIMAL:
        return _bcl_forms()[_bcl.Form.DECIMAL][1](0)
    if kind is _BCL_GUID:
        return _bcl_forms()[_bcl.Form.GUID][1](int=0)
    return _ZEROS.get(kind)


_ZEROS: dict[Kind, Any] = {k: 0 for k in INT_RANGES} | {
    Kind.BOOL: False,
    Kind.FLOAT: 0.0,
    Kind.DOUBLE: 0.0,
    Kind.STRING: "",
    Kind.BYTES: b"",
}  # and the time kinds' (see _add_datetime)
del _ZEROS[Kind.ENUM]


def _defaults(
    where: str,
    d: _Declared,
    mem: ProtoMember,
    options: ContractOptions,
    label: Label,
    value: ValueType,
) -> tuple[Any, Callable[[], Any] | None, Any]:
    """``(default, default_factory, wire_default)`` of a field: what a missing field decodes
    to, and what a singular scalar is compared against (a repeated field's factory, its
    container, is the caller's).

    A Python default (``default=``, ``default_factory=``, ``= value``) is local: the
    constructor's, not the wire's.  A scalar is written unless it is its type's
    zero and reads as that zero when absent, an ``Optional`` reads as ``None``, as
    a proto3 peer means it.  Only ``wire_default=`` (or the contract's
    ``wire_defaults=True``) gives the wire a default of its own.  Fields whose
    value is a message are always written, so their Python default only says what
    an absent one (from a peer) reads as.
    """
    message_like = value.kind in _MESSAGE_LIKE
    scalar = not message_like and (label is _SINGULAR or label is _OPTIONAL)
    python_default = d.default
    if python_default is MISSING and d.default_factory is not None:
        python_default = d.default_factory() if scalar else MISSING
    if python_default is not MISSING and python_default is not None:
        # a default of exactly its field's type fits (a str of a str field, an int in its
        # kind's range, a member of its enum, ...): _check_default would agree, unasked
        exact = type(python_default)
        kind = value.kind
        if not (
            value.domain is None
            and (
                exact is _FITTING.get(kind)
                or exact is value.py_type
                or (
                    exact is int
                    and (bounds := INT_RANGES.get(kind)) is not None
                    and bounds[0] <= python_default <= bounds[1]
                )
            )
        ):
            _check_default(where, label, value, python_default)
    wire = mem.wire_default
    if wire is not None:
        if not scalar:
            raise ContractError(
                f"{where}: wire_default= needs a scalar field (protobuf has no defaults "
                "for repeated, map or message fields)"
            )
        _check_default(where, label, value, wire)
    elif options.wire_defaults and python_default is not MISSING and not message_like:
        wire = python_default
    if label is _OPTIONAL:
        return None, None, wire
    if label is _REPEATED:
        return MISSING, None, None
    if label is _MAP:
        return MISSING, dict, None
    if message_like:
        if d.default_factory is not None:
            return MISSING, d.default_factory, None
        if d.default is not MISSING:
            return d.default, None, None
        if value.kind is not _MESSAGE:
            return zero_value(value), None, None
        return MISSING, None, None  # a singular message without default: built by the codec
    if wire is not None:
        return wire, None, None
    zero = value.zero
    if zero is None:
        zero = _ZEROS.get(value.kind, MISSING)
        if zero is MISSING:
            zero = zero_value(value)
    return zero, None, None


#: the kinds of values that travel as a message (contracts, Timestamp, Duration, surrogates,
#: and protobuf-net's bcl forms, whose own rules say when they are written)
_MESSAGE_LIKE = frozenset({Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION, *BCL_KINDS})


def _message_like(value: ValueType) -> bool:
    """Whether ``value`` travels as a message (see ``_MESSAGE_LIKE``)."""
    return value.kind in _MESSAGE_LIKE


def check_default_fits(info: FieldInfo, default: Any) -> None:
    """Reject defaults that could never be written (``default='a'`` on an int32, ``5`` on a
    str): they would fail on every encode of an object left at its default."""
    _check_default(info.where, info.label, info.value, default)


#: the kinds whose default fits when it has exactly this type (``_check_default`` agrees)
_FITTING: dict[Kind, type] = {
    Kind.STRING: str,
    Kind.BYTES: bytes,
    Kind.BOOL: bool,
    Kind.DOUBLE: float,
    Kind.FLOAT: float,
}  # and the time kinds' (see _add_datetime)


def _check_default(where: str, label: Label, value: ValueType, default: Any) -> None:
    """:func:`check_default_fits` of a field not built yet (``where`` names it)."""
    if label is _REPEATED or label is _MAP:
        return
    if default is MISSING or default is None:
        return
    if value.domain is not None:
        if value.encode_with is not None and not isinstance(default, value.domain):
            raise ContractError(
                f"{where}: default {default!r} is not a {value.domain.__qualname__}"
            )
        return
    kind = value.kind
    if kind is _ENUM:
        assert value.py_type is not None
        fits = isinstance(default, value.py_type) or (
            _is_tag_number(default) and INT_RANGES[kind][0] <= default <= INT_RANGES[kind][1]
        )
        if not fits:
            raise ContractError(
                f"{where}: default {default!r} is not a {value.py_type.__qualname__}"
            )
    elif kind in INT_RANGES:
        lo, hi = INT_RANGES[kind]
        if type(default) is not int or not lo <= default <= hi:
            raise ContractError(f"{where}: default {default!r} is not a {kind.value}")
    elif (expected := _default_type(kind)) is not None and (
        not isinstance(default, expected) or (isinstance(default, bool) and kind is not _BOOL)
    ):
        raise ContractError(f"{where}: default {default!r} is not a {kind.value}")


#: the Python types a scalar default may have (besides the integer kinds' ``int``)
_DEFAULT_TYPES: dict[Kind, type | tuple[type, ...]] = {
    Kind.BOOL: bool,
    Kind.FLOAT: (int, float),
    Kind.DOUBLE: (int, float),
    Kind.STRING: str,
    Kind.BYTES: bytes,
}  # and the time kinds' (see _add_datetime)


def _default_type(kind: Kind) -> type | tuple[type, ...] | None:
    """The Python type(s) a default of ``kind`` may have; the bcl Decimal and Guid kinds'
    types are looked up on demand (``import protoattr`` imports neither module)."""
    if kind in _TIME_KINDS:
        _add_datetime()
    if kind is _BCL_DECIMAL:
        return _bcl_forms()[_bcl.Form.DECIMAL][1]
    if kind is _BCL_GUID:
        return _bcl_forms()[_bcl.Form.GUID][1]
    return _DEFAULT_TYPES.get(kind)


def iter_message_types(info: ContractInfo) -> Sequence[type]:
    """Contract classes the fields of ``info`` reach directly."""
    return [f.value.py_type for f in info.fields if f.value.is_message and f.value.py_type]
