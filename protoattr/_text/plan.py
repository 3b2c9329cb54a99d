"""What the text format needs to know of a contract: its message as a descriptor would say.

A :class:`MessagePlan` is the schema view of one message - per field its
number, its text name, its kind, how it travels and how presence is told -
built once per model and *root* (the class ``to_text``/``from_text`` is
called with), because two things depend on the schema the root exports
as: its syntax (``proto3`` unless the contracts need ``proto2``: groups,
required fields, closed enums, explicit defaults) decides which singular
fields have presence and whether enums are closed, exactly as in the
``.proto`` that :meth:`TypeModel.schema` writes for the root.

The names are schema export's: a field's ``proto_name``, a proto2 group
printed under its type name (``Data { ... }``), a subtype as a field named
after its message, a map as ``key``/``value`` entries, enum values by their
Python names (``<ENUM>_UNSPECIFIED`` for a zero an open enum lacks).
"""

from __future__ import annotations

import enum
import re
import threading
import weakref
from typing import TYPE_CHECKING, Any

from .._core import extensions as _extensions
from .._core.contract import (
    MISSING,
    FieldInfo,
    Label,
    ValueType,
    declared_options,
    is_contract,
    zero_value,
)
from .._core.errors import ContractError
from .._core.types import BCL_KINDS, PACKABLE, Kind
from .._json.plan import json_name
from .._json.write import _is_zero

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

# wire types
VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5

_WIRE = {
    Kind.INT32: VARINT, Kind.INT64: VARINT, Kind.UINT32: VARINT, Kind.UINT64: VARINT,
    Kind.SINT32: VARINT, Kind.SINT64: VARINT, Kind.BOOL: VARINT, Kind.ENUM: VARINT,
    Kind.FIXED64: I64, Kind.SFIXED64: I64, Kind.DOUBLE: I64,
    Kind.FIXED32: I32, Kind.SFIXED32: I32, Kind.FLOAT: I32,
    Kind.STRING: LEN, Kind.BYTES: LEN, Kind.MESSAGE: LEN,
    Kind.TIMESTAMP: LEN, Kind.DURATION: LEN,
    Kind.BCL_DATETIME: LEN, Kind.BCL_TIMESPAN: LEN, Kind.BCL_DECIMAL: LEN, Kind.BCL_GUID: LEN,
}  # fmt: skip
_MESSAGE_LIKE = frozenset({Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION}) | BCL_KINDS


class EnumPlan:
    """An enum's names as its exported schema declares them."""

    __slots__ = ("by_name", "full_name", "name_of")

    def __init__(self, full_name: str, name_of: dict[int, str]) -> None:
        self.full_name = full_name
        self.name_of = name_of
        self.by_name = {name: number for number, name in name_of.items()}


class FieldPlan:
    """One field of a message plan."""

    __slots__ = (
        "closed",
        "conv",
        "enum",
        "extension",
        "fast",
        "fmt",
        "group",
        "implicit",
        "index",
        "is_map",
        "key",
        "kind",
        "message",
        "name",
        "number",
        "oneof",
        "packable",
        "repeated",
        "siblings",
        "type_name",
        "value",
        "wire",
    )

    def __init__(self, number: int, name: str, kind: Kind) -> None:
        self.number = number
        self.name = name  # what the printer writes
        self.kind = kind
        self.wire = _WIRE[kind]
        self.repeated = False
        self.is_map = False
        self.packable = False
        self.implicit = False  # implicit presence: a zero is not printed
        self.oneof: str | None = None
        self.message: MessagePlan | None = None
        self.group = False
        self.type_name: str | None = None  # a group's type name, which text also accepts
        self.enum: EnumPlan | None = None
        self.closed = False
        self.key: FieldPlan | None = None  # map entries: key and value
        self.value: FieldPlan | None = None
        self.index = 0  # the declaration order (use_index_order)
        self.siblings: tuple[int, ...] = ()  # the other members of its oneof
        self.extension: str | None = None  # an extension's full name
        # the printer's, made on first use: the value from its wire form, and its text
        self.conv: Any = None
        self.fmt: Any = None
        # the printer's shortcut: 1 a plain singular scalar, 2 a plain repeated one, else 0
        self.fast = 0

    @property
    def is_message(self) -> bool:
        return self.message is not None


class MessagePlan:
    """One message: its fields by number and by the names text accepts."""

    __slots__ = (
        "builder",
        "by_name",
        "by_number",
        "cls",
        "extensions",
        "fields",
        "full_name",
        "index_order",
        "is_any",
    )

    def __init__(self, cls: type | None, full_name: str) -> None:
        self.cls = cls
        self.full_name = full_name
        self.fields: list[FieldPlan] = []  # by field number
        self.index_order: list[FieldPlan] = []
        self.by_number: dict[int, FieldPlan] = {}
        self.by_name: dict[str, FieldPlan] = {}
        self.is_any = False
        self.builder: _Builder | None = None  # extendable messages: plans of extensions
        self.extensions: dict[int, tuple[Any, FieldPlan]] = {}  # number -> (info, plan)

    def finish(self) -> None:
        self.index_order = sorted(self.fields, key=lambda f: f.index)
        self.fields.sort(key=lambda f: f.number)
        self.by_number = {f.number: f for f in self.fields}
        for f in self.fields:
            plain = f.message is None and not f.group and not (f.closed and f.enum is not None)
            if plain and not f.repeated and f.oneof is None:
                f.fast = 1
            elif plain and f.repeated:
                f.fast = 2
            if f.oneof is not None:
                f.siblings = tuple(
                    o.number for o in self.fields if o.oneof == f.oneof and o is not f
                )
        self.by_name = {f.name if not f.group else f.name.lower(): f for f in self.fields}


# ------------------------------------------------------------------- bcl.proto

_SCALES = {0: "DAYS", 1: "HOURS", 2: "MINUTES", 3: "SECONDS", 4: "MILLISECONDS", 5: "TICKS",
           15: "MINMAX"}  # fmt: skip
_BCL: dict[Kind, MessagePlan] = {}


def bcl_plan(kind: Kind) -> MessagePlan:
    """The message of protobuf-net's ``bcl.proto`` a bcl kind travels as (proto3 there)."""
    found = _BCL.get(kind)
    if found is not None:
        return found
    name = {Kind.BCL_DATETIME: "DateTime", Kind.BCL_TIMESPAN: "TimeSpan",
            Kind.BCL_DECIMAL: "Decimal", Kind.BCL_GUID: "Guid"}[kind]  # fmt: skip
    plan = MessagePlan(None, f"bcl.{name}")
    if kind in (Kind.BCL_DATETIME, Kind.BCL_TIMESPAN):
        parts = [("value", 1, Kind.SINT64, None), ("scale", 2, Kind.ENUM, "TimeSpanScale")]
        if kind is Kind.BCL_DATETIME:
            parts.append(("kind", 3, Kind.ENUM, "DateTimeKind"))
    elif kind is Kind.BCL_DECIMAL:
        parts = [("lo", 1, Kind.UINT64, None), ("hi", 2, Kind.UINT32, None),
                 ("signScale", 3, Kind.UINT32, None)]  # fmt: skip
    else:
        parts = [("lo", 1, Kind.FIXED64, None), ("hi", 2, Kind.FIXED64, None)]
    for index, (field_name, number, field_kind, enum_name) in enumerate(parts):
        fp = FieldPlan(number, field_name, field_kind)
        fp.implicit = True
        fp.index = index
        if enum_name == "TimeSpanScale":
            fp.enum = EnumPlan(f"bcl.{name}.TimeSpanScale", dict(_SCALES))
        elif enum_name == "DateTimeKind":
            names = {0: "UNSPECIFIED", 1: "UTC", 2: "LOCAL"}
            fp.enum = EnumPlan("bcl.DateTime.DateTimeKind", names)
        plan.fields.append(fp)
    plan.finish()
    return _BCL.setdefault(kind, plan)


# ------------------------------------------------------------------- extensions


def extension_at(plan: MessagePlan, number: int) -> FieldPlan | None:
    """The plan of the extension of ``plan``'s message registered at ``number``, if any."""
    if plan.builder is None or plan.cls is None:
        return None
    for handle in _extensions.of(plan.cls):
        if handle.info.number == number:
            return _extension_plan(plan, handle.info)
    return None


def extension_named(plan: MessagePlan, full_name: str) -> tuple[Any, FieldPlan | None]:
    """``(the registered extension or None, its plan when it extends plan's message)``."""
    handle = _extensions.by_name(full_name)
    if handle is None or plan.cls is None or handle.info.extendee is not plan.cls:
        return handle, None
    return handle, _extension_plan(plan, handle.info)


def _extension_plan(plan: MessagePlan, info: Any) -> FieldPlan:
    found = plan.extensions.get(info.number)
    if found is not None and found[0] is info:
        return found[1]
    builder = plan.builder
    assert builder is not None
    with builder.lock:
        fp = builder._field(info.field, plan)
        fp.name = f"[{info.full_name}]"
        fp.extension = info.full_name
        fp.implicit = False
        fp.oneof = None
        fp.index = 1 << 30  # use_index_order: after the fields, by number
        plan.extensions[info.number] = (info, fp)
    return fp


# ------------------------------------------------------------------- building


class _Roots:
    """A model's plans, per root class (kept on the model as ``_text_plans``)."""

    def __init__(self, model: CodecModel) -> None:
        self.model_ref = weakref.ref(model)
        self.roots: dict[type, MessagePlan] = {}
        self.lock = threading.RLock()


_LOCK = threading.Lock()


def plan_for(model: CodecModel, cls: type) -> MessagePlan:
    """The plan of the message ``cls`` travels as (its hierarchy's root's)."""
    roots: _Roots | None = model.__dict__.get("_text_plans")
    if roots is None:
        with _LOCK:
            roots = model.__dict__.get("_text_plans")
            if roots is None:
                roots = _Roots(model)
                model.__dict__["_text_plans"] = roots
    found = roots.roots.get(cls)
    if found is not None:
        return found
    with roots.lock:
        found = roots.roots.get(cls)
        if found is None:
            root = message_class(model, cls)
            found = _Builder(model, root).run()
            roots.roots[cls] = found
        return found


def message_class(model: CodecModel, cls: Any) -> type:
    """The contract a value of ``cls`` travels as: a surrogate's contract, a hierarchy's root."""
    if not is_contract(cls):
        from .._core.convert import surrogate_for

        sur = surrogate_for(cls)
        if sur is None:
            raise ContractError(
                f"{getattr(cls, '__qualname__', cls)!r} is not a contract: decorate it with "
                "@proto_contract"
            )
        cls = sur.contract
    chain: list[type] = model._chain(cls)
    return chain[-1]


def _syntax(model: CodecModel, root: type) -> str:
    """``proto3`` when the root's schema exports as proto3, else ``proto2``."""
    from .._core.wkt import WELL_KNOWN_CLASSES

    if root in WELL_KNOWN_CLASSES:
        return "proto3"
    from .._schema import proto as _proto

    try:
        _proto.schema(model, root, syntax="proto3")
    except ContractError:
        try:  # proto3 cannot say it: proto2 can (or neither can, for another reason)
            _proto.schema(model, root, syntax="proto2")
        except ContractError:
            return "proto3"
        return "proto2"
    return "proto3"


class _Builder:
    def __init__(self, model: CodecModel, root: type) -> None:
        self.model = model
        self.root = root
        self.lock = threading.RLock()
        self.syntax = _syntax(model, root)
        self.proto2 = self.syntax == "proto2"
        self.messages: dict[type, MessagePlan] = {}
        self.enums: dict[type, EnumPlan] = {}
        self.map_values: set[type] = set()
        name = model.full_name(root)
        self.package = name.rpartition(".")[0]

    def run(self) -> MessagePlan:
        self._scan_map_values()
        return self.message(self.root)

    def _scan_map_values(self) -> None:
        """Enums used as map values: their schema gets a zero value (protoc wants one)."""
        seen: set[type] = set()
        pending = [self.root]
        while pending:
            cls = pending.pop()
            if cls in seen:
                continue
            seen.add(cls)
            for f in self.model._own_fields(cls):
                for vt in (f.key, f.value):
                    if vt is None:
                        continue
                    target = self._target(vt)
                    if target is not None:
                        pending.append(target)
                    if f.label is Label.MAP and vt is f.value and vt.kind is Kind.ENUM:
                        assert vt.py_type is not None
                        self.map_values.add(vt.py_type)
            pending.extend(sub for _, sub in self.model._children_of(cls))

    def _target(self, vt: ValueType) -> type | None:
        from .._core import wkt

        if vt.kind is Kind.TIMESTAMP:
            return wkt.Timestamp
        if vt.kind is Kind.DURATION:
            return wkt.Duration
        if vt.kind is Kind.MESSAGE and vt.py_type is not None:
            return message_class(self.model, vt.py_type)
        return None

    def message(self, cls: type) -> MessagePlan:
        found = self.messages.get(cls)
        if found is not None:
            return found
        from .._core import wkt

        model = self.model
        plan = MessagePlan(cls, model.full_name(cls))
        plan.is_any = cls is wkt.Any
        if declared_options(cls).extensions:
            plan.builder = self
        self.messages[cls] = plan
        index = 0
        for tag, sub in model._children_of(cls):
            fp = FieldPlan(tag, model.info(sub).name, Kind.MESSAGE)
            fp.oneof = "subtype"
            fp.message = self.message(sub)
            fp.index = index
            index += 1
            plan.fields.append(fp)
        for f in model._own_fields(cls):
            fp = self._field(f, plan)
            fp.index = index
            index += 1
            plan.fields.append(fp)
        plan.finish()
        return plan

    def _field(self, f: FieldInfo, owner: MessagePlan) -> FieldPlan:
        if f.label is Label.MAP:
            assert f.key is not None
            fp = FieldPlan(f.tag, f.proto_name, Kind.MESSAGE)
            fp.repeated = fp.is_map = True
            camel = json_name(f.proto_name)
            entry = MessagePlan(None, f"{owner.full_name}.{camel[:1].upper()}{camel[1:]}Entry")
            fp.key = self._value(FieldPlan(1, "key", f.key.kind), f.key)
            fp.value = self._value(FieldPlan(2, "value", f.value.kind), f.value)
            for part in (fp.key, fp.value):
                part.implicit = not self.proto2 and part.message is None
            fp.key.index, fp.value.index = 0, 1
            entry.fields = [fp.key, fp.value]
            entry.finish()
            fp.message = entry
            return fp
        vt = f.value
        name = f.proto_name
        if f.group:
            name = f.proto_name[:1].upper() + f.proto_name[1:]  # the group's type name
        fp = self._value(FieldPlan(f.tag, name, vt.kind), vt)
        if f.group:
            fp.group = True
            fp.wire = SGROUP
            fp.type_name = name
        if f.label is Label.REPEATED:
            fp.repeated = True
            fp.packable = vt.kind in PACKABLE
            return fp
        fp.oneof = f.oneof
        fp.implicit = self._implicit(f)
        return fp

    def _implicit(self, f: FieldInfo) -> bool:
        """Whether the schema gives singular ``f`` implicit presence (no ``optional``)."""
        vt = f.value
        if self.proto2 or f.oneof is not None or f.required or f.label is Label.OPTIONAL:
            return False
        if vt.kind in _MESSAGE_LIKE:
            return False
        if vt.kind is Kind.ENUM and vt.closed:
            return False
        default = f.default_factory() if f.default_factory is not None else f.default
        if default is MISSING:
            default = zero_value(vt)
        return bool(_is_zero(vt, default))

    def _value(self, fp: FieldPlan, vt: ValueType) -> FieldPlan:
        if vt.kind in BCL_KINDS:
            fp.kind = Kind.MESSAGE
            fp.message = bcl_plan(vt.kind)
            return fp
        target = self._target(vt)
        if target is not None:
            fp.kind = Kind.MESSAGE
            fp.message = self.message(target)
        elif vt.kind is Kind.ENUM:
            assert vt.py_type is not None
            fp.enum = self._enum(vt.py_type)
            fp.closed = vt.closed or self.proto2
        return fp

    def _enum(self, enum_cls: type) -> EnumPlan:
        found = self.enums.get(enum_cls)
        if found is not None:
            return found
        members: dict[str, Any] = dict(enum_cls.__members__)  # type: ignore[attr-defined]
        name_of: dict[int, str] = {}
        for name, member in members.items():
            name_of.setdefault(int(member.value), name)  # aliases: the first name
        if 0 not in name_of:
            closed = self._closed(enum_cls)
            flag = issubclass(enum_cls, enum.Flag)
            if flag or enum_cls in self.map_values or (not self.proto2 and not closed):
                base = re.sub(
                    r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", enum_cls.__name__
                ).upper()
                zero = f"{base}_UNSPECIFIED"
                while zero in members:
                    zero += "_"
                name_of = {0: zero, **name_of}
        prefix = f"{self.package}." if self.package else ""
        found = self.enums[enum_cls] = EnumPlan(prefix + enum_cls.__name__, name_of)
        return found

    @staticmethod
    def _closed(enum_cls: type) -> bool:
        from .._core.contract import _CLOSED_ENUMS

        return enum_cls in _CLOSED_ENUMS
