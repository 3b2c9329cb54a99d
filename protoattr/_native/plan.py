"""Compile resolved contracts into plans for the C engine, and install them.

A plan is data: per field its attribute name, number, label, precomputed tag
bytes, value kind, the default it is compared with on encode, what it starts
as and becomes when absent on decode, and how the class is constructed (the
same positional/keyword split the generated Python decoder uses).  Every
decision that needs Python typing is made here; the engine only knows the
wire format.

A contract the engine does not run yet (see :func:`unsupported`) keeps its
Python codec; contracts that nest it call that codec back, so ``backend=
"native"`` is always correct.  The Python codec also stays behind every plan:
the engine hands any input it does not take on (a wrong type, a number out of
range, malformed bytes, a merge) to it, so results and errors are the Python
backend's own.
"""

from __future__ import annotations

import functools
import struct
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._core import bcl as _bcl
from .._core import convert as _convert
from .._core.contract import (
    MISSING,
    ContractInfo,
    FieldInfo,
    Label,
    ValueType,
    contract_base,
    has_declared_subtypes,
    zero_value,
)
from .._core.convert import surrogate_for
from .._core.errors import ContractError
from .._core.facts import contract_fact
from .._core.types import BCL_KINDS, Kind
from .._core.wire import tag_bytes
from .._python.plain import init_assigns as _init_assigns
from .._python.runtime import (
    BUDGET,
    UNKNOWN_KEY,
    can_store_unknown,
    get_unknown,
    set_unknown,
    too_many_messages,
    unknown_key,
)
from . import engine

if TYPE_CHECKING:
    from .._model.codecs import Codec, CodecModel
    from ._engine import Plan

__all__ = ["KINDS", "NativeBackend", "PlanSpec", "reads_dict", "unsupported"]

#: ``Plan.setup``'s arguments but the model's max_depth and the Python codec:
#: (cls, fields, ctor_spec, unknown_spec, use_dict, hier_spec)
PlanSpec = tuple[
    type, tuple[tuple[Any, ...], ...], tuple[Any, ...], tuple[Any, ...] | None, bool, Any
]

#: Kind -> the engine's number for it (plan.h's K_* enum).
KINDS: dict[Kind, int] = {
    k: i + 1
    for i, k in enumerate(
        [
            Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
            Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64, Kind.BOOL, Kind.ENUM,
            Kind.FLOAT, Kind.DOUBLE, Kind.STRING, Kind.BYTES, Kind.MESSAGE, Kind.TIMESTAMP,
            Kind.DURATION, Kind.BCL_DATETIME, Kind.BCL_TIMESPAN, Kind.BCL_DECIMAL, Kind.BCL_GUID,
        ]
    )
}  # fmt: skip
#: the kind number of a message field written as a group (engine.h's K_GROUP_SPEC)
GROUP_KIND = 64
ENC_DEFAULT, ENC_PRESENT, ENC_ALWAYS, ENC_PRESENT_NOT_NONE = 0, 1, 2, 3
INIT_NULL, INIT_VALUE, INIT_LIST, INIT_DICT = 0, 1, 2, 3
ABSENT_NONE, ABSENT_REQUIRED, ABSENT_FACTORY, ABSENT_EMPTY, ABSENT_VALUE = 0, 1, 2, 3, 4

_VARINT = {Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
           Kind.BOOL, Kind.ENUM}  # fmt: skip
_FLOATS = {Kind.FLOAT: "<f", Kind.DOUBLE: "<d"}
_I64 = {Kind.FIXED64, Kind.SFIXED64, Kind.DOUBLE}
_I32 = {Kind.FIXED32, Kind.SFIXED32, Kind.FLOAT}
CONV_NONE, CONV_CALL, CONV_FLAG, CONV_BYTEARRAY = 0, 1, 2, 3
CONV_DECIMAL, CONV_UUID_STR, CONV_UUID_BYTES, CONV_DATE = 4, 5, 6, 7
CONV_DATETIME_TICKS, CONV_TIMESPAN_TICKS = 8, 9
#: (to_wire, from_wire) -> what convert.c does itself for them (convert.h's CONV_*)


@functools.cache
def _conversions() -> dict[tuple[Any, Any], int]:
    """The conversions the engine does itself, by their converters (made when a converted
    value is first planned: the tick forms' converters import ``datetime``)."""
    return {
        (None, bytearray): CONV_BYTEARRAY,
        (_convert.decimal_to_str, _convert.str_to_decimal): CONV_DECIMAL,
        (_convert.uuid_to_str, _convert.str_to_uuid): CONV_UUID_STR,
        (_convert.uuid_to_bytes, _convert.bytes_to_uuid): CONV_UUID_BYTES,
        (_convert.date_to_days, _convert.days_to_date): CONV_DATE,
        (_bcl.datetime_to_ticks, _bcl.ticks_to_datetime): CONV_DATETIME_TICKS,
        (_bcl.timedelta_to_ticks, _bcl.ticks_to_timedelta): CONV_TIMESPAN_TICKS,
    }


#: Timestamp and Duration: read and built by the engine, with helpers for the unusual
_WELL_KNOWN_TIMES = frozenset({Kind.TIMESTAMP, Kind.DURATION})


@functools.cache
def _time_helpers(kind: Kind) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A Timestamp's or Duration's Python helpers (:mod:`protoattr._python.times`, which
    imports ``datetime``: a plan holding one is made once datetimes exist)."""
    from .._python import times

    if kind is Kind.TIMESTAMP:
        return times.encode_timestamp, times.decode_timestamp
    return times.encode_duration, times.decode_duration


# Enum members read once: an attribute of an Enum class goes through EnumType's
# __getattr__ hook, and Label's hash is a Python call; the planner compares by identity.
_MESSAGE, _ENUM = Kind.MESSAGE, Kind.ENUM
_BOOL, _STRING, _BYTES = Kind.BOOL, Kind.STRING, Kind.BYTES
#: the kinds whose default is compared as the int it is (_default_cmp's last case)
_INTEGERS = frozenset(
    {Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
     Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64}
)  # fmt: skip
_SINGULAR, _OPTIONAL, _REPEATED, _MAP = Label.SINGULAR, Label.OPTIONAL, Label.REPEATED, Label.MAP
#: kinds whose singular field is written when present, not compared with a default
_PRESENCE_KINDS = frozenset({Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION, Kind.BCL_DATETIME})
#: (field number << 3 | wire type) -> its tag bytes, for fields 16 and up (see _ONE_BYTE)
_TAGS: dict[int, bytes] = {}
#: types whose instances are never data descriptors (builtins: no attribute can be added)
_PLAIN_TYPES = frozenset({int, str, bytes, float, bool, complex, tuple, frozenset, type(None)})


def _bcl_domain(kind: Kind) -> type | None:
    """The class a bcl.proto kind's values are built as when it is not a datetime's
    (Decimal, UUID; given as the domain, with no conversion).  ``decimal`` and ``uuid``
    are imported here, by a plan that has such a field."""
    if kind is Kind.BCL_DECIMAL:
        import decimal

        return decimal.Decimal
    if kind is Kind.BCL_GUID:
        import uuid

        return uuid.UUID
    return None


def _wire_type(kind: Kind) -> int:
    if kind in _VARINT:
        return 0
    if kind in _I64:
        return 1
    if kind in _I32:
        return 5
    return 2


_WIRE_TYPES: dict[Kind, int] = {k: _wire_type(k) for k in Kind}


def _tag(number: int, wire_type: int) -> bytes:
    """``tag_bytes(number, wire_type)``, made once per process for each pair."""
    key = number << 3 | wire_type
    found = _TAGS.get(key)
    if found is None:
        found = _TAGS[key] = tag_bytes(number, wire_type)
    return found


#: the tags of fields 1 to 15 (one byte each), by ``number << 3 | wire type``
_ONE_BYTE = [bytes((key,)) for key in range(128)]
#: the tags of fields 1 to 15 by number, then wire type (0 to 5)
_SMALL_TAGS = [_ONE_BYTE[number << 3 : number << 3 | 6] for number in range(16)]


def levels_of_subtree(model: CodecModel, cls: type) -> list[type]:
    """``cls`` and its descendants in the subtype tree."""
    out = [cls]
    for _, sub in model._children_of(cls):
        out.extend(levels_of_subtree(model, sub))
    return out


def levels_of(model: CodecModel, cls: type) -> list[type]:
    """The levels of ``cls``'s hierarchy as the generated decoder lists them: the root,
    then its descendants depth first (``[cls]`` for a contract without subtypes)."""
    if not model._subtypes and contract_base(cls) is None and not has_declared_subtypes(cls):
        return [cls]  # outside any hierarchy, the common case: told without walking one
    return levels_of_subtree(model, model._chain(cls)[-1])


def _oneof_key(f: FieldInfo) -> tuple[str, str] | None:
    """Members of one oneof: the same name, declared by the same class."""
    return None if f.oneof is None else (f.owner, f.oneof)


def unsupported(
    model: CodecModel, info: ContractInfo, levels: list[type] | None = None
) -> str | None:
    """Why the engine cannot run ``info``'s contract yet (``None``: it can).

    A contract in a hierarchy runs natively when every level of it does (its plan
    holds them all); ``levels`` are its :func:`levels_of`, if the caller has them."""
    if levels is None:
        levels = levels_of(model, info.cls)
    return _vet(model, info, levels, None)


def _vet(
    model: CodecModel,
    info: ContractInfo,
    levels: list[type],
    cmps: dict[int, Any] | None,
) -> str | None:
    """:func:`unsupported`, keeping in ``cmps`` (when given) the default compared with of
    every field it converted one for, by the field's ``id``: the planner uses them rather
    than converting each default a second time (the resolved contracts keep the fields,
    and so their ids, alive; the backend empties ``cmps`` once each install is done)."""
    if len(levels) == 1:  # a flat contract: its own fields are the contract's
        reason, converted = _flat_vetting(info)
        if cmps is not None and reason is None:
            cmps.update(converted)
        return reason
    fields = [f for level in levels for f in model._own_fields(level)]
    if len({f.name for f in fields}) != len(fields):
        return "inheritance: two levels of the hierarchy have a field of the same name"
    if len(model._chain(info.cls)) > 64:
        return "inheritance more than 64 levels deep"
    return _vet_fields(fields, cmps)


@contract_fact
def _flat_vetting(info: ContractInfo) -> tuple[str | None, dict[int, Any]]:
    """:func:`_vet` of a flat contract, whose answer is its fields' alone: worked out once
    per contract, not once per model planning it (the defaults converted kept with it)."""
    converted: dict[int, Any] = {}
    return _vet_fields(info.fields, converted), converted


def _vet_fields(fields: Sequence[FieldInfo], cmps: dict[int, Any] | None) -> str | None:
    """:func:`_vet` of the fields of every level of a contract."""
    oneofs = False
    for f in fields:
        # the fields _field compares with a default: singular, not required, no presence
        if f.label is _SINGULAR and not f.required:
            vt = f.value
            kind = vt.kind
            if kind in _PRESENCE_KINDS:
                pass
            elif (
                type(f.default) is int
                and vt.domain is None
                and f.default_factory is None
                and kind in _INTEGERS
            ):  # _default_cmp's most common case, without its call
                if cmps is not None:
                    cmps[id(f)] = f.default
            else:
                try:
                    cmp = _default_cmp(f)
                except _Unusual as exc:
                    return f"{f.where}: {exc}"
                if cmps is not None:
                    cmps[id(f)] = cmp
        if f.oneof is not None:
            oneofs = True
    if oneofs and len({_oneof_key(f) for f in fields if f.oneof is not None}) > 64:
        return "more than 64 oneofs"
    return None


class _Unusual(Exception):
    """A default the engine does not compare with (the Python codec does)."""


def _default_cmp(f: FieldInfo) -> Any:
    """The default a singular scalar is compared with, in the form the engine uses."""
    default = f.default_factory() if f.default_factory is not None else f.default
    vt = f.value
    if vt.domain is not None:  # (without a domain, nothing converts)
        try:
            default = _converted_default(vt, default)
        except Exception as exc:  # the Python codec meets the same error on every encode
            raise _Unusual(f"default {default!r} does not convert ({exc})") from None
    kind = vt.kind
    if type(default) is int and kind in _INTEGERS:  # the most common: compared as it is
        return default
    if kind is _STRING:
        if type(default) is not str:
            raise _Unusual(f"default {default!r} of a string")
        try:
            return default.encode()
        except UnicodeEncodeError:
            raise _Unusual("default that is not UTF-8") from None
    if kind in BCL_KINDS:  # compared with == (Decimal('0.00') is 0, as in .NET)
        return default
    if kind in _FLOATS:
        try:
            return struct.pack(_FLOATS[kind], default)
        except (struct.error, TypeError):
            return b"\x00" * struct.calcsize(_FLOATS[kind])
    if kind is _BOOL:
        return bool(default)
    if kind is _ENUM:
        default = getattr(default, "value", default)
        if not isinstance(default, int) or isinstance(default, bool):
            raise _Unusual(f"default {default!r} of an enum")
        return int(default)
    if kind is _BYTES:
        if type(default) is not bytes:
            raise _Unusual(f"default {default!r} of bytes")
        return default
    if type(default) is not int:
        raise _Unusual(f"default {default!r}")
    return default


#: what planner.c's field_specs reads of the planner, in its order (its C_* constants)
_FIELD_CONSTS = (
    _default_cmp,
    MISSING,
    _SINGULAR,
    _REPEATED,
    _MAP,
    _PRESENCE_KINDS,
    _WIRE_TYPES,
    _SMALL_TAGS,
)


def _reads_dict(cls: type, info: ContractInfo) -> bool:
    """Whether encode may read ``info``'s fields from the instance ``__dict__`` of ``cls``:
    the class has one and no field is shadowed by a data descriptor or a custom attribute
    lookup."""
    if not getattr(cls, "__dictoffset__", 0):
        return False
    if cls.__getattribute__ is not object.__getattribute__:  # type: ignore[comparison-overlap]
        return False
    # each decided by the first class naming it
    remaining = {f.name for f in info.fields}
    for klass in cls.__mro__:
        namespace = vars(klass)
        found = remaining & namespace.keys()
        if found:
            for name in found:
                kind = type(namespace[name])  # a class default, most often an int or a str
                if kind not in _PLAIN_TYPES and _is_data_descriptor(kind):
                    return False
            remaining -= found
            if not remaining:
                break
    return True


@contract_fact
def reads_dict(info: ContractInfo) -> bool:
    """:func:`_reads_dict` of ``info``'s class, worked out once per contract (the class's
    namespaces decide it, not a model)."""
    return _reads_dict(info.cls, info)


def _is_data_descriptor(kind: type) -> bool:
    """Whether instances of ``kind`` are data descriptors (what ``tp_descr_set`` says: a
    ``__set__`` or ``__delete__`` in its MRO), found without raising AttributeError as
    ``hasattr`` does for each plain default."""
    for k in kind.__mro__:
        namespace = vars(k)
        if "__set__" in namespace or "__delete__" in namespace:
            return True
    return False


class NativeBackend:
    """The plans of one model: built when its codecs are installed, dropped on reset."""

    def __init__(self, model: CodecModel) -> None:
        mod = engine()
        assert mod is not None, "choose() checked that the engine is built"
        self._engine = mod
        self.model = model
        self.plans: dict[type, Plan] = {}
        self.python: dict[type, tuple[Callable[[Any], bytes], Callable[..., Any]]] = {}
        self.reasons: dict[type, str] = {}
        #: Plan.setup's arguments but the model's max_depth and the Python codec: plain
        #: data and references (nested plans, classes, functions), no reflection needed
        self.specs: dict[type, PlanSpec] = {}
        #: contracts _value found supported and is planning now, with their levels:
        #: installed() need not find either again when planning one comes back through
        #: the model
        self._vetted: dict[type, list[type]] = {}
        #: plans made but not set up: a flat contract nested in one being planned is
        #: vetted then and set up when the engine first meets it (:meth:`_pend`), with
        #: its levels and the defaults _vet converted for it
        self._pending: dict[type, tuple[Plan, list[type], dict[int, Any]]] = {}
        #: the defaults _vet converted for fields about to be planned (see _vet), kept
        #: while an install runs (``_installing`` deep: a plan plans what it nests)
        self._cmps: dict[int, Any] = {}
        self._installing = 0
        #: value specs of the scalars, enums and well-known types planned so far, by the
        #: id of their (frozen) ValueType, kept with it: fields of a plain kind share one
        #: (the specs themselves come from the process's :data:`_SCALAR_SPECS`)
        self._values: dict[int, tuple[ValueType, tuple[Any, ...]]] = {}
        #: natively planned messages' value specs by (class, kind number, closed)
        self._messages: dict[tuple[type, int, Any], tuple[Any, ...]] = {}
        #: TypeModel(max_messages=N): the bound the engine counts, in the thread-local
        #: BUDGET the generated decoders count in too (None: no bound)
        self.budget = (
            None if model.max_messages is None else (model.max_messages, BUDGET, too_many_messages)
        )

    def install_entry_points(self, base: type) -> None:
        """Shadow the model's ``serialize``/``deserialize``/``measure`` with the engine's
        entry points (instance attributes): they run a plan straight from the call and
        hand every other case to the Python method, unchanged.  ``base`` is the class
        defining the methods; a subclass that overrides one of them keeps its own."""
        model = self.model
        cls = type(model)
        for mode, name in enumerate(_ENTRY_POINTS):
            method = getattr(cls, name)
            if method is not getattr(base, name):
                continue
            vars(model)[name] = self._engine.Entry(
                mode, model._codecs, model._lists, method.__get__(model, cls)
            )
        to_json = getattr(cls, "to_json", None)  # TypeModel's: JSON written in C (json_write.c)
        if to_json is not None and to_json.__qualname__ == "TypeModel.to_json":
            vars(model)["to_json"] = self._engine.JsonEntry(
                vars(model), to_json.__get__(model, cls)
            )
        from_json = getattr(cls, "from_json", None)  # TypeModel's: JSON read in C (json_read.c)
        if from_json is not None and from_json.__qualname__ == "TypeModel.from_json":
            vars(model)["from_json"] = self._engine.JsonReadEntry(
                vars(model), from_json.__get__(model, cls)
            )

    # -- the model's hooks (called under the model's lock) ---------------------

    def installed(
        self, codec: Codec, encode: Callable[[Any], bytes], decode: Callable[..., Any]
    ) -> bool:
        """``codec``'s Python functions were just generated: run it natively if the engine
        can.  True when the plan is installed as ``codec.encode``/``decode``; False when
        the caller installs the Python functions."""
        self._installing += 1
        try:
            return self._install_plan(codec, encode, decode)
        finally:
            self._installing -= 1
            if not self._installing:
                self._cmps.clear()

    def _install_plan(
        self, codec: Codec, encode: Callable[[Any], bytes], decode: Callable[..., Any]
    ) -> bool:
        cls = codec.cls
        self.python[cls] = (encode, decode)
        pending = self._pending.get(cls)
        levels: list[type] | None
        if pending is not None:  # vetted when the contract nesting it was planned
            levels = pending[1]
            self._cmps.update(pending[2])
        else:
            self.plans.pop(cls, None)
            levels = self._vetted.get(cls)
        if levels is None:
            levels = levels_of(self.model, cls)
            reason = _vet(self.model, codec.info, levels, self._cmps)
            if reason is not None:
                self.reasons[cls] = reason
                return False
        self.reasons.pop(cls, None)
        try:
            self._plan(cls, levels)
            return True
        except (TypeError, ValueError, OverflowError) as exc:  # a planner bug: stay correct
            if cls in self._pending:  # its plan stays unset: the engine hands it over
                self._pending.pop(cls)[0].set_pending(None)
            self._forget_unready()
            self.reasons[cls] = f"plan rejected ({exc})"
            warnings.warn(
                f"protoattr: {cls.__qualname__} runs its Python codec: the native plan was "
                f"rejected ({exc}); please report this",
                RuntimeWarning,
                stacklevel=3,  # the caller of installed(),
            )
            return False

    def waiting(self) -> list[type]:
        """The contracts whose plans wait for their first use (see :meth:`_pend`):
        ``compile()`` sets them up with the rest."""
        return list(self._pending)

    def _forget_unready(self) -> None:
        """Drop plans whose setup did not finish (their codecs still hold the Python
        functions; plans nesting them hand over to Python when they meet them)."""
        pending = self._pending
        for cls in [c for c, plan in self.plans.items() if not plan.ready and c not in pending]:
            del self.plans[cls]

    def reset(self, cls: type) -> None:
        """``cls``'s hierarchy changed: its plan must not run any more."""
        plan = self.plans.pop(cls, None)
        if plan is not None:
            plan.invalidate()
        self._pending.pop(cls, None)
        self.python.pop(cls, None)
        self.reasons.pop(cls, None)
        self.specs.pop(cls, None)
        for held in [held for held in self._messages if held[0] is cls]:
            del self._messages[held]  # (its old plan is not kept alive)

    # -- ahead-of-time modules (aot.py writes the specs; importing installs them) --

    def plan_for(self, cls: type) -> Plan:
        """``cls``'s plan, set up or not yet (an ahead-of-time module's plans refer to
        each other before all are set up; a plan meeting one not ready hands over)."""
        plan = self.plans.get(cls)
        if plan is None:
            plan = self.plans[cls] = self._engine.Plan()
        return plan

    def install_ahead(
        self,
        codec: Codec,
        encode: Callable[[Any], bytes],
        decode: Callable[..., Any],
        written: tuple[PlanSpec, int] | str,
    ) -> None:
        """Install the plan an ahead-of-time module carries for ``codec``: its spec and
        the max_depth its Python codec was generated with (a str: why the writing model
        kept the Python codec), with no reflection over the class."""
        cls = codec.cls
        self.python[cls] = (encode, decode)
        if isinstance(written, str):
            self.reasons[cls] = written
            return
        spec, max_depth = written
        if spec[0] is not cls:
            raise ValueError(f"the plan of {spec[0]!r} given for {cls!r}")
        self.plan_for(cls).setup(*spec[:5], max_depth, encode, decode, spec[5], self.budget)
        self.specs[cls] = spec
        self.reasons.pop(cls, None)
        codec.encode = self.plans[cls].encode
        codec.decode = self.plans[cls].decode

    def explain(self, cls: type) -> str:
        """``"native"``, or ``"python: <why>"`` for a contract that keeps its Python codec."""
        self.model._compiled_codec(cls)
        if cls in self.plans and self.plans[cls].ready:
            return "native"
        return f"python: {self.reasons.get(cls, 'not a contract the model compiled')}"

    def message_list(self, item: type, fallback: Any) -> Any:
        """The codec of a top-level ``list[item]``: the engine's loop where ``item`` runs
        natively (``fallback``, the Python list codec, behind it), else ``fallback``."""
        if surrogate_for(item) is not None:
            return fallback
        try:
            self.model._compiled_codec(item)
        except ContractError:
            return fallback  # reported where the list is first used, as without the engine
        plan = self.plans.get(item)
        if plan is None:
            return fallback
        plan.set_list_fallback(fallback.encode, fallback.decode)
        return _NativeList(plan)

    # -- building ----------------------------------------------------------------

    def _plan(self, cls: type, levels: list[type] | None = None) -> Plan:
        existing = self.plans.get(cls)
        if existing is not None and cls not in self._pending:
            return existing
        codec = self.model._codec(cls)
        if cls not in self.python:
            if not codec.compiled:
                self.model._install(codec)  # comes back through installed()
                if cls in self.plans:
                    return self.plans[cls]
            self.python[cls] = (codec.encode, codec.decode)  # installed ahead of time
        pending = self._pending.get(cls)  # kept until set up: a failed set-up is tried again
        plan: Plan = self._engine.Plan() if pending is None else pending[0]
        self.plans[cls] = plan  # before the fields: recursive contracts find it
        info = codec.info
        py_encode, py_decode = self.python[cls]
        if levels is None:
            levels = levels_of(self.model, cls)
        flat = len(levels) == 1
        # the slots: every level's own fields (a flat contract: its fields)
        if flat:
            slots = info.fields
        else:
            own = {level: self.model._own_fields(level) for level in levels}
            slots = [f for level in levels for f in own[level]]
        keys = [_oneof_key(f) for f in slots if f.oneof]
        if keys:
            groups = {key: i + 1 for i, key in enumerate(dict.fromkeys(keys))}
            fields = self._fields(slots, [groups.get(_oneof_key(f), 0) for f in slots])
        else:
            fields = self._fields(slots, None)
        reads = reads_dict(info)
        if flat:
            ctor = _flat_ctor(info)
            hier = _flat_hier_spec(info, reads, ctor)
            spec: PlanSpec = (cls, fields, ctor, _unknown_spec(cls, info), reads, hier)
        else:
            index = {f.name: i for i, f in enumerate(slots)}
            hier = self._hier_spec(cls, levels, own, index)
            spec = (cls, fields, hier[3][hier[0]][10], None, reads, hier)
        self.specs[cls] = spec  # what an ahead-of-time module writes (see aot.py)
        plan.setup(*spec[:5], self.model.max_depth, py_encode, py_decode, spec[5], self.budget)
        if pending is not None:
            del self._pending[cls]
        codec.encode = plan.encode
        codec.decode = plan.decode
        return plan

    def _hier_spec(
        self,
        cls: type,
        levels: list[type],
        own: dict[type, list[FieldInfo]],
        index: dict[str, int],
    ) -> tuple[Any, ...]:
        """The levels of ``cls``'s plan: ``(requested, get_unknown, set_unknown, levels)``,
        each level ``(cls, parent, subtype number, its tag, own slots, children, unknown key,
        unknown in __dict__, fields in __dict__, a subtype of cls, how it is built)``."""
        model = self.model
        position = {level: i for i, level in enumerate(levels)}
        root = levels[0]
        # cls's descendants (a flat contract has none: its levels are itself alone)
        below = set(levels_of_subtree(model, cls)) - {cls} if len(levels) > 1 else set()
        specs = []
        for level in levels:
            link = model._parent_of(level) if level is not root else None
            parent, number = (position[link[0]], link[1]) if link is not None else (-1, 0)
            linfo = model.info(level)
            keeps = linfo.options.preserve_unknown and can_store_unknown(level)
            chain = list(reversed(model._chain(level)))
            chain_fields = [f for lv in chain for f in own[lv]]
            specs.append(
                (
                    level,
                    parent,
                    number,
                    tag_bytes(number, 2) if number else b"",
                    tuple(index[f.name] for f in own[level]),
                    tuple(position[sub] for _, sub in model._children_of(level)),
                    unknown_key(level, root) if keeps else None,
                    bool(getattr(level, "__dictoffset__", 0)),
                    reads_dict(linfo),
                    level in below,
                    _ctor_spec(linfo, chain_fields, index),
                )
            )
        return (position[cls], get_unknown, set_unknown, tuple(specs))

    def _fields(self, slots: Sequence[FieldInfo], oneofs: list[int] | None) -> tuple[Any, ...]:
        """The slots' field specs (see plan.c's field_setup), each with its oneof number
        (``oneofs`` None: none is in a oneof).  The engine writes the common shapes out
        (planner.c: a singular scalar compared with its default, a repeated field, a
        map, numbered 1 to 15), each with only the decisions it needs, and hands every
        other field to :meth:`_any_field`; a value spec it has not made comes from
        :meth:`_value`, a default vetting did not convert from ``_default_cmp``."""
        specs: tuple[Any, ...] = self._engine.field_specs(
            slots, oneofs, self._values, self._cmps, self._value, self._any_field, _FIELD_CONSTS
        )
        return specs

    def _any_field(
        self, f: FieldInfo, oneof: int, value: tuple[Any, ...] | None
    ) -> tuple[Any, ...]:
        """:meth:`_field` of every shape, each decision taken in turn (``value``: the
        field's value spec when the caller has it)."""
        vt = f.value
        kind = vt.kind
        label = f.label
        cmp = None
        if label is _SINGULAR or label is _OPTIONAL:
            label_number = 0 if label is _SINGULAR else 1
            if f.required:
                enc_mode = ENC_ALWAYS
            elif label is _OPTIONAL:
                enc_mode = ENC_PRESENT
            elif kind in _PRESENCE_KINDS:
                # None is refused where absent reads back as a value (the generated encoder's rule)
                enc_mode = ENC_PRESENT if f.default is None else ENC_PRESENT_NOT_NONE
            else:  # compared with its default, which _vet has just converted
                enc_mode = ENC_DEFAULT
                cmp = self._cmps.pop(id(f), _Unusual)  # a class: never a default's form
                if cmp is _Unusual:
                    cmp = _default_cmp(f)
        else:
            label_number = 2 if label is _REPEATED else 3
            enc_mode = ENC_ALWAYS
        if label is _REPEATED:  # _initial's first cases, without its call
            init_mode, init_value, absent_mode, absent_value = INIT_LIST, None, ABSENT_NONE, None
            container = f.container if f.container is not list else None
        elif label is _MAP:
            init_mode, init_value, absent_mode, absent_value = INIT_DICT, None, ABSENT_NONE, None
            container = None
        elif kind is not _MESSAGE and not f.required:  # a scalar: _initial's last cases
            container = None
            if f.default_factory is not None:
                init_mode, init_value = INIT_NULL, None
                absent_mode, absent_value = ABSENT_FACTORY, f.default_factory
            else:
                init_mode, absent_mode, absent_value = INIT_VALUE, ABSENT_NONE, None
                init_value = None if f.default is MISSING else f.default
        else:
            init_mode, init_value, absent_mode, absent_value = _initial(f)
            container = None
        group = f.group
        if value is None:
            value = self._value(vt, group)
        if (
            kind in _WELL_KNOWN_TIMES
            and (label is _SINGULAR or label is _OPTIONAL)
            and _zero_like(f.default, vt)
        ):
            # the engine reads a Timestamp/Duration itself when the field still holds its
            # zero (merging into a zero is reading afresh): a default equal to the zero,
            # which the field starts from, is that zero too
            value = (*value[:8], f.default, *value[9:])
        number = f.tag
        wire_type = 3 if group else _WIRE_TYPES[kind]
        key = f.key
        return (
            f.name,
            number,
            label_number,
            f.packed,
            value,
            None if key is None else self._value(key),
            _ONE_BYTE[number << 3 | wire_type] if number < 16 else _tag(number, wire_type),
            _ONE_BYTE[number << 3 | 2] if number < 16 else _tag(number, 2),
            enc_mode,
            cmp,
            init_mode,
            init_value,
            absent_mode,
            absent_value,
            container,
            oneof,
        )

    def _value(self, vt: ValueType, group: bool = False) -> tuple[Any, ...]:
        if vt.kind is not _MESSAGE and not group:  # depends on the ValueType alone
            known = self._values.get(id(vt))
            if known is not None and known[0] is vt:
                return known[1]
            like = _parts(vt)
            found = _SCALAR_SPECS.get(like)  # its ValueType keeps the ids taken
            if found is None:
                found = _SCALAR_SPECS[like] = (vt, _value_spec(vt))
            self._values[id(vt)] = (vt, found[1])
            return found[1]
        if vt.kind is not _MESSAGE:
            return _value_spec(vt, group)
        assert vt.py_type is not None
        target = vt.py_type
        planned = self.plans.get(target)  # planned already: it was found supported then
        if planned is not None:
            sub: Any = planned
            native = True
        else:
            model = self.model
            levels = levels_of(model, target)
            flat = len(levels) == 1  # planned when the engine first meets it (see _pend)
            # (a pending plan keeps the defaults converted for it until it is set up)
            cmps: dict[int, Any] = {} if flat else self._cmps
            if _vet(model, model.info(target), levels, cmps) is None:
                if flat:
                    sub, native = self._pend(target, levels, cmps), True
                else:  # a hierarchy's plan is set up with every level at once
                    self._vetted[target] = levels
                    try:
                        sub, native = self._plan(target, levels), True
                    finally:
                        del self._vetted[target]
            else:
                sub, native = model._codec(target), False  # called back: looked up per call
        kind = GROUP_KIND if group else KINDS[vt.kind]
        if vt.encode_with is None and vt.decode_with is None:  # conversion()'s first case
            if not native:
                return (kind, sub, False, None, False, vt.closed, None, None, None, CONV_NONE,
                        None, None, None)  # fmt: skip
            # one spec for the fields holding the same plan the same way (a stale one,
            # whose plan was replaced, is told by its plan and made again)
            held = (target, kind, vt.closed)
            shared = self._messages.get(held)
            if shared is None or shared[1] is not sub:
                shared = (kind, sub, True, None, False, vt.closed, None, None, None,
                          CONV_NONE, None, None, None)  # fmt: skip
                self._messages[held] = shared
            return shared
        return (kind, sub, native, None, False, vt.closed, None, None, None, *conversion(vt))

    def _pend(self, cls: type, levels: list[type], cmps: dict[int, Any]) -> Plan:
        """A plan for ``cls`` (vetted: flat, supported) that the engine sets up when it
        first meets one of its values, through the model (``_compiled_codec``, which comes
        back through :meth:`installed`).  A first call thus plans the contracts its value
        holds, not every contract its class can reach; ``compile()`` still plans all."""
        plan: Plan = self._engine.Plan()
        model = self.model
        model._codec(cls)  # made now: a change of cls's hierarchy resets it (and this plan)
        plan.set_pending(functools.partial(model._compiled_codec, cls))
        self.plans[cls] = plan
        self._pending[cls] = (plan, levels, cmps)
        return plan


#: the value specs of the scalars, enums and well-known types every model has planned, by
#: the identities of what their ValueType holds (:func:`_parts`), each kept with the first
#: ValueType seen, which keeps those identities taken.  A spec depends on its ValueType
#: alone, and ValueTypes alike in every part are many: one per enum field, one per field
#: at a model's compatibility level.  So fields of one enum share a spec, and a model
#: planning a contract another planned works out none again; the table grows with the
#: distinct value types of the process's contracts, not with its models.
_SCALAR_SPECS: dict[tuple[int, ...], tuple[ValueType, tuple[Any, ...]]] = {}


def _parts(vt: ValueType) -> tuple[int, ...]:
    """The identities of everything ``vt`` holds: two ValueTypes with the same have the
    same :func:`_value_spec` (identity, not equality: ``0 == False == 0.0``)."""
    return (id(vt.kind), id(vt.py_type), id(vt.closed), id(vt.domain), id(vt.encode_with),
            id(vt.decode_with), id(vt.zero), id(vt.with_kind))  # fmt: skip


def _value_spec(vt: ValueType, group: bool = False) -> tuple[Any, ...]:
    """The engine's spec of a value that is not a message: its kind, enum table, helpers,
    zero and conversion (plain data, the same for every field of this ValueType)."""
    members = None
    plain = False
    helpers: tuple[Any, Any] = (None, None)
    kind = vt.kind
    if kind is _ENUM:
        assert vt.py_type is not None
        enum_cls: Any = vt.py_type
        members = {m.value: m for m in enum_cls}
        plain = not issubclass(enum_cls, int)
    elif kind in _WELL_KNOWN_TIMES:
        helpers = _time_helpers(kind)
    elif kind in BCL_KINDS:
        encode, decode = _bcl.codec(kind, vt.with_kind)  # (bcl.c's helpers)
        domain = _bcl_domain(kind)
        zero = zero_value(vt)
        # `closed` carries IncludeDateTimeKind for a bcl.DateTime (bcl.c)
        return (KINDS[kind], None, False, None, False, vt.with_kind, encode, decode,
                zero, CONV_NONE, None, None, domain)  # fmt: skip
    number = GROUP_KIND if group else KINDS[kind]
    return (number, None, False, members, plain, vt.closed, *helpers, zero_value(vt),
            *conversion(vt))  # fmt: skip


def _flat_hier_spec(info: ContractInfo, reads: bool, ctor: tuple[Any, ...]) -> tuple[Any, ...]:
    """:meth:`NativeBackend._hier_spec` of a contract without bases or subtypes: one level,
    the root, which is the class requested, built by ``ctor`` (the plan's own)."""
    cls = info.cls
    keeps = info.options.preserve_unknown and can_store_unknown(cls)
    level = (
        cls,
        -1,
        0,
        b"",
        tuple(range(len(info.fields))),
        (),
        unknown_key(cls, cls) if keeps else None,
        bool(getattr(cls, "__dictoffset__", 0)),
        reads,
        False,
        ctor,
    )
    return (0, get_unknown, set_unknown, (level,))


@contract_fact
def _flat_ctor(info: ContractInfo) -> tuple[Any, ...]:
    """How a flat contract's plan builds its objects: as its generated ``__init__`` would,
    without the call where that is plain assignment (then the calling spec is not worked
    out at all).  Worked out once per contract: it is the class's, not a model's."""
    assigns = _init_assigns(info) if info.construct == "init" else None
    if assigns is not None:
        return (True, object.__new__, (), 0, None, assigns)
    return _flat_ctor_spec(info, {f.name: i for i, f in enumerate(info.fields)})


def _flat_ctor_spec(info: ContractInfo, index: dict[str, int]) -> tuple[Any, ...]:
    """``_ctor_spec(info, info.fields, index)`` of a flat contract, whose slots are its
    fields in order (``index``: each one's name -> its position), without its cases."""
    fields = info.fields
    if info.construct != "init":
        return (True, object.__new__, (), 0, None, tuple(range(len(fields))))
    call: list[int] = []
    get = index.get
    params = info.init_params
    rest = len(params)
    for i, (attr, _, kw_only) in enumerate(params):  # positional while they last
        found = get(attr)
        if found is None or kw_only:
            rest = i + (found is None)  # a param not a field: what follows is by keyword
            break
        call.append(found)
    npositional = len(call)
    kwnames = []
    for attr, init_name, _ in params[rest:]:
        found = get(attr)
        if found is not None:
            call.append(found)
            kwnames.append(init_name)
    late = tuple([i for i, f in enumerate(fields) if f.init_name is None])
    return (False, info.cls, tuple(call), npositional, tuple(kwnames) or None, late)


def _zero_like(default: Any, vt: ValueType) -> bool:
    """Whether ``default`` is a Timestamp/Duration field's zero in all but identity: a
    ``datetime`` at the epoch (aware: a naive one is not equal) or ``timedelta(0)``,
    which encodes as nothing, so that merging a value into it is reading the value."""
    if vt.kind not in _WELL_KNOWN_TIMES or vt.encode_with is not None:
        return False
    zero = zero_value(vt)
    return type(default) is type(zero) and default is not zero and default == zero


def conversion(vt: ValueType) -> tuple[int, Any, Any, Any]:
    """``(conv, to_wire, from_wire, domain)``: how a value that travels as another kind is
    converted (convert.c).  The converters are the ones the generated codec calls; the
    code names the types whose conversion the engine does itself (str() of an exact
    Decimal, a date's day number, ...)."""
    if vt.encode_with is None and vt.decode_with is None:
        return (CONV_NONE, None, None, None)
    if vt.kind is Kind.ENUM:  # IntFlag: any combination of flags is a value
        return (CONV_FLAG, vt.encode_with, vt.decode_with, None)
    code = _conversions().get((vt.encode_with, vt.decode_with), CONV_CALL)
    if code == CONV_BYTEARRAY and vt.domain is not bytearray:
        code = CONV_CALL
    return (code, vt.encode_with, vt.decode_with, vt.domain)


def _converted_default(vt: ValueType, default: Any) -> Any:
    """A converted scalar's default in the form encode compares with: its wire form
    (``to_wire(default)``, as the generated encoder compares), or for a bytearray
    (compared as it is) its bytes."""
    if vt.encode_with is not None and vt.domain is not None:
        return vt.encode_with(default)
    if vt.domain is bytearray and type(default) in (bytes, bytearray):
        return bytes(default)
    return default


class _NativeList:
    """A top-level ``list[T]`` of a natively run contract: the plan's list loop."""

    __slots__ = ("decode", "encode", "plan")

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.encode = plan.encode_list
        self.decode = plan.decode_list


_ENTRY_POINTS = ("serialize", "deserialize", "measure")  # modes 0, 1, 2 of entry.c


def _initial(f: FieldInfo) -> tuple[int, Any, int, Any]:
    """``(init_mode, init_value, absent_mode, absent_value)``: what a field holds before
    decoding and what it becomes when absent, as the generated decoder does it."""
    label = f.label
    if label is _REPEATED:
        return INIT_LIST, None, ABSENT_NONE, None
    if label is _MAP:
        return INIT_DICT, None, ABSENT_NONE, None
    message = f.value.kind is _MESSAGE
    if message or f.required:
        if f.required:
            return INIT_NULL, None, ABSENT_REQUIRED, None
        if f.default_factory is not None:
            return INIT_NULL, None, ABSENT_FACTORY, f.default_factory
        if label is _SINGULAR and message:
            if f.default is MISSING:
                return INIT_NULL, None, ABSENT_EMPTY, None
            return INIT_NULL, None, ABSENT_VALUE, f.default
        return INIT_NULL, None, ABSENT_NONE, None
    if f.default_factory is not None:
        return INIT_NULL, None, ABSENT_FACTORY, f.default_factory
    if f.default is MISSING:
        return INIT_VALUE, None, ABSENT_NONE, None
    return INIT_VALUE, f.default, ABSENT_NONE, None


def _ctor_spec(
    info: ContractInfo, fields: list[FieldInfo], index: dict[str, int]
) -> tuple[Any, ...]:
    """How the decoder builds the object: the generated decoder's call, as data.

    ``fields`` are the object's fields in the generated ``_build``'s order (the root
    level's first) and ``index`` their plan indices (a flat contract's is
    :func:`_flat_ctor_spec`, or its ``__init__``'s assignments: see :func:`_flat_ctor`)."""
    if info.construct != "init":
        return (True, object.__new__, (), 0, None, tuple(index[f.name] for f in fields))
    call: list[int] = []
    kwnames: list[str] = []
    positional = True
    npositional = 0
    # the names the object takes (all of index's when fields are every slot, as for a
    # flat contract: the names are unique and each field is a slot)
    every = len(index) == len(fields)
    mine: set[str] = set() if every else {f.name for f in fields}
    for attr, init_name, kw_only in info.init_params:
        found = index.get(attr) if every or attr in mine else None
        if found is None:  # not a field of the object: what follows goes by keyword
            positional = False
            continue
        call.append(found)
        if positional and not kw_only:
            npositional += 1
        else:
            positional = False
            kwnames.append(init_name)
    late = tuple([index[f.name] for f in fields if f.init_name is None])
    return (False, info.cls, tuple(call), npositional, tuple(kwnames) or None, late)


def _unknown_spec(cls: type, info: ContractInfo) -> tuple[Any, ...] | None:
    if not (info.options.preserve_unknown and can_store_unknown(cls)):
        return None
    return (UNKNOWN_KEY, bool(getattr(cls, "__dictoffset__", 0)), get_unknown, set_unknown)
