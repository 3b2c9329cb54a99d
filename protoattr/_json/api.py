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
go through the functions registered in :mod:`protoattr._json.forms`.

protoattr-only constructs have the form their exported schema gives them:
a subtype is a field named after the subtype's message, holding an object
with the subtype's own fields (``{"name": "c", "Circle": {"radius": 2.0}}``),
exactly as the binary form nests it; ``Decimal``/``UUID``/``date`` are the
string/bytes/int32 they travel as; a surrogate is its contract's object;
groups are objects; unknown fields are not printed.
"""

from __future__ import annotations

import collections.abc
import json
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core.contract import is_contract
from .._core.convert import surrogate_for
from .._core.errors import ContractError, DecodeError, EncodeError
from . import forms as _jsonforms
from . import native_read as _native_read
from . import native_write as _native_write
from . import text as _json_text
from .plan import _Context, _Options, _Plans, _plans
from .read import _Duplicate, _plain, _reader
from .write import _writer

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["from_dict", "from_json", "to_dict", "to_json"]


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
    model: CodecModel,
    obj: Any,
    *,
    type: Any = None,
    preserving_proto_field_name: bool = False,
    use_integers_for_enums: bool = False,
    always_print_fields_with_no_presence: bool = False,
) -> Any:
    """``obj`` as the JSON value (a dict for contracts) ``json_format.MessageToDict`` makes.

    A list of contracts is a JSON array of their objects; ``type=list[T]`` checks
    that every item is a ``T``.  A plain ``dict``, ``list`` or scalar is not a message:
    it needs ``type=pa.Struct``, ``pa.ListValue`` or ``pa.JsonValue`` to be printed in
    those types' form (where every number is a double), never silently.
    """
    plans = _plans(model)
    opts = plans.opts(
        preserving_proto_field_name, use_integers_for_enums, always_print_fields_with_no_presence
    )
    if type is not None:
        typed: dict[Any, Callable[[Any], Any]] = opts.top  # keyed apart from the classes
        key = ("type", type)
        write = typed.get(key)
        if write is None:
            write = typed[key] = _typed_writer(plans, opts, type)
    else:
        write = opts.top.get(obj.__class__)
        if write is None:
            write = _top_writer(plans, opts, obj.__class__)
    try:
        return write(obj)
    except (EncodeError, ContractError):
        raise
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise EncodeError(f"{obj.__class__.__qualname__}: {exc}") from None


def _value_form_class(t: Any) -> type | None:
    """``dict``/``list``/``object`` for ``pa.Struct``/``pa.ListValue``/``pa.JsonValue``."""
    from .._core.wkt import JsonValue, ListValue, Struct

    return {Struct: dict, ListValue: list, JsonValue: object}.get(t)


_SEQUENCES = (list, tuple, collections.abc.Sequence)


def _list_item_type(t: Any) -> Any:
    """``T`` of ``list[T]``/``tuple[T, ...]``/``Sequence[T]``, else ``None``."""
    if typing.get_origin(t) in _SEQUENCES:
        args = [a for a in typing.get_args(t) if a is not Ellipsis]
        if len(args) == 1:
            return args[0]
    return None


def _type_name(t: Any) -> str:
    item = _list_item_type(t)
    if item is not None:
        return f"list[{_type_name(item)}]"
    return str(getattr(t, "__qualname__", t))


def _typed_writer(plans: _Plans, opts: _Options, t: Any) -> Callable[[Any], Any]:
    """The writer of a value declared ``type=t``: a contract, ``list[T]`` or a JSON value type."""
    value_cls = _value_form_class(t)
    if value_cls is not None or t in (dict, list):
        form = _jsonforms.form_for(value_cls or t)
        assert form is not None
        to_form, ctx = form[0], _Context(plans, opts, False)
        return lambda obj: to_form(obj, ctx)
    item = _list_item_type(t)
    if item is not None:
        item_write = _typed_writer(plans, opts, item)
        name = _type_name(t)

        def write_list(obj: Any) -> list[Any]:
            if isinstance(obj, (str, bytes, bytearray, collections.abc.Mapping)) or not isinstance(
                obj, collections.abc.Iterable
            ):
                raise EncodeError(f"{name}: expected a list, got {obj.__class__.__name__}")
            return [_item(item_write, x, f"{name}[{i}]") for i, x in enumerate(obj)]

        return write_list
    if not isinstance(t, type):
        raise ContractError(f"type={t!r}: expected a contract class, list[T] or pa.Struct")
    write_one = _top_writer(plans, opts, t)

    def write_checked(obj: Any) -> Any:
        if not isinstance(obj, t):
            raise EncodeError(f"expected {t.__qualname__}, got {obj.__class__.__qualname__}")
        return (opts.top.get(obj.__class__) or write_one)(obj)

    return write_checked


def _item(write: Callable[[Any], Any], x: Any, where: str) -> Any:
    """One item of a top-level list, its errors prefixed with its index."""
    try:
        return write(x)
    except EncodeError as exc:
        text = str(exc)
        name = x.__class__.__qualname__
        if text.startswith(name + "."):  # "A.x: ..." -> "list[A][3].x: ..."
            raise EncodeError(f"{where}{text[len(name) :]}") from None
        raise EncodeError(f"{where}: {text}") from None


def _contract_items(plans: _Plans, opts: _Options) -> Callable[[Any], Any]:
    """A list given without ``type=``: each item written as its own class."""

    def write(obj: Any) -> list[Any]:
        out = []
        for i, x in enumerate(obj):
            cls = x.__class__
            known = is_contract(cls) or surrogate_for(cls) is not None
            if not known and (_jsonforms.form_for(cls) is None or cls in (dict, list)):
                raise EncodeError(
                    f"list[{i}]: {cls.__qualname__} {x!r:.40} is not a contract; a list of JSON "
                    "values is printed as a google.protobuf.ListValue with type=pa.ListValue"
                )
            item_write = opts.top.get(cls) or _top_writer(plans, opts, cls)
            out.append(_item(item_write, x, f"list[{cls.__qualname__}][{i}]"))
        return out

    return write


def _top_writer(plans: _Plans, opts: _Options, cls: type) -> Callable[[Any], Any]:
    """How a top-level ``cls`` is written: its special form, its surrogate's, or its own."""
    if not is_contract(cls) and issubclass(cls, (dict, list, tuple)):
        if issubclass(cls, dict):
            raise EncodeError(
                f"a {cls.__qualname__} is not a message: to print it as a google.protobuf.Struct "
                "(every number becomes a double, as protobuf's JSON has it) pass type=pa.Struct; "
                "for plain JSON use json.dumps"
            )
        items = opts.top[cls] = _contract_items(plans, opts)
        return items
    form = _jsonforms.form_for(cls)
    write: Callable[[Any], Any]
    if form is not None:
        to_form, ctx = form[0], _Context(plans, opts, False)

        def write(obj: Any) -> Any:
            return to_form(obj, ctx)

    elif (sur := surrogate_for(cls)) is not None:  # a foreign type: its surrogate's JSON
        to_surrogate, contract = sur.to_surrogate, sur.contract

        def write(obj: Any) -> Any:
            return _writer(plans, opts, contract)(to_surrogate(obj))

    elif is_contract(cls):
        write = _writer(plans, opts, cls)
    else:
        raise EncodeError(f"{cls.__qualname__} is not a contract")
    opts.top[cls] = write
    return write


def _list_reader(plans: _Plans, t: Any, item: Any, ignore_unknown: bool) -> Callable[[Any], Any]:
    """A top-level ``list[T]``: a JSON array, each element read as ``T`` (path ``list[T][i]``)."""
    item_read = _top_reader(plans, item, ignore_unknown)
    name, item_name = _type_name(t), _type_name(item)
    container = tuple if typing.get_origin(t) is tuple else list

    def read(data: Any) -> Any:
        if not isinstance(data, list):
            raise DecodeError(f"{name}: expected a JSON array, got {_json_kind(data)}")
        out = []
        for i, x in enumerate(data):
            try:
                out.append(item_read(x))
            except DecodeError as exc:
                text = str(exc)
                own = text.startswith((item_name + ".", item_name + ":"))
                tail = text[len(item_name) :] if own else ": " + text  # "A.x: ..." -> ".x: ..."
                raise DecodeError(f"{name}[{i}]{tail}") from None
        return container(out)

    return read


def _json_kind(data: Any) -> str:
    if isinstance(data, dict):
        return "an object"
    if isinstance(data, str):
        return "a string"
    return "null" if data is None else type(data).__name__


def to_json(
    model: CodecModel,
    obj: Any,
    *,
    preserving_proto_field_name: bool = False,
    use_integers_for_enums: bool = False,
    always_print_fields_with_no_presence: bool = False,
    indent: int | None = 2,
    sort_keys: bool = False,
    ensure_ascii: bool = True,
    type: Any = None,
) -> str:
    """``obj`` as JSON text, byte for byte what ``json_format.MessageToJson`` writes."""
    if type is None and model._native is not None:  # the engine's writer, where it can
        text = _native_write.to_json(
            model, obj, preserving_proto_field_name, use_integers_for_enums,
            always_print_fields_with_no_presence, indent, sort_keys, ensure_ascii,
        )  # fmt: skip
        if text is not None:
            return text
    data = to_dict(
        model,
        obj,
        type=type,
        preserving_proto_field_name=preserving_proto_field_name,
        use_integers_for_enums=use_integers_for_enums,
        always_print_fields_with_no_presence=always_print_fields_with_no_presence,
    )
    return _json_text.dumps(data, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)


def from_dict(
    model: CodecModel, cls: Any, data: Any, *, ignore_unknown_fields: bool = False
) -> Any:
    """An instance of ``cls`` read from a JSON value (what ``json.loads`` returns)."""
    plans = _plans(model)
    read = plans.top.get((cls, ignore_unknown_fields))
    if read is None:
        read = _top_reader(plans, cls, ignore_unknown_fields)
    return read(data)


def _top_reader(plans: _Plans, cls: Any, ignore_unknown: bool) -> Callable[[Any], Any]:
    """How a top-level ``cls`` is read: its special form, its surrogate's, or its own."""
    value_cls = _value_form_class(cls)
    if value_cls is not None:
        return _top_reader(plans, value_cls, ignore_unknown)
    item = _list_item_type(cls)
    if item is not None:
        return _list_reader(plans, cls, item, ignore_unknown)
    if not isinstance(cls, type):
        raise ContractError(f"{cls!r} is not a contract class")
    form = _jsonforms.form_for(cls)
    name = plans.model.info(cls).name if is_contract(cls) else cls.__qualname__
    read: Callable[[Any], Any]
    if form is not None:
        from_form, ctx = form[1], _Context(plans, None, ignore_unknown)
        nested = _jsonforms.nested_form_for(cls)

        def read(data: Any) -> Any:
            if nested is not None:
                return nested(_plain(data, name), name, ctx, 0)
            return from_form(_plain(data, name), name, ctx)

    elif not is_contract(cls) and (sur := surrogate_for(cls)) is not None:
        inner = _top_reader(plans, sur.contract, ignore_unknown)
        from_surrogate = sur.from_surrogate

        def read(data: Any) -> Any:
            value = inner(data)
            try:
                return from_surrogate(value)
            except (TypeError, ValueError, ArithmeticError) as exc:
                raise DecodeError(f"{name}: {exc}") from None

    else:
        reader = _reader(plans, cls, ignore_unknown)

        def read(data: Any) -> Any:
            try:
                return reader.read(data, name, 0)
            except (DecodeError, ContractError):
                raise
            except RecursionError:
                raise DecodeError(f"{name}: nested too deeply") from None
            except (TypeError, ValueError, AttributeError, KeyError, ArithmeticError) as exc:
                raise DecodeError(f"{name}: {exc}") from None

    plans.top[(cls, ignore_unknown)] = read
    return read


def from_json(
    model: CodecModel,
    cls: Any,
    text: str | bytes | bytearray,
    *,
    ignore_unknown_fields: bool = False,
) -> Any:
    """An instance of ``cls`` read from JSON text (``str``, or UTF-8 ``bytes``)."""
    native = _native_read.read(model, cls, text, ignore_unknown_fields)  # None: not taken
    if native is not None:
        return native
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _positioned(f"JSON text is not UTF-8: {exc.reason}", exc.start) from None
        except TypeError:
            raise TypeError(f"from_json takes str or bytes, not {type(text).__name__}") from None
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise _positioned(
            f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", exc.pos
        ) from None
    except RecursionError:
        raise DecodeError("malformed JSON: nested too deeply") from None
    return from_dict(model, cls, data, ignore_unknown_fields=ignore_unknown_fields)


#: one decoder for every call (``json.loads`` with a hook would build one per call)
_DECODER = json.JSONDecoder(object_pairs_hook=_object_pairs)


def _positioned(message: str, pos: int) -> DecodeError:
    exc = DecodeError(f"{message} (char {pos})")
    exc.offset = pos
    return exc
