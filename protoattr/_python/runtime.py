"""Helpers the generated codecs call at run time.

Kept apart from the generator so a reader of ``model.source(cls)`` finds every
name it uses in one short module: skipping unknown fields, the well-known
time types, and the error builders (errors are rare, so building their
messages lives here rather than inline in every codec).
"""

from __future__ import annotations

import struct
import sys
import weakref
from _thread import _local  # threading.local is this class; threading is not imported
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core.errors import DecodeError, EncodeError
from .._core.lazy import forwarder
from .._core.wire import MAX_FIELD_NUMBER, encode_varint, read_tag, read_varint

if TYPE_CHECKING:
    from .times import decode_duration, decode_timestamp, encode_duration, encode_timestamp

__all__ = [
    "decode_duration",
    "decode_error",
    "decode_timestamp",
    "encode_duration",
    "encode_timestamp",
    "skip_field",
]


def skip_field(buf: bytes, pos: int, end: int, tag: int, depth: int, max_depth: int) -> int:
    """Return the position after the value of an unknown field whose tag was just read.

    Groups are skipped recursively, each level counted against ``max_depth``.
    """
    wire_type = tag & 7
    if tag >> 3 == 0 or tag >> 3 > MAX_FIELD_NUMBER:
        raise DecodeError(f"invalid field number {tag >> 3}", pos)
    if wire_type == 0:
        return read_varint(buf, pos)[1]
    if wire_type == 2:
        start = pos
        n, pos = read_varint(buf, pos)
        pos += n
        if pos > end:
            raise DecodeError("length-delimited field runs past the end of its message", start)
        return pos
    if wire_type == 1:
        return pos + 8
    if wire_type == 5:
        return pos + 4
    if wire_type == 3:
        return group_end(buf, pos, end, tag, depth, max_depth)[1]
    if wire_type == 4:
        raise DecodeError(f"end-group {tag >> 3} without a start-group", pos)
    raise DecodeError(f"invalid wire type {wire_type}", pos)


def decode_error(exc: BaseException, pos: int, qualname: str) -> DecodeError:
    """Translate a low-level failure inside a codec into a :class:`DecodeError`."""
    if isinstance(exc, UnicodeDecodeError):
        return DecodeError(f"{qualname}: invalid UTF-8 in a string field", pos)
    if isinstance(exc, (ValueError, ArithmeticError)):  # a value that does not convert
        return DecodeError(f"{qualname}: {exc}", pos)
    if isinstance(exc, (IndexError, struct.error)):
        return DecodeError(f"{qualname}: truncated message", pos)
    return DecodeError(f"{qualname}: {exc}", pos)


def truncated(qualname: str, pos: int, end: int) -> DecodeError:
    """A value ran past the end (``end``) of its message, which ``pos`` had reached."""
    return DecodeError(f"{qualname}: truncated message (a value runs past its end)", min(pos, end))


def missing_required(qualname: str, name: str, tag: int, end: int) -> DecodeError:
    """A required field was absent from the message ending at ``end``."""
    return DecodeError(f"{qualname}: required field {name} (tag {tag}) is missing", end)


def other_subtype(found: type, wanted: type, end: int) -> DecodeError:
    """The bytes hold a subtype that is not the class asked for (nor one of its own)."""
    return DecodeError(
        f"{wanted.__qualname__}: the message holds a {found.__qualname__}, which is not a "
        f"{wanted.__qualname__}",
        end,
    )


def of_subtype(value: Any, wanted: type, end: int) -> Any:
    """``value``, a message merged into a field typed ``wanted``, if it still is one
    (a :class:`Partial`: if the class it will build is one)."""
    if value.__class__ is Partial:
        if issubclass(value.cls, wanted):
            return value
        raise other_subtype(value.cls, wanted, end)
    if isinstance(value, wanted):
        return value
    raise other_subtype(value.__class__, wanted, end)


class Partial:
    """A singular message field seen more than once, not built yet: the values the
    generated ``merge_<Name>`` read so far (the locals of ``decode_<Name>``, in order),
    built once by ``finish(partial)`` when the message holding the field is built.

    Protobuf merges every later occurrence into the earlier value; building the class
    anew at each one (copying its lists, running its constructor) made a field repeated
    n times cost O(n^2).  Never seen outside a decode: the holder's build replaces it
    with the object."""

    __slots__ = ("cls", "depth", "end", "finish", "values")

    def __init__(
        self, finish: Callable[[Partial], Any], values: tuple[Any, ...], cls: type, end: int,
        depth: int,
    ) -> None:  # fmt: skip
        self.finish = finish
        self.values = values
        self.cls = cls  # the class finish builds (a hierarchy's deepest level seen)
        self.end = end  # the last occurrence's end: the offset of a build's error
        self.depth = depth


class _Budget(_local):
    """How many more messages the decode running in this thread may build
    (``TypeModel(max_messages=...)``); the class default applies where none was set."""

    left: int = 1 << 62


BUDGET = _Budget()


class TooManyMessages(DecodeError):
    """The decode crossed ``max_messages``: a :class:`DecodeError` that is final, in that
    the C engine does not hand it to the Python codec as it does its other failures
    (running the decode again would build the same messages, more slowly)."""

    _protoattr_final = True


def too_many_messages(qualname: str, max_messages: int, pos: int) -> DecodeError:
    """The error of crossing the bound, raised by both backends (the engine calls this)."""
    return TooManyMessages(
        f"{qualname}: the input builds more than max_messages={max_messages} messages", pos
    )


def too_deep_for_python(max_depth: int) -> DecodeError:
    """Python's own recursion limit was reached before ``max_depth``."""
    return DecodeError(
        f"messages nested deeper than Python's recursion limit allows "
        f"(sys.getrecursionlimit() is {sys.getrecursionlimit()}, max_depth={max_depth}): "
        "lower max_depth or raise the recursion limit"
    )


def too_deep(qualname: str, max_depth: int, pos: int) -> DecodeError:
    return DecodeError(f"{qualname}: messages nested deeper than max_depth={max_depth}", pos)


def out_of_range(where: str, kind: str, value: Any) -> EncodeError:
    return EncodeError(f"{where}: {value!r} does not fit {kind}")


def bad_value(where: str, expected: str, value: Any) -> EncodeError:
    return EncodeError(f"{where}: expected {expected}, got {type(value).__name__} {value!r}")


def not_member(where: str, enum_cls: type, value: Any) -> EncodeError:
    return EncodeError(
        f"{where}: {value!r} is not a member of the closed enum {enum_cls.__qualname__}"
    )


#: what iterates but is no list of values (a str would be written as its characters)
NOT_LISTS = (str, bytes, bytearray, memoryview, dict)


def not_a_list(where: str, value: Any) -> EncodeError:
    return EncodeError(
        f"{where}: expected a list, got {type(value).__name__} {value!r:.40}"
        + (" (wrap it in a list: [value])" if isinstance(value, (str, bytes)) else "")
    )


# upb's SerializeToString(deterministic=True) sorts map entries and, encoding back to
# front, writes them in the reverse of that order: integer keys from the largest
# two's-complement (unsigned 64-bit) value down; string keys by their UTF-8 bytes
# (memcmp), a key before any key that is a prefix of it.


def deterministic_int_key(key: int) -> int:
    """Sort key (descending) of an integer or bool map key, upb's deterministic order."""
    return key & 0xFFFF_FFFF_FFFF_FFFF


def deterministic_str_key(key: str) -> bytes:
    """Sort key (ascending) of a string map key: 0xFF never occurs in UTF-8, so it puts
    ``"ab"`` before its prefix ``"a"``, as upb does."""
    return key.encode() + b"\xff"


def group_end(
    buf: bytes, pos: int, end: int, start_tag: int, depth: int, max_depth: int
) -> tuple[int, int]:
    """For a group whose start tag was just read: where its end-group tag starts and ends."""
    if depth >= max_depth:
        raise DecodeError(f"groups nested deeper than {max_depth}", pos)
    field_number = start_tag >> 3
    while True:
        if pos >= end:
            raise DecodeError("group without end-group (truncated)", min(pos, end))
        inner, next_pos = read_tag(buf, pos)
        if inner & 7 == 4:
            if inner >> 3 != field_number:
                raise DecodeError(
                    f"end-group {inner >> 3} does not match start-group {field_number}", pos
                )
            return pos, next_pos
        pos = skip_field(buf, next_pos, end, inner, depth + 1, max_depth)


def closed_enum_unknown(field_number: int, value: int) -> bytes:
    """A closed enum's unknown number from a packed field, as one unpacked unknown field."""
    return encode_varint(field_number << 3) + encode_varint(value)


# -- unknown fields -------------------------------------------------------------
#
# Unknown fields are kept per object, per level of an inheritance hierarchy.
# Objects with a ``__dict__`` keep them there under a dunder key, which no
# dataclass or attrs ``__eq__``/``__repr__`` looks at; slotted objects that
# support weak references keep them in a side table keyed by identity.  Slotted
# objects without ``__weakref__`` cannot carry them (see docs/unknown-fields.md).

UNKNOWN_KEY = "__protoattr_unknown__"


def unknown_key(level: type, root: type) -> str:
    """The key under which ``level``'s unknown fields are kept."""
    return UNKNOWN_KEY if level is root else f"__protoattr_unknown_{level.__qualname__}__"


def can_store_unknown(cls: type) -> bool:
    return bool(getattr(cls, "__dictoffset__", 0) or getattr(cls, "__weakrefoffset__", 0))


class _SideTable:
    """Unknown-field bytes of slotted objects, keyed by ``id`` and dropped with the object."""

    def __init__(self) -> None:
        self._data: dict[tuple[int, str], tuple[weakref.ref[Any], bytes | bytearray]] = {}

    def get(self, obj: Any, key: str) -> bytes | None:
        entry = self._data.get((id(obj), key))
        if entry is not None and entry[0]() is obj:
            return entry[1]  # type: ignore[return-value]  # a bytearray only mid-decode
        return None

    def set(self, obj: Any, key: str, data: bytes | bytearray) -> None:
        k = (id(obj), key)
        ref = weakref.ref(obj, lambda _, k=k: self._data.pop(k, None))  # type: ignore[misc]
        self._data[k] = (ref, data)


_SIDE = _SideTable()


def unknown_append(kept: bytes | bytearray, buf: bytes, start: int, end: int | None) -> bytearray:
    """``kept`` with ``buf[start:end]`` after it: the unknown fields a decoder collects.

    A bytearray grows in place, so a field unknown to the contract repeated n times
    costs O(n), where ``kept += ...`` on bytes copied everything so far each time
    (quadratic: 3 s for a megabyte of ``f2 01 00``)."""
    if kept.__class__ is not bytearray:
        kept = bytearray(kept)
    kept += buf[start:end]
    return kept


def unknown_pending(obj: Any, key: str, data: bytes | bytearray, pend: list[Any]) -> None:
    """Append ``data`` to the unknown fields of ``obj``, an object a merge in place
    reaches (so one this decode built), without copying those it keeps.

    While the fresh decode that holds ``obj`` runs, ``obj`` keeps a bytearray that
    grows in place, and ``pend`` (that decode's list) names it; :func:`flush_pending`
    turns it back into bytes before that decode builds its own object.  Appending to
    bytes copied everything kept so far at each merge: a nested message with an
    unknown field, repeated n times, cost O(n^2).  The engine does the same."""
    kept: Any = get_unknown(obj, key)  # bytes, or the bytearray of an earlier merge
    if kept.__class__ is bytearray:
        kept += data
        return
    grown = bytearray(kept or b"")
    grown += data
    set_unknown(obj, key, grown)
    pend.append((obj, key))


def flush_pending(pend: list[Any]) -> None:
    """Turn the bytearrays :func:`unknown_pending` left into bytes, the form kept, and
    build the :class:`Partial` a merge in place left in an attribute (``(obj, name,
    None)`` entries: a field repeated inside a repeated message that merges in place)."""
    for entry in pend:
        if len(entry) == 3:
            obj, name, _ = entry
            value = getattr(obj, name)
            if value.__class__ is Partial:
                object.__setattr__(obj, name, value.finish(value))
            continue
        obj, key = entry
        kept: Any = get_unknown(obj, key)
        if kept.__class__ is bytearray:
            set_unknown(obj, key, bytes(kept))


def get_unknown(obj: Any, key: str) -> bytes | None:
    """The unknown-field bytes kept for ``obj`` (``None`` when there are none)."""
    try:
        return obj.__dict__.get(key)  # type: ignore[no-any-return]
    except AttributeError:
        return _SIDE.get(obj, key)


def set_unknown(obj: Any, key: str, data: bytes | bytearray) -> None:
    """Keep ``data`` as ``obj``'s unknown fields (works for frozen classes too; a
    bytearray only while a decode appends to it, see :func:`unknown_pending`)."""
    try:
        obj.__dict__[key] = data
    except AttributeError:
        _SIDE.set(obj, key, data)


def decode_message_list(codec: Any, buf: bytes, pos: int, end: int, max_depth: int) -> list[Any]:
    """Decode repeated field 1 of contracts (a top-level list); other fields are skipped."""
    decode = codec.decode
    items: list[Any] = []
    append = items.append
    try:
        while pos < end:
            if buf[pos] == 10:  # the common case: field 1, a length under 128
                n = buf[pos + 1]
                if n < 128:
                    pos += 2
                else:
                    n, pos = read_varint(buf, pos + 1)
                e = pos + n
                if e > end:
                    raise DecodeError("truncated list item (its length runs past the end)", pos)
                append(decode(buf, pos, e, 1, None))
                pos = e
                continue
            tag, pos = read_tag(buf, pos)
            if tag == 10:
                start = pos
                n, pos = read_varint(buf, pos)
                e = pos + n
                if e > end:
                    raise DecodeError("truncated list item (its length runs past the end)", start)
                items.append(decode(buf, pos, e, 1, None))
                pos = e
            else:
                pos = skip_field(buf, pos, end, tag, 0, max_depth)
        if pos != end:
            raise DecodeError("truncated list", end)
    except IndexError:
        raise DecodeError("truncated list", pos) from None
    return items


#: the well-known time types' helpers (:mod:`.times`), loaded when first asked for (by a
#: codec of a contract holding datetimes): ``import protoattr`` does not import ``datetime``
__getattr__ = forwarder(
    globals(),
    ("decode_duration", "decode_timestamp", "encode_duration", "encode_timestamp"),
    "protoattr._python.times",
)
