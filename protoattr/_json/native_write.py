"""Planning the C engine's canonical-JSON writer (``json_write.c``'s ``JsonWriter``).

On the native backend :func:`to_json` hands a contract instance to a
``JsonWriter`` built here once per contract and option set, which prints the
text ``json.dumps`` prints for the dict the Python reference
(:mod:`protoattr._json.write`) builds - every option, byte for byte.

The plan is made from the reference's own field steps (``_field_step``: key,
presence mode, default, printed default), so the two cannot disagree on
which fields are printed; what this module adds is the kind of each value
and, precomputed, the key and printed-default text in both ``ensure_ascii``
forms.  A contract using anything the writer does not implement (converted
types, BCL kinds, extensions, hierarchies, colliding JSON names) is decided
at plan time to stay with the Python reference; so is every call the writer
gives up on at run time (a value of an unexpected type, an ``Any`` whose type
is not found or whose payload does not decode...): ``to_json`` then runs the
reference, which prints the same text or raises the ``EncodeError``.

An ``Any`` is resolved at run time: its type name through a table per option
set (:func:`_any_types`), filled on first sight of a name by ``model.find``;
the payload is decoded by the model's binary entry point and printed by its
own writer.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .._core import wkt as _wkt
from .._core.contract import Label, ValueType, declared_options, is_contract
from .._core.convert import surrogate_for
from .._core.types import BCL_KINDS, Kind
from .._core.wkt import NullValue
from .._native import engine as _engine
from .._native.plan import KINDS, reads_dict
from . import forms as _jsonforms
from . import times as _jsontimes
from . import wkt as _jsonwkt
from .plan import _form_key, _Options, _Plans, _plans, any_type_claim
from .write import _NO_DEFAULT, _UNLESS_DEFAULT, _UNLESS_SAME_BITS, _EnumDefault, _field_step

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["to_json"]

_LABELS = {Label.SINGULAR: 0, Label.OPTIONAL: 1, Label.REPEATED: 2, Label.MAP: 3}
_SCALARS = frozenset({
    Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
    Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64, Kind.BOOL, Kind.ENUM,
    Kind.FLOAT, Kind.DOUBLE, Kind.STRING, Kind.BYTES, Kind.MESSAGE,
})  # fmt: skip
_KEY_KINDS = frozenset({
    Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
    Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64, Kind.BOOL, Kind.STRING,
})  # fmt: skip
#: the key of the writers in the _Plans object's __dict__: 8 dicts {cls: JsonWriter or
#: None}, one per option set (_bits), which the model's C to_json (JsonEntry) reads too
_CACHE = "_native_writers"


#: json_write.c's kinds of the JSON values, by the special form they print as
_JSON_KINDS: dict[Any, int] = {
    _jsonwkt.value_to_json: 100,
    _jsonwkt.struct_to_json: 101,
    _jsonwkt.list_to_json: 102,
}


#: json_write.c's kinds of the well-known messages printed as strings (their wkt.py forms)
_WKT_MESSAGE_KINDS: dict[Any, int] = {
    _wkt.Timestamp: 103,
    _wkt.Duration: 104,
    _wkt.FieldMask: 105,
}


#: json_write.c's mode of an enum field compared with its default by number (M_UNLESS_ENUM)
_UNLESS_ENUM_DEFAULT = 6


class _Unsupported(Exception):
    """Something in the contract the C writer leaves to the Python reference."""


def to_json(
    model: CodecModel,
    obj: Any,
    proto_names: bool,
    enum_ints: bool,
    always: bool,
    indent: Any,
    sort_keys: bool,
    ensure_ascii: bool,
) -> str | None:
    """``obj``'s JSON text written by the engine, or ``None`` for the Python reference."""
    plans = _plans(model)
    tables: tuple[dict[type, Any], ...] | None = plans.__dict__.get(_CACHE)
    if tables is None:
        tables = plans.__dict__.setdefault(_CACHE, tuple({} for _ in range(8)))
    opts = plans.opts(proto_names, enum_ints, always)
    writers = tables[_bits(opts)]
    cls = obj.__class__
    if cls is list or cls is tuple:  # a top-level list of contracts: each item its own
        return _items(model, plans, opts, obj, tables, indent, sort_keys, ensure_ascii)
    writer = writers.get(cls, False)
    if writer is False:
        writer = _top(plans, opts, cls, tables)
        _bind(model, plans, tables)
    if writer is None:
        return None
    text: str | None = writer.write(obj, indent, sort_keys, ensure_ascii)
    return text


def _items(
    model: CodecModel,
    plans: _Plans,
    opts: _Options,
    items: Any,
    tables: tuple[dict[type, Any], ...],
    indent: Any,
    sort_keys: bool,
    ensure_ascii: bool,
) -> str | None:
    """A list (or tuple) of contract instances as the JSON array api.py's
    ``_contract_items`` prints, or ``None`` when an item's class is not the engine's."""
    writers = tables[_bits(opts)]
    for cls in {x.__class__ for x in items}:
        writer = writers.get(cls, False)
        if writer is False:
            writer = _top(plans, opts, cls, tables)
        if writer is None:
            return None
    _bind(model, plans, tables)
    engine = _engine()
    assert engine is not None  # the model runs the native backend
    text: str | None = engine.JsonWriter.write_items(
        writers, items, indent, sort_keys, ensure_ascii
    )
    return text


def _bind(model: CodecModel, plans: _Plans, tables: tuple[dict[type, Any], ...]) -> None:
    """Let the model's C to_json (JsonEntry) take the next calls itself."""
    entry = vars(model).get("to_json")
    if entry is not None and entry.__class__.__name__ == "JsonEntry":
        entry.bind(plans, tables)


def _bits(opts: _Options) -> int:
    """The index of an option set's writers (JsonEntry's option bits)."""
    return bool(opts.proto_names) | bool(opts.enum_ints) << 1 | bool(opts.always) << 2


def _top(plans: _Plans, opts: _Options, cls: type, tables: tuple[dict[type, Any], ...]) -> Any:
    """The writer of a top-level ``cls`` (``None`` when the reference writes it), cached."""
    writers = tables[_bits(opts)]
    with plans.lock:
        if cls in writers:
            return writers[cls]
        writer = None
        if is_contract(cls) and _jsonforms.form_for(cls) is None and surrogate_for(cls) is None:
            building: dict[type, Any] = {}
            try:
                writer = _writer(plans, opts, cls, writers, building)
            except _Unsupported:
                writer = None
            else:
                for sub_cls, (w, setup) in building.items():
                    w.setup(*setup)
                    writers[sub_cls] = w
                writer = building[cls][0]
        writers[cls] = writer
        return writer


def _writer(
    plans: _Plans,
    opts: _Options,
    cls: type,
    writers: dict[Any, Any],
    building: dict[type, Any],
) -> Any:
    """A ``JsonWriter`` for ``cls`` (its ``setup`` arguments kept in ``building``)."""
    done = writers.get(cls, False)
    if done is None:
        raise _Unsupported(cls)
    if done is not False:
        return done
    if cls in building:
        return building[cls][0]
    model = plans.model
    if len(model._chain(cls)) != 1 or declared_options(cls).extensions:
        raise _Unsupported(cls)  # hierarchies and extensions: the reference's
    engine = _engine()
    assert engine is not None  # the model runs the native backend
    w = engine.JsonWriter()
    building[cls] = (w, None)
    fields = sorted(model._own_fields(cls), key=lambda f: f.tag)
    specs = tuple(_field_spec(plans, opts, f, writers, building) for f in fields)
    keys = [_json_key(spec) for spec in specs]
    if len(set(keys)) != len(keys):
        raise _Unsupported(cls)  # colliding JSON names: one dict key in the reference
    order = tuple(sorted(range(len(keys)), key=lambda i: keys[i]))
    building[cls] = (w, (cls, specs, order, reads_dict(model.info(cls))))
    return w


def _json_key(spec: tuple[Any, ...]) -> str:
    text: str = json.loads(spec[1].decode("utf-8"))
    return text


def _field_spec(
    plans: _Plans,
    opts: _Options,
    f: Any,
    writers: dict[Any, Any],
    building: dict[type, Any],
) -> tuple[Any, ...]:
    """JsonWriter.setup's tuple for one field (json_write.c's field_setup)."""
    if f.label is Label.MAP:
        assert f.key is not None
        key_spec: Any = _key_spec(f.key)
    else:
        key_spec = None
    value_spec = _value_spec(plans, opts, f.value, writers, building)
    try:
        attr, key, mode, default, _conv, printed = _field_step(plans, opts, f)
    except Exception as exc:  # the reference reports it when it runs
        raise _Unsupported(f.where) from exc
    bits = None
    if isinstance(default, _EnumDefault):  # json_write.c compares the enum's number
        mode, default = _UNLESS_ENUM_DEFAULT, default.number
    elif mode == _UNLESS_SAME_BITS:
        bits = default[1]
        default = None
    elif mode != _UNLESS_DEFAULT:
        default = None
    if mode == _UNLESS_ENUM_DEFAULT and default.__class__ is not int:
        raise _Unsupported(f.where)
    printed_u = printed_a = None
    if opts.always and printed is not _NO_DEFAULT:  # what always_print... adds
        printed_u, printed_a = _texts(printed)
    key_u, key_a = _texts(key)
    return (
        attr, key_u, key_a, _LABELS[f.label], mode, default, bits, printed_u, printed_a,
        value_spec, key_spec,
    )  # fmt: skip


def _texts(value: Any) -> tuple[bytes, bytes]:
    """``json.dumps(value)`` as UTF-8, without and with ``ensure_ascii``."""
    try:
        return (
            json.dumps(value, ensure_ascii=False).encode("utf-8"),
            json.dumps(value, ensure_ascii=True).encode("ascii"),
        )
    except (TypeError, ValueError) as exc:  # a lone surrogate...
        raise _Unsupported(value) from exc


def _plain(vt: ValueType) -> bool:
    """Whether ``vt`` has the ordinary mapping (no special form, no conversion)."""
    return (
        vt.domain is None
        and vt.encode_with is None
        and vt.kind not in BCL_KINDS
        and _jsonforms.form_for(_form_key(vt)) is None
    )


def _key_spec(vt: ValueType) -> tuple[Any, ...]:
    if not _plain(vt) or vt.kind not in _KEY_KINDS:
        raise _Unsupported(vt)
    return (KINDS[vt.kind], None, None, None, False)


def _form_spec(vt: ValueType) -> tuple[Any, ...] | None:
    """The spec of a value whose special form the C writer prints itself, else ``None``:
    ``datetime``/``timedelta`` (RFC 3339), the wrappers' bare values and the JSON values
    of ``pa.JsonValue``/``pa.Struct``/``pa.ListValue``."""
    if vt.kind in BCL_KINDS:
        return None
    form = _jsonforms.form_for(_form_key(vt))
    if form is None:
        return None
    json_kind = _JSON_KINDS.get(form[0])
    if json_kind is not None:
        return (json_kind, None, _wkt.ValueMessage, _wkt.NullValue.NULL_VALUE, False)
    if vt.domain is not None:
        return None
    cls = vt.py_type
    wkt_kind = _WKT_MESSAGE_KINDS.get(cls) if vt.kind is Kind.MESSAGE else None
    if cls is not None and wkt_kind is not None:
        payload = _jsonwkt._PAYLOADS.get(cls)
        if payload is None or payload[0] is not form[0] or vt.encode_with is not None:
            return None
        return (wkt_kind, None, cls, None, False) if _form_key(vt) is cls else None
    if vt.kind is Kind.TIMESTAMP and form[0] is _jsontimes.timestamp_to_json:
        return (KINDS[Kind.TIMESTAMP], None, None, None, False)
    if vt.kind is Kind.DURATION and form[0] is _jsontimes.duration_to_json:
        return (KINDS[Kind.DURATION], None, None, None, False)
    if vt.kind is Kind.MESSAGE and vt.py_type in _wkt.WRAPPER_CLASSES:
        for name, (contract, _) in _wkt.WRAPPERS.items():
            payload = _jsonwkt._PAYLOADS.get(contract)
            if contract is vt.py_type and payload is not None and payload[0] is form[0]:
                return (KINDS[_jsonwkt._WRAPPER_KINDS[name]], None, None, None, True)
    return None


#: json_write.c's K_ANY and K_MESSAGE
_K_ANY = 106
_K_MESSAGE = KINDS[Kind.MESSAGE]


def _any_spec(plans: _Plans, opts: _Options, vt: ValueType) -> tuple[Any, ...] | None:
    """The spec of a ``pa.Any`` value printed by its own wkt.py form, else ``None``."""
    if vt.kind is not Kind.MESSAGE or vt.py_type is not _wkt.Any or vt.encode_with is not None:
        return None
    form = _jsonforms.form_for(_wkt.Any)
    if form is None or form[0] is not _jsonwkt.any_to_json or _form_key(vt) is not _wkt.Any:
        return None
    return (_K_ANY, _any_types(plans, opts), _wkt.Any, None, False)


def _any_types(plans: _Plans, opts: _Options) -> tuple[Any, ...]:
    """json_write.c's table of an option set's Any payloads: ``(cache, resolve, claims)``.

    ``cache`` maps a type name to ``(claims list, class, kind, writer, deserialize)``,
    which ``resolve(name)`` computes (``None``: the reference prints that Any); an entry
    holds while ``protoattr._core.names`` has the same one-class claims list for the name
    (a class declared later under it replaces the list), so ``model.find`` would find the
    same class."""
    key = f"_native_write_any_{_bits(opts)}"
    found: tuple[Any, ...] | None = plans.__dict__.get(key)
    if found is not None:
        return found
    from .._core import names as _names

    cache: dict[str, tuple[Any, ...]] = {}
    claims = _names._CLAIMS
    model = plans.model

    def resolve(name: str) -> tuple[Any, ...] | None:
        found = any_type_claim(model, name)
        if found is None:
            return None
        claimed, cls = found
        payload = _jsonwkt._PAYLOADS.get(cls)
        writer: Any = None
        decode: Any = model.deserialize
        json_value = _JSON_PAYLOADS.get(cls)
        kind: int | None
        if json_value is not None:  # a Struct, Value, ListValue: printed as its JSON value
            kind, convert = json_value

            def decode(c: type, data: bytes, convert: Any = convert) -> Any:
                return convert(model.deserialize(c, data))

            writer = (_wkt.ValueMessage, _wkt.NullValue.NULL_VALUE)
        elif payload is not None:
            kind = _payload_kind(cls, payload)
        else:
            kind = _K_MESSAGE
            tables = plans.__dict__.get(_CACHE)
            writer = None if tables is None else _top(plans, opts, cls, tables)
            if writer is None:
                return None
        if kind is None:
            return None
        entry = (claimed, cls, kind, writer, decode)
        cache[name] = entry
        return entry

    return plans.__dict__.setdefault(key, (cache, resolve, claims))  # type: ignore[no-any-return]


#: the Struct, Value, ListValue payloads: json_write.c's kind and wkt.py's conversion of
#: the message to the JSON value its form prints
_JSON_PAYLOADS: dict[type, tuple[int, Any]] = {
    _wkt.StructMessage: (101, _wkt.from_struct),
    _wkt.ValueMessage: (100, _wkt.from_value),
    _wkt.ListValueMessage: (102, _wkt.from_list_value),
}


def _payload_kind(cls: type, payload: tuple[Any, ...]) -> int | None:
    """json_write.c's kind of a well-known payload's ``"value"`` (``None``: the reference's)."""
    if cls in _WKT_MESSAGE_KINDS or cls is _wkt.Any:
        return _WKT_MESSAGE_KINDS.get(cls, _K_ANY)
    for name, (contract, _) in _wkt.WRAPPERS.items():
        if contract is cls:
            return KINDS[_jsonwkt._WRAPPER_KINDS[name]]
    return None


def _value_spec(
    plans: _Plans,
    opts: _Options,
    vt: ValueType,
    writers: dict[Any, Any],
    building: dict[type, Any],
) -> tuple[Any, ...]:
    any_spec = _any_spec(plans, opts, vt)
    if any_spec is not None:
        return any_spec
    form = _form_spec(vt)
    if form is not None:
        return form
    if not _plain(vt) or vt.kind not in _SCALARS:
        raise _Unsupported(vt)
    kind = vt.kind
    if kind is Kind.ENUM:
        enum_cls = vt.py_type
        if enum_cls is None or enum_cls is NullValue:
            raise _Unsupported(vt)
        names = None if opts.enum_ints else dict(plans.enum_names(enum_cls).name_of)
        return (KINDS[kind], None, enum_cls, names, False)
    if kind is Kind.MESSAGE:
        sub = vt.py_type
        if sub is None or not is_contract(sub) or surrogate_for(sub) is not None:
            raise _Unsupported(vt)
        return (KINDS[kind], _writer(plans, opts, sub, writers, building), sub, None, False)
    return (KINDS[kind], None, None, None, False)
