"""The C reader of canonical JSON: which contracts it reads, and its tables.

``from_json`` on a native model first asks :func:`read`: where the contract (and
everything it reaches) is one the engine's ``JsonReader`` takes on, the text is
parsed in C in one pass straight into the objects, built by the contract's binary
:class:`~protoattr._native.plan` constructor call.  The tables the C side needs
are computed here once per contract and ``ignore_unknown_fields``, from the very
structures the Python reader (:mod:`protoattr._json.read`) uses: its key table
(JSON and proto names, collisions resolved as its dict resolves them), its enum
names, its fill rules for absent fields.

The decision is made per contract at plan time: a contract with anything the C
reader does not implement (a special form other than Timestamp/Duration, a
converted type, a hierarchy, a NullValue, ...) is read by the reference, whole.
At run time, anything unusual -- any error included -- makes the C reader return
``None``, and the reference then reads the whole text itself: results and
``DecodeError``s are the reference's own.
"""

from __future__ import annotations

import collections.abc
import datetime
import typing
from typing import TYPE_CHECKING, Any

from .._core.contract import MISSING, FieldInfo, Label, ValueType, is_contract, zero_value
from .._core.types import INT_RANGES, Kind
from .._core.wkt import NullValue
from . import forms as _jsonforms
from .plan import _form_key, _Plans, _plans, any_type_claim, json_name

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["read"]

#: plan.h's K_* numbers (the same as protoattr._native.plan.KINDS)
_KINDS: dict[Kind, int] = {
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
_KEY_KINDS = frozenset(INT_RANGES) - {Kind.ENUM} | {Kind.STRING, Kind.BOOL}
_FILL_REQUIRED, _FILL_CONSTANT, _FILL_FACTORY, _FILL_EMPTY = range(4)
#: json_read.c's JK_* kinds of pa.JsonValue / pa.Struct / pa.ListValue fields, by the
#: form key and the reference's reading function they stand for
_JSON_KINDS: dict[type, tuple[int, str]] = {
    object: (100, "value_from_json"),
    dict: (101, "struct_from_json"),
    list: (102, "list_from_json"),
}


def read(model: CodecModel, cls: Any, text: Any, ignore_unknown: bool) -> Any:
    """``cls`` read from ``text`` by the C reader, or ``None``: the reference must read it.

    The readers live with the model's JSON plans, which a change of hierarchy drops;
    a native model's ``from_json`` (a ``JsonReadEntry``) finds them there itself."""
    plans = model.__dict__.get("_json_plans") or _plans(model)
    try:
        reader = plans.native_readers[ignore_unknown][cls]
    except KeyError:
        return _first_read(model, plans, cls, text, ignore_unknown)
    except TypeError:  # an unhashable cls (a typing construct): the reference says
        return None
    if reader is None:
        return None
    entry: Any = model.__dict__.get("from_json")
    if entry.__class__ is _ENTRY[0] and entry.plans is plans and reader.__class__ is not _Items:
        return None  # the model's C entry point ran this reader already: the reference's turn
    return reader.read(text)


class _Items:
    """A top-level ``list[T]``/``tuple[T, ...]``: a JSON array of ``T``'s objects, each read
    as a top-level ``T`` (depth 0), as the reference's ``_list_reader`` reads it."""

    __slots__ = ("as_tuple", "reader")

    def __init__(self, reader: Any, as_tuple: bool) -> None:
        self.reader = reader
        self.as_tuple = as_tuple

    def read(self, text: Any) -> Any:
        return self.reader.read_items(text, self.as_tuple)


def _item_type(t: Any) -> tuple[Any, bool] | None:
    """``(T, as_tuple)`` of ``list[T]``, ``tuple[T, ...]`` or ``Sequence[T]`` (the
    reference's ``_list_item_type``), else ``None``."""
    origin = typing.get_origin(t)
    if origin not in (list, tuple, collections.abc.Sequence):
        return None
    args = [a for a in typing.get_args(t) if a is not Ellipsis]
    return (args[0], origin is tuple) if len(args) == 1 else None


def _first_read(model: CodecModel, plans: _Plans, cls: Any, text: Any, ignore: bool) -> Any:
    reader = _build(model, plans, cls, ignore)
    return None if reader is None else reader.read(text)


#: the engine's JsonReadEntry type, once a reader was built
_ENTRY: list[Any] = [None]


def _build(model: CodecModel, plans: _Plans, cls: Any, ignore: bool) -> Any:
    """The reader of ``cls`` (and of every contract it reaches), or ``None``."""
    readers = plans.native_readers[ignore]
    item = _item_type(cls)
    if item is not None:
        if _jsonforms.form_for(item[0]) is not None or _item_type(item[0]) is not None:
            found = None
        else:
            found = _build(model, plans, item[0], ignore)
        with plans.lock:
            readers[cls] = None if found is None else _Items(found, item[1])
            return readers[cls]
    with plans.lock:
        if cls in readers:
            return readers[cls]
        reach = _reachable(model, cls)
        if reach is None:
            readers[cls] = None
            return None
        from .._native import engine

        mod = engine()
        assert mod is not None
        made = {c: readers.get(c) or mod.JsonReader() for c in reach}
        for c, reader in made.items():
            if not reader.ready:
                _setup(model, c, reader, made, ignore)
        readers.update(made)
        _ENTRY[0] = mod.JsonReadEntry
        entry = model.__dict__.get("from_json")
        if isinstance(entry, mod.JsonReadEntry):  # the model's from_json, in C
            entry.bind(plans, plans.native_readers, mod.JsonReader)
        return made[cls]


def _reachable(model: CodecModel, cls: Any) -> list[type] | None:
    """Every contract ``cls`` reaches, when the C reader takes all of them; else None."""
    seen: dict[type, None] = {}
    todo = [cls]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        if _unsupported(model, c):
            return None
        seen[c] = None
        for f in model.info(c).fields:
            vt = f.value
            if (
                vt.kind is Kind.MESSAGE
                and _wrapper_kind(vt) is None
                and _json_kind(vt) is None
                and _wkt_message_kind(vt) is None
                and not _is_any(vt)
            ):
                todo.append(vt.py_type)
    return list(seen)


def _unsupported(model: CodecModel, cls: Any) -> bool:
    if not isinstance(cls, type) or not is_contract(cls):
        return True
    if _jsonforms.form_for(cls) is not None:
        return True
    try:
        if model._native is None or model._native.explain(cls) != "native":
            return True
    except Exception:  # a contract error: the reference reports it
        return True
    if len(model._chain(cls)) != 1 or model._children_of(cls):
        return True
    spec = model._native.specs.get(cls)
    info = model.info(cls)
    if spec is None or [s[0] for s in spec[1]] != [f.name for f in info.fields]:
        return True
    if len({f.oneof for f in info.fields if f.oneof is not None}) > 64:
        return True
    return any(_field_unsupported(model, f) for f in info.fields)


def _field_unsupported(model: CodecModel, f: FieldInfo) -> bool:
    special = _json_kind(f.value) or _wkt_message_kind(f.value) or _is_any(f.value) or None
    if special is not None and _fill(f)[0] == _FILL_EMPTY:
        return True  # the reference reads the absent value's message ({}): its own
    wkt_kind = _wkt_message_kind(f.value)
    if wkt_kind is not None and _wkt_plan(model, f.value.py_type, wkt_kind) is None:
        return True
    if _is_any(f.value) and _any_types(model, _plans(model), False) is None:
        return True
    if f.label is Label.MAP:
        assert f.key is not None
        if f.key.kind not in _KEY_KINDS or f.key.domain is not None or f.key.decode_with:
            return True
    return _value_unsupported(f.value)


def _wrapper_kind(vt: ValueType) -> Kind | None:
    """The value kind of a wrapper field (``pa.wrappers.Int32Value``...), read as its bare
    value by the reference's own wrapper form; ``None`` for anything else."""
    from .._core import wkt as _wkt
    from . import wkt

    if vt.kind is not Kind.MESSAGE or vt.py_type not in _wkt.WRAPPER_CLASSES:
        return None
    form = _jsonforms.form_for(_form_key(vt))
    if form is None or form[1].__module__ != wkt.__name__ or _form_key(vt) is not vt.py_type:
        return None
    if not form[1].__qualname__.startswith("wrapper_form."):
        return None
    for name, (contract, _) in _wkt.WRAPPERS.items():
        if contract is vt.py_type:
            return wkt._WRAPPER_KINDS[name]
    return None


def _json_kind(vt: ValueType) -> int | None:
    """json_read.c's kind of a ``pa.JsonValue``/``pa.Struct``/``pa.ListValue`` value, read
    by the reference's own Value/Struct/ListValue form; ``None`` for anything else."""
    from .._core import wkt as _wkt
    from . import wkt

    if vt.kind is not Kind.MESSAGE or vt.py_type not in (
        _wkt.ValueMessage,
        _wkt.StructMessage,
        _wkt.ListValueMessage,
    ):
        return None
    key = _form_key(vt)
    found = _JSON_KINDS.get(key) if isinstance(key, type) else None
    form = _jsonforms.nested_form_for(key)
    if found is None or form is None or form is not getattr(wkt, found[1]):
        return None
    return found[0]


#: json_read.c's JK_* kinds of the well-known messages it builds from their JSON strings
_WKT_MESSAGE_KINDS = {"Timestamp": 103, "Duration": 104, "FieldMask": 105}
#: their fields, in the order json_read.c hands their values to the plan's constructor
_WKT_MESSAGE_FIELDS = {103: ["seconds", "nanos"], 104: ["seconds", "nanos"], 105: ["paths"]}


def _wkt_message_kind(vt: ValueType) -> int | None:
    """json_read.c's kind of a ``pa.Timestamp``/``pa.Duration``/``pa.FieldMask`` value read
    by the reference's own form; ``None`` for anything else."""
    from .._core import wkt as _wkt
    from . import wkt

    cls = vt.py_type
    if vt.kind is not Kind.MESSAGE or cls not in (_wkt.Timestamp, _wkt.Duration, _wkt.FieldMask):
        return None
    if vt.domain is not None or vt.decode_with is not None or _form_key(vt) is not cls:
        return None
    form = _jsonforms.form_for(cls)
    payload = wkt._PAYLOADS.get(cls)
    if form is None or payload is None or form[1] is not payload[1]:
        return None
    return _WKT_MESSAGE_KINDS[cls.__name__]


def _wkt_plan(model: CodecModel, cls: Any, kind: int) -> Any:
    """The binary plan of a well-known message, when its fields are the ones json_read.c
    gives its constructor; else ``None``."""
    return _plan_with(model, cls, _WKT_MESSAGE_FIELDS[kind])


def _is_any(vt: ValueType) -> bool:
    """Whether ``vt`` is a ``pa.Any`` read by the reference's own Any form."""
    from .._core import wkt as _wkt
    from . import wkt

    if vt.kind is not Kind.MESSAGE or vt.py_type is not _wkt.Any or vt.decode_with is not None:
        return False
    return _form_key(vt) is _wkt.Any and _jsonforms.nested_form_for(_wkt.Any) is wkt.any_from_json


#: json_read.c's JK_ANY, and K_MESSAGE
_JK_ANY = 106
_K_MESSAGE = _KINDS[Kind.MESSAGE]


def _any_types(model: CodecModel, plans: _Plans, ignore: bool) -> tuple[Any, ...] | None:
    """json_read.c's table of Any payloads for ``ignore_unknown_fields=ignore``:
    ``(cache, resolve, claims, Any's plan)``; ``None`` when Any's plan is not the engine's.

    ``cache`` maps a type name to ``(claims list, class, kind, reader or plan,
    serialize)``, which ``resolve(name)`` computes on first sight of the name
    (``None``: the reference reads that Any); an entry holds while
    ``protoattr._core.names`` has the same one-class claims list for the name, so that
    ``model.find`` would find the same class."""
    from .._core import names as _names
    from .._core import wkt as _wkt
    from . import wkt

    key = f"_native_read_any_{int(ignore)}"
    found: tuple[Any, ...] | None = plans.__dict__.get(key)
    if found is not None:
        return found
    any_plan = _plan_with(model, _wkt.Any, ["type_url", "value"])
    if any_plan is None:
        return None
    cache: dict[str, tuple[Any, ...]] = {}
    claims = _names._CLAIMS

    def resolve(name: str) -> tuple[Any, ...] | None:
        found = any_type_claim(model, name)
        if found is None:
            return None
        claimed, cls = found
        sub: Any = None
        json_kind = _json_payloads().get(cls)
        if cls is _wkt.Any:
            kind = _JK_ANY
        elif json_kind is not None:  # read as a JSON value, made the message by wkt.py's
            kind, sub = json_kind[0], (json_kind[1], NullValue.NULL_VALUE)
        elif cls in wkt._PAYLOADS:
            kind, sub = _payload(model, cls)
            if sub is None:
                return None
        else:
            kind, sub = _K_MESSAGE, _build(model, plans, cls, ignore)
            if sub is None or _item_type(cls) is not None:
                return None
        entry = (claimed, cls, kind, sub, model.serialize)
        cache[name] = entry
        return entry

    return plans.__dict__.setdefault(key, (cache, resolve, claims, any_plan))  # type: ignore[no-any-return]


def _json_payloads() -> dict[Any, tuple[int, Any]]:
    """The Struct, Value, ListValue payloads: json_read.c's kind, and wkt.py's conversion of
    the JSON value read to the message."""
    from .._core import wkt as _wkt

    return {
        _wkt.StructMessage: (101, _wkt.to_struct),
        _wkt.ValueMessage: (100, _wkt.to_value),
        _wkt.ListValueMessage: (102, _wkt.to_list_value),
    }


def _payload(model: CodecModel, cls: Any) -> tuple[int, Any]:
    """``(kind, plan)`` of a well-known payload json_read.c builds itself (plan ``None``:
    the reference's, such as a Struct)."""
    from .._core import wkt as _wkt
    from . import wkt

    kind = _WKT_MESSAGE_KINDS.get(cls.__name__)
    if kind is not None and cls in (_wkt.Timestamp, _wkt.Duration, _wkt.FieldMask):
        return kind, _wkt_plan(model, cls, kind)
    for name, (contract, _) in _wkt.WRAPPERS.items():
        if contract is cls:
            return _KINDS[wkt._WRAPPER_KINDS[name]], _plan_with(model, cls, ["value"])
    return 0, None


def _plan_with(model: CodecModel, cls: Any, names: list[str]) -> Any:
    """The binary plan of ``cls`` when its fields are ``names`` in order, else ``None``."""
    native = model._native
    try:
        if native is None or native.explain(cls) != "native":
            return None
    except Exception:  # the reference reports it
        return None
    spec = native.specs.get(cls)
    if spec is None or [x[0] for x in spec[1]] != names:
        return None
    return native.plans[cls]


def _value_unsupported(vt: ValueType) -> bool:
    if _wrapper_kind(vt) is not None or _json_kind(vt) is not None or _is_any(vt):
        return False
    if _wkt_message_kind(vt) is not None:
        return False
    if vt.domain is not None or vt.decode_with is not None or vt.kind not in _KINDS:
        return True
    if vt.kind in (Kind.TIMESTAMP, Kind.DURATION):
        from . import times

        form = _jsonforms.form_for(_form_key(vt))
        want = times.timestamp_from_json if vt.kind is Kind.TIMESTAMP else times.duration_from_json
        return (
            form is None
            or form[1] is not want
            or _form_key(vt)
            not in (
                datetime.datetime,
                datetime.timedelta,
            )
        )
    if _jsonforms.form_for(_form_key(vt)) is not None:
        return True
    return vt.kind is Kind.ENUM and vt.py_type is NullValue


def _setup(model: CodecModel, cls: type, reader: Any, made: dict[type, Any], ignore: bool) -> None:
    info = model.info(cls)
    plans = _plans(model)
    assert model._native is not None
    plan = model._native.plans[cls]
    oneofs = {
        name: i + 1 for i, name in enumerate(dict.fromkeys(f.oneof for f in info.fields if f.oneof))
    }
    fields = []
    table: dict[str, int] = {}  # built as the Python reader's _Level.fields is
    for i, f in enumerate(info.fields):
        table[json_name(f.proto_name)] = i
        table.setdefault(f.proto_name, i)
        fields.append(
            (
                _LABELS[f.label],
                _value(model, plans, f.value, made, ignore),
                _KINDS[f.key.kind] if f.key is not None else 0,
                *_fill(f),
                f.container if f.label is Label.REPEATED and f.container is not list else None,
                oneofs.get(f.oneof, 0) if f.oneof is not None else 0,
            )
        )
    keys = tuple((k.encode("utf-8", "surrogatepass"), i) for k, i in table.items())
    reader.setup(plan, tuple(fields), keys, model.max_depth, ignore)


def _value(
    model: CodecModel, plans: Any, vt: ValueType, made: dict[type, Any], ignore: bool
) -> tuple[Any, ...]:
    """``(kind, sub reader, enum names, enum numbers, closed, a message of its own)``: the
    last for a wrapper's bare value (a level of nesting, as Timestamp's text is)."""
    wrapped = _wrapper_kind(vt)
    if wrapped is not None:
        return (_KINDS[wrapped], None, None, None, False, True)
    json_kind = _json_kind(vt)
    if json_kind is not None:
        return (json_kind, None, None, None, False, False, NullValue.NULL_VALUE)
    if _is_any(vt):
        return (_JK_ANY, _any_types(model, plans, ignore), None, None, False, False)
    wkt_kind = _wkt_message_kind(vt)
    if wkt_kind is not None:  # a message read from its JSON string: a level of its own
        return (wkt_kind, _wkt_plan(model, vt.py_type, wkt_kind), None, None, False, True)
    kind = vt.kind
    if kind is Kind.MESSAGE:
        return (_KINDS[kind], made[vt.py_type], None, None, False, False)  # type: ignore[index]
    if kind is Kind.ENUM:
        names = plans.enum_names(vt.py_type)
        return (
            _KINDS[kind],
            None,
            tuple((n.encode("utf-8", "surrogatepass"), m) for n, m in names.by_name.items()),
            dict(names.by_number),
            vt.closed,
            False,
        )
    return (_KINDS[kind], None, None, None, False, kind in (Kind.TIMESTAMP, Kind.DURATION))


def _fill(f: FieldInfo) -> tuple[int, Any]:
    """What the Python reader's ``_Level.fill`` makes of an absent ``f``."""
    if f.required:
        return _FILL_REQUIRED, None
    if f.default_factory is not None:
        return _FILL_FACTORY, f.default_factory
    if f.default is not MISSING:
        return _FILL_CONSTANT, f.default
    if f.label is Label.SINGULAR and f.value.kind is Kind.MESSAGE:
        return _FILL_EMPTY, None
    return _FILL_CONSTANT, zero_value(f.value)
