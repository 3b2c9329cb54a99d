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

import struct
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core.contract import MISSING, ContractInfo, FieldInfo, Label, ValueType, zero_value
from .._core.types import Kind
from .._core.wire import tag_bytes
from .._python.runtime import (
    UNKNOWN_KEY,
    can_store_unknown,
    decode_duration,
    decode_timestamp,
    encode_duration,
    encode_timestamp,
    get_unknown,
    set_unknown,
)
from . import engine

if TYPE_CHECKING:
    from .._model.codecs import Codec, CodecModel
    from ._engine import Plan

__all__ = ["KINDS", "NativeBackend", "unsupported"]

#: Kind -> the engine's number for it (plan.h's K_* enum).
KINDS: dict[Kind, int] = {
    k: i + 1
    for i, k in enumerate(
        [
            Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
            Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64, Kind.BOOL, Kind.ENUM,
            Kind.FLOAT, Kind.DOUBLE, Kind.STRING, Kind.BYTES, Kind.MESSAGE, Kind.TIMESTAMP,
            Kind.DURATION,
        ]
    )
}  # fmt: skip
_LABELS = {Label.SINGULAR: 0, Label.OPTIONAL: 1, Label.REPEATED: 2, Label.MAP: 3}
ENC_DEFAULT, ENC_PRESENT, ENC_ALWAYS, ENC_PRESENT_NOT_NONE = 0, 1, 2, 3
INIT_NULL, INIT_VALUE, INIT_LIST, INIT_DICT = 0, 1, 2, 3
ABSENT_NONE, ABSENT_REQUIRED, ABSENT_FACTORY, ABSENT_EMPTY, ABSENT_VALUE = 0, 1, 2, 3, 4

_VARINT = {Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
           Kind.BOOL, Kind.ENUM}  # fmt: skip
_FLOATS = {Kind.FLOAT: "<f", Kind.DOUBLE: "<d"}
_I64 = {Kind.FIXED64, Kind.SFIXED64, Kind.DOUBLE}
_I32 = {Kind.FIXED32, Kind.SFIXED32, Kind.FLOAT}
_TIME_HELPERS: dict[Kind, tuple[Callable[..., Any], Callable[..., Any]]] = {
    Kind.TIMESTAMP: (encode_timestamp, decode_timestamp),
    Kind.DURATION: (encode_duration, decode_duration),
}


def _wire_type(kind: Kind) -> int:
    if kind in _VARINT:
        return 0
    if kind in _I64:
        return 1
    if kind in _I32:
        return 5
    return 2


def unsupported(model: CodecModel, info: ContractInfo) -> str | None:
    """Why the engine cannot run ``info``'s contract yet (``None``: it can)."""
    cls = info.cls
    if model._children_of(cls) or model._parent_of(cls) is not None:
        return "inheritance (subtypes)"
    for f in info.fields:
        reason = _field_unsupported(f)
        if reason is not None:
            return f"{f.where}: {reason}"
    if len({f.oneof for f in info.fields if f.oneof is not None}) > 64:
        return "more than 64 oneofs"
    return None


def _field_unsupported(f: FieldInfo) -> str | None:
    if f.group:
        return "group"
    for vt in (f.value, f.key):
        if vt is not None and (vt.domain is not None or vt.encode_with or vt.decode_with):
            return "converted type or surrogate"
    if f.label is Label.SINGULAR and not f.required and _enc_mode(f) == ENC_DEFAULT:
        try:
            _default_cmp(f)
        except _Unusual as exc:
            return str(exc)
    return None


class _Unusual(Exception):
    """A default the engine does not compare with (the Python codec does)."""


def _enc_mode(f: FieldInfo) -> int:
    if f.required:
        return ENC_ALWAYS
    if f.label is Label.OPTIONAL:
        return ENC_PRESENT
    if f.value.kind in (Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION):
        # None is refused where absent reads back as a value (the generated encoder's rule)
        return ENC_PRESENT if f.default is None else ENC_PRESENT_NOT_NONE
    return ENC_DEFAULT


def _default_cmp(f: FieldInfo) -> Any:
    """The default a singular scalar is compared with, in the form the engine uses."""
    default = f.default_factory() if f.default_factory is not None else f.default
    kind = f.value.kind
    if kind in _FLOATS:
        try:
            return struct.pack(_FLOATS[kind], default)
        except (struct.error, TypeError):
            return b"\x00" * struct.calcsize(_FLOATS[kind])
    if kind is Kind.BOOL:
        return bool(default)
    if kind is Kind.ENUM:
        default = getattr(default, "value", default)
        if not isinstance(default, int) or isinstance(default, bool):
            raise _Unusual(f"default {default!r} of an enum")
        return int(default)
    if kind is Kind.STRING:
        if type(default) is not str:
            raise _Unusual(f"default {default!r} of a string")
        try:
            return default.encode()
        except UnicodeEncodeError:
            raise _Unusual("default that is not UTF-8") from None
    if kind is Kind.BYTES:
        if type(default) is not bytes:
            raise _Unusual(f"default {default!r} of bytes")
        return default
    if type(default) is not int:
        raise _Unusual(f"default {default!r}")
    return default


def _reads_dict(cls: type, info: ContractInfo) -> bool:
    """Whether encode may read the fields from the instance ``__dict__``: the class has
    one and no field is shadowed by a data descriptor or a custom attribute lookup."""
    if not getattr(cls, "__dictoffset__", 0):
        return False
    if cls.__getattribute__ is not object.__getattribute__:  # type: ignore[comparison-overlap]
        return False
    for f in info.fields:
        for klass in cls.__mro__:
            if f.name in vars(klass):
                attr = vars(klass)[f.name]
                if hasattr(type(attr), "__set__") or hasattr(type(attr), "__delete__"):
                    return False
                break
    return True


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

    # -- the model's hooks (called under the model's lock) ---------------------

    def installed(
        self, codec: Codec, encode: Callable[[Any], bytes], decode: Callable[..., Any]
    ) -> bool:
        """``codec``'s Python functions were just generated: run it natively if the engine
        can.  True when the plan is installed as ``codec.encode``/``decode``; False when
        the caller installs the Python functions."""
        cls = codec.cls
        self.python[cls] = (encode, decode)
        self.plans.pop(cls, None)
        reason = unsupported(self.model, codec.info)
        if reason is not None:
            self.reasons[cls] = reason
            return False
        self.reasons.pop(cls, None)
        try:
            self._plan(cls)
            return True
        except (TypeError, ValueError, OverflowError) as exc:  # a planner bug: stay correct
            self._forget_unready()
            self.reasons[cls] = f"plan rejected ({exc})"
            warnings.warn(
                f"protoattr: {cls.__qualname__} runs its Python codec: the native plan was "
                f"rejected ({exc}); please report this",
                RuntimeWarning,
                stacklevel=2,
            )
            return False

    def _forget_unready(self) -> None:
        """Drop plans whose setup did not finish (their codecs still hold the Python
        functions; plans nesting them hand over to Python when they meet them)."""
        for cls in [c for c, plan in self.plans.items() if not plan.ready]:
            del self.plans[cls]

    def reset(self, cls: type) -> None:
        """``cls``'s hierarchy changed: its plan must not run any more."""
        plan = self.plans.pop(cls, None)
        if plan is not None:
            plan.invalidate()
        self.python.pop(cls, None)
        self.reasons.pop(cls, None)

    def explain(self, cls: type) -> str:
        """``"native"``, or ``"python: <why>"`` for a contract that keeps its Python codec."""
        self.model._compiled_codec(cls)
        if cls in self.plans:
            return "native"
        return f"python: {self.reasons.get(cls, 'not a contract the model compiled')}"

    def message_list(self, item: type, fallback: Any) -> Any:
        """The codec of a top-level ``list[item]``: the engine's loop where ``item`` runs
        natively (``fallback``, the Python list codec, behind it), else ``fallback``."""
        from .._core.convert import surrogate_for
        from .._core.errors import ContractError

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

    def _plan(self, cls: type) -> Plan:
        existing = self.plans.get(cls)
        if existing is not None:
            return existing
        codec = self.model._codec(cls)
        if cls not in self.python:
            if not codec.compiled:
                self.model._install(codec)  # comes back through installed()
                if cls in self.plans:
                    return self.plans[cls]
            self.python[cls] = (codec.encode, codec.decode)  # installed ahead of time
        plan: Plan = self._engine.Plan()
        self.plans[cls] = plan  # before the fields: recursive contracts find it
        info = codec.info
        py_encode, py_decode = self.python[cls]
        groups = {
            name: i + 1
            for i, name in enumerate(
                dict.fromkeys(f.oneof for f in info.fields if f.oneof is not None)
            )
        }
        fields = tuple(
            self._field(f, 0 if f.oneof is None else groups[f.oneof]) for f in info.fields
        )
        plan.setup(
            cls,
            fields,
            _ctor_spec(info),
            _unknown_spec(cls, info),
            _reads_dict(cls, info),
            self.model.max_depth,
            py_encode,
            py_decode,
        )
        codec.encode = plan.encode
        codec.decode = plan.decode
        return plan

    def _field(self, f: FieldInfo, oneof: int) -> tuple[Any, ...]:
        kind = f.value.kind
        enc_mode = _enc_mode(f) if f.label in (Label.SINGULAR, Label.OPTIONAL) else ENC_ALWAYS
        cmp = _default_cmp(f) if f.label is Label.SINGULAR and enc_mode == ENC_DEFAULT else None
        init_mode, init_value, absent_mode, absent_value = _initial(f)
        container = f.container if f.label is Label.REPEATED and f.container is not list else None
        return (
            f.name,
            f.tag,
            _LABELS[f.label],
            f.packed,
            self._value(f.value),
            self._value(f.key) if f.key is not None else None,
            tag_bytes(f.tag, _wire_type(kind)),
            tag_bytes(f.tag, 2),
            enc_mode,
            cmp,
            init_mode,
            init_value,
            absent_mode,
            absent_value,
            container,
            oneof,
        )

    def _value(self, vt: ValueType) -> tuple[Any, ...]:
        sub: Any = None
        native = False
        members = None
        plain = False
        helpers: tuple[Any, Any] = (None, None)
        if vt.kind is Kind.MESSAGE:
            assert vt.py_type is not None
            target = vt.py_type
            if unsupported(self.model, self.model.info(target)) is None:
                sub, native = self._plan(target), True
            else:
                sub = self.model._codec(target)  # called back: encode/decode looked up per call
        elif vt.kind is Kind.ENUM:
            assert vt.py_type is not None
            enum_cls: Any = vt.py_type
            members = {m.value: m for m in enum_cls}
            plain = not issubclass(enum_cls, int)
        elif vt.kind in _TIME_HELPERS:
            helpers = _TIME_HELPERS[vt.kind]
        zero = None if vt.kind is Kind.MESSAGE else zero_value(vt)
        return (KINDS[vt.kind], sub, native, members, plain, vt.closed, *helpers, zero)


class _NativeList:
    """A top-level ``list[T]`` of a natively run contract: the plan's list loop."""

    __slots__ = ("decode", "encode", "plan")

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.encode = plan.encode_list
        self.decode = plan.decode_list


def _initial(f: FieldInfo) -> tuple[int, Any, int, Any]:
    """``(init_mode, init_value, absent_mode, absent_value)``: what a field holds before
    decoding and what it becomes when absent, as the generated decoder does it."""
    if f.label is Label.REPEATED:
        return INIT_LIST, None, ABSENT_NONE, None
    if f.label is Label.MAP:
        return INIT_DICT, None, ABSENT_NONE, None
    if f.value.kind is Kind.MESSAGE or f.required:
        if f.required:
            return INIT_NULL, None, ABSENT_REQUIRED, None
        if f.default_factory is not None:
            return INIT_NULL, None, ABSENT_FACTORY, f.default_factory
        if f.label is Label.SINGULAR and f.value.kind is Kind.MESSAGE:
            if f.default is MISSING:
                return INIT_NULL, None, ABSENT_EMPTY, None
            return INIT_NULL, None, ABSENT_VALUE, f.default
        return INIT_NULL, None, ABSENT_NONE, None
    if f.default_factory is not None:
        return INIT_NULL, None, ABSENT_FACTORY, f.default_factory
    if f.default is MISSING:
        return INIT_VALUE, None, ABSENT_NONE, None
    return INIT_VALUE, f.default, ABSENT_NONE, None


def _ctor_spec(info: ContractInfo) -> tuple[Any, ...]:
    """How the decoder builds the object: the generated decoder's call, as data."""
    index = {f.name: i for i, f in enumerate(info.fields)}
    if info.construct != "init":
        return (True, object.__new__, (), 0, None, tuple(range(len(info.fields))))
    call: list[int] = []
    kwnames: list[str] = []
    positional = True
    npositional = 0
    for attr, init_name, kw_only in info.init_params:
        found = index.get(attr)
        if found is None or kw_only:
            positional = False
        if found is None:
            continue
        call.append(found)
        if positional:
            npositional += 1
        else:
            kwnames.append(init_name)
    late = tuple(i for i, f in enumerate(info.fields) if f.init_name is None)
    return (False, info.cls, tuple(call), npositional, tuple(kwnames) or None, late)


def _unknown_spec(cls: type, info: ContractInfo) -> tuple[Any, ...] | None:
    if not (info.options.preserve_unknown and can_store_unknown(cls)):
        return None
    return (UNKNOWN_KEY, bool(getattr(cls, "__dictoffset__", 0)), get_unknown, set_unknown)
