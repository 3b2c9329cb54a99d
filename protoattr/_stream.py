"""Streams of length-prefixed messages (protobuf-net's ``*WithLengthPrefix``).

Protobuf messages are not self-delimiting, so a file or socket carrying many of
them needs a frame around each one.  This module writes and reads the three
frames protobuf-net knows (:class:`PrefixStyle`), item by item, so a stream of a
million records is produced and consumed in constant memory instead of being
built as one giant ``repeated`` message (Google's "techniques: streaming
multiple messages"; seed 001).

Design points, each for a reason:

* **No read-ahead.**  Prefixes and tags are read one byte at a time (they are at
  most ten bytes) and a body with exact ``read(n)`` calls, so when a function
  returns the stream sits right after the item it consumed.  Another reader (or
  another protocol on the same socket) can carry on from there; a buffering
  reader would silently swallow its bytes.
* **Short reads are normal.**  Sockets, pipes and raw files may return fewer
  bytes than asked for; every read loops until it has all it needs or the
  stream ends.  Only an empty read means end of stream.
* **A length prefix is a claim, not a fact.**  A body is read in chunks of at
  most :data:`_CHUNK` bytes and the buffer grows only with bytes that actually
  arrived, so a corrupt prefix claiming gigabytes on a short stream fails with
  :class:`DecodeError` at once instead of allocating what it claims.
* **Errors say where.**  Every :class:`DecodeError` names the item (its index in
  :func:`deserialize_items`) and carries the absolute stream offset: the
  stream's ``tell()`` when it has one, otherwise bytes counted from where the
  call started.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, Protocol, TypeVar

from ._errors import DecodeError, EncodeError
from ._wire import MAX_FIELD_NUMBER, WireType, decode_tag, decode_varint, encode_varint, tag_bytes

if TYPE_CHECKING:
    from ._model import TypeModel

__all__ = [
    "PrefixStyle",
    "deserialize_items",
    "deserialize_with_length_prefix",
    "serialize_items",
    "serialize_with_length_prefix",
]

T = TypeVar("T")

#: Default (and largest sensible) message size: protobuf's own 2 GiB limit.
DEFAULT_MAX_MESSAGE_SIZE = 2**31 - 1

# Upper bound on a single read() while collecting or skipping a body.  Large
# enough that a big legitimate message needs few calls, small enough that a
# lying prefix costs at most this much memory before the stream runs dry.
_CHUNK = 1 << 20

# Nested groups inside a skipped field: the same bound as TypeModel(max_depth).
_MAX_GROUP_DEPTH = 100

_pack_le32 = struct.Struct("<I").pack
_pack_be32 = struct.Struct(">I").pack
_unpack_le32 = struct.Struct("<I").unpack
_unpack_be32 = struct.Struct(">I").unpack


class PrefixStyle(Enum):
    """How each message in a stream is framed.

    The values are protobuf-net's ``PrefixStyle`` numbers, so logs and configs
    that store them mean the same thing in both worlds.
    """

    #: Base-128 varint length: the bytes of Java's ``writeDelimitedTo`` and of
    #: C++'s ``SerializeDelimitedToOstream``.  With ``field_number > 0`` each
    #: item is also preceded by a length-delimited tag for that field.
    BASE128 = 1
    #: 4-byte little-endian unsigned length (seed 001's ``BitConverter`` framing).
    FIXED32 = 2
    #: 4-byte big-endian ("network order") unsigned length.
    FIXED32_BIG_ENDIAN = 3


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes | None: ...


class _Writable(Protocol):
    def write(self, data: bytes, /) -> int | None: ...


# --------------------------------------------------------------------------- #
# Validation shared by readers and writers
# --------------------------------------------------------------------------- #


def _check_framing(style: PrefixStyle, field_number: int) -> None:
    """Reject a framing before any byte moves, so nothing is half-written."""
    if not isinstance(style, PrefixStyle):
        raise TypeError(f"style must be a PrefixStyle, not {style!r}")
    if isinstance(field_number, bool) or not isinstance(field_number, int):
        raise TypeError(f"field_number must be an int, not {field_number!r}")
    if not 0 <= field_number <= MAX_FIELD_NUMBER:
        raise ValueError(
            f"field_number must be 0 (no tag) or 1..{MAX_FIELD_NUMBER}, not {field_number}"
        )
    if field_number and style is not PrefixStyle.BASE128:
        # protobuf-net silently ignores the field number for fixed-width
        # prefixes (it neither writes nor expects a tag).  Ignoring an argument
        # the caller bothered to pass hides a mistake, and raising loses no
        # interoperability: protobuf-net's bytes are exactly field_number=0's.
        raise ValueError(
            f"field_number={field_number} needs PrefixStyle.BASE128: a {style.name} "
            "prefix carries no tag (protobuf-net ignores the field number there; "
            "pass field_number=0 to read or write the same bytes)"
        )


def _check_binary(stream: object) -> None:
    """A text stream would fail later with a confusing message; say it plainly now."""
    if isinstance(stream, io.TextIOBase):
        raise TypeError("length-prefixed messages need a binary stream (open it in 'b' mode)")


def _check_max_size(max_message_size: int) -> None:
    if isinstance(max_message_size, bool) or not isinstance(max_message_size, int):
        raise TypeError(f"max_message_size must be an int, not {max_message_size!r}")
    if max_message_size < 0:
        raise ValueError(f"max_message_size must be >= 0, not {max_message_size}")


def _resolve_model(model: TypeModel | None) -> TypeModel:
    """``None`` means the default model; imported late so the core can import us."""
    if model is not None:
        return model
    from ._model import default_model

    return default_model


# --------------------------------------------------------------------------- #
# Writing
# --------------------------------------------------------------------------- #


def _frame(body: bytes, style: PrefixStyle, tag: bytes) -> bytes:
    """Prefix (and tag) followed by the body, as one buffer for one write()."""
    n = len(body)
    if style is PrefixStyle.BASE128:
        return b"".join((tag, encode_varint(n), body))
    if n > 0xFFFFFFFF:
        raise EncodeError(f"a message of {n} bytes does not fit a {style.name} length prefix")
    if style is PrefixStyle.FIXED32:
        return _pack_le32(n) + body
    return _pack_be32(n) + body


def _write_all(stream: _Writable, data: bytes) -> None:
    """Write every byte, looping on raw streams that accept only part of a buffer.

    Buffered binary streams write everything in one call; raw ones (an
    unbuffered socket file, say) may take a prefix and return its length.  A
    ``None`` result is taken as "all written", which is what simple
    user-defined file-likes return.
    """
    written = stream.write(data)
    if written is None or written >= len(data):
        return
    pos = written
    view = memoryview(data)
    while pos < len(data):
        written = stream.write(bytes(view[pos:]))
        if written is None:
            return
        if written <= 0:
            raise OSError(f"the stream stopped accepting bytes after {pos} of {len(data)}")
        pos += written


def serialize_with_length_prefix(
    stream: _Writable,
    obj: object,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: TypeModel | None = None,
) -> None:
    """Write ``obj`` to ``stream`` as one length-prefixed message.

    The message is encoded completely before anything is written, so an
    :class:`EncodeError` leaves the stream untouched.  With ``BASE128`` and
    ``field_number > 0`` the frame is a complete ``repeated T field_number``
    entry: concatenated frames parse as a wrapper message in any runtime.
    ``FIXED32`` styles with ``field_number > 0`` raise :class:`ValueError`
    (see :class:`PrefixStyle`).
    """
    _check_framing(style, field_number)
    _check_binary(stream)
    codec = _resolve_model(model)
    tag = tag_bytes(field_number, WireType.LEN) if field_number else b""
    _write_all(stream, _frame(codec.serialize(obj), style, tag))


def serialize_items(
    stream: _Writable,
    iterable: Iterable[object],
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: TypeModel | None = None,
) -> int:
    """Write each item of ``iterable`` as a length-prefixed message; return how many.

    Items are encoded and written one at a time, so a generator of a million
    records never exists in memory at once.  If an item fails to encode, the
    items before it have been written and the failing one has not.
    """
    _check_framing(style, field_number)
    _check_binary(stream)
    codec = _resolve_model(model)
    serialize = codec.serialize
    tag = tag_bytes(field_number, WireType.LEN) if field_number else b""
    count = 0
    for obj in iterable:
        _write_all(stream, _frame(serialize(obj), style, tag))
        count += 1
    return count


# --------------------------------------------------------------------------- #
# Reading
# --------------------------------------------------------------------------- #


def _start_offset(stream: object) -> int:
    """The stream's position if it can tell us, else 0 (offsets become relative)."""
    tell = getattr(stream, "tell", None)
    if tell is None:
        return 0
    try:
        pos = tell()
    except (OSError, ValueError):  # pipes, sockets: io.UnsupportedOperation
        return 0
    return pos if isinstance(pos, int) else 0


def _strip_offset(exc: DecodeError) -> str:
    """The message of ``exc`` without the ``(at byte offset N)`` it appended."""
    text = str(exc)
    suffix = f" (at byte offset {exc.offset})"
    if exc.offset is not None and text.endswith(suffix):
        return text[: -len(suffix)]
    return text


class _End:
    """Sentinel for "the stream ended cleanly" (an item itself is never this)."""


_END = _End()


class _Source:
    """A stream plus the absolute offset of the next byte it will deliver.

    It never asks for a byte it does not consume, which is what keeps the
    stream positioned right after the last item.
    """

    __slots__ = ("index", "pos", "read")

    def __init__(self, stream: _Readable, pos: int) -> None:
        self.read = stream.read
        self.pos = pos
        #: Index of the item being read (``None`` for a single-item call).
        self.index: int | None = None

    def label(self, what: str) -> str:
        """Error-message prefix naming the item; built only when an error is raised."""
        item = "item" if self.index is None else f"item {self.index}"
        return f"{item}: {what}"

    def chunk(self, size: int) -> bytes:
        """One ``read(size)``: may be short, empty at end of stream."""
        data = self.read(size)
        if data is None:  # a non-blocking raw stream with nothing ready
            raise BlockingIOError("the stream has no data ready; use a blocking stream")
        return data

    def read_varint_bytes(self, what: str) -> bytes | None:
        """Raw bytes of one varint; ``None`` if the stream ends before its first byte.

        Reads one byte at a time and at most ten; decoding them (and the
        over-long check) is :func:`protoattr._wire.decode_varint`'s job.
        """
        first = self.chunk(1)
        if not first:
            return None
        self.pos += 1
        if first[0] < 0x80:
            return first
        start = self.pos - 1
        buf = bytearray(first)
        while len(buf) < 10:
            b = self.chunk(1)
            if not b:
                raise DecodeError(
                    f"{self.label(what)} is cut short: "
                    f"stream ends after {len(buf)} byte(s) of a varint",
                    start,
                )
            self.pos += 1
            buf += b
            if b[0] < 0x80:
                break
        return bytes(buf)

    def read_exact(self, n: int, what: str) -> bytes | bytearray:
        """Exactly ``n`` bytes; :class:`DecodeError` if the stream ends first.

        The first request asks for everything (up to one chunk), which is a
        single call for the common small item; only a short read switches to
        the accumulating loop, whose buffer grows with bytes that really
        arrived, never with what a prefix merely claims.
        """
        start = self.pos
        data = self.chunk(min(n, _CHUNK))
        self.pos += len(data)
        if len(data) == n:
            return data
        buf = bytearray(data)
        while len(buf) < n:
            if not data:
                raise DecodeError(
                    f"{self.label(what)} of {n} bytes starting at stream offset {start} "
                    "is cut short: "
                    f"stream ends after {len(buf)} bytes",
                    self.pos,
                )
            data = self.chunk(min(n - len(buf), _CHUNK))
            self.pos += len(data)
            buf += data
        return buf

    def skip(self, n: int, what: str) -> None:
        """Consume ``n`` bytes without keeping them (bounded chunks, any stream)."""
        start = self.pos
        remaining = n
        while remaining:
            data = self.chunk(min(remaining, _CHUNK))
            if not data:
                raise DecodeError(
                    f"{self.label(what)} of {n} bytes starting at stream offset {start} "
                    "is cut short: "
                    f"stream ends after {n - remaining} bytes",
                    self.pos,
                )
            self.pos += len(data)
            remaining -= len(data)


def _read_varint(src: _Source, what: str, *, eof_ok: bool) -> int | None:
    """A varint from the stream; ``None`` at end of stream only if ``eof_ok``."""
    start = src.pos
    raw = src.read_varint_bytes(what)
    if raw is None:
        if eof_ok:
            return None
        raise DecodeError(f"{src.label(what)} is missing: the stream ends there", start)
    try:
        return decode_varint(raw)[0]
    except DecodeError as exc:
        raise DecodeError(f"{src.label(what)}: {_strip_offset(exc)}", start) from None


def _read_tag(src: _Source, what: str, *, eof_ok: bool) -> tuple[int, int, int] | None:
    """``(field_number, wire_type, tag_offset)`` of the next tag; ``None`` at clean EOF."""
    start = src.pos
    raw = src.read_varint_bytes(what)
    if raw is None:
        if eof_ok:
            return None
        raise DecodeError(f"{src.label(what)} is missing: the stream ends there", start)
    try:
        field_number, wire_type, _ = decode_tag(raw)
    except DecodeError as exc:
        raise DecodeError(f"{src.label(what)}: {_strip_offset(exc)}", start) from None
    return field_number, wire_type, start


def _skip_field(src: _Source, field_number: int, wire_type: int, tag_at: int) -> None:
    """Consume one field whose tag (at ``tag_at``) was just read, nested groups included.

    This is what lets ``field_number > 0`` pick its items out of a serialized
    wrapper message that has other fields as well.  Nothing is buffered:
    values are skipped in bounded chunks.
    """
    what = f"skipped field {field_number}"
    groups: list[int] = []
    while True:
        if wire_type == WireType.VARINT:
            _read_varint(src, f"{what}: varint", eof_ok=False)
        elif wire_type == WireType.I64:
            src.skip(8, f"{what}: fixed64")
        elif wire_type == WireType.I32:
            src.skip(4, f"{what}: fixed32")
        elif wire_type == WireType.LEN:
            length = _read_varint(src, f"{what}: length", eof_ok=False)
            assert length is not None
            src.skip(length, f"{what}: value")
        elif wire_type == WireType.SGROUP:
            if len(groups) >= _MAX_GROUP_DEPTH:
                raise DecodeError(
                    f"{src.label(what)}: groups nested deeper than {_MAX_GROUP_DEPTH}", tag_at
                )
            groups.append(field_number)
        elif not groups or groups[-1] != field_number:  # EGROUP; decode_tag rejects 6, 7
            raise DecodeError(
                f"{src.label(what)}: end-group of field {field_number} without its start-group",
                tag_at,
            )
        else:
            groups.pop()
        if not groups:
            return
        tag = _read_tag(src, f"{what}: tag inside a group", eof_ok=False)
        assert tag is not None
        field_number, wire_type, tag_at = tag


def _read_item(
    cls: type[T],
    src: _Source,
    style: PrefixStyle,
    field_number: int,
    codec: TypeModel,
    max_message_size: int,
) -> T | _End:
    """Read one framed item; :data:`_END` if the stream ends cleanly before it."""
    if style is PrefixStyle.BASE128:
        if field_number:
            while True:
                tag = _read_tag(src, "tag", eof_ok=True)
                if tag is None:
                    return _END
                if tag[0] == field_number and tag[1] == WireType.LEN:
                    break
                # Another field, or this one with another wire type: skipped
                # without buffering it, as protobuf-net omits such records.
                _skip_field(src, *tag)
            prefix_at = src.pos
            length = _read_varint(src, "length prefix", eof_ok=False)
        else:
            prefix_at = src.pos
            length = _read_varint(src, "length prefix", eof_ok=True)
        if length is None:
            return _END
    else:
        prefix_at = src.pos
        head = src.chunk(4)
        if not head:
            return _END
        while len(head) < 4:
            more = src.chunk(4 - len(head))
            if not more:
                raise DecodeError(
                    f"{src.label(style.name + ' length prefix')} is cut short: "
                    f"stream ends after {len(head)} of 4 bytes",
                    prefix_at,
                )
            head += more
        src.pos += 4
        length = (_unpack_le32 if style is PrefixStyle.FIXED32 else _unpack_be32)(head)[0]
    if length > max_message_size:
        raise DecodeError(
            f"{src.label('length prefix')} at stream offset {prefix_at} claims {length} bytes, "
            f"more than max_message_size={max_message_size}",
            prefix_at,
        )
    body_at = src.pos
    body = src.read_exact(length, "body") if length else b""
    try:
        return codec.deserialize(cls, body)
    except DecodeError as exc:
        inner = exc.offset
        where = f"byte {inner} of the body starting at stream offset {body_at}"
        if inner is None:
            where = f"the body starting at stream offset {body_at}"
        raise DecodeError(
            f"{src.label(_strip_offset(exc))}, in {where}", body_at + (inner or 0)
        ) from exc


def deserialize_with_length_prefix(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: TypeModel | None = None,
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
) -> T | None:
    """Read one length-prefixed ``cls`` from ``stream``; ``None`` at a clean end of stream.

    "Clean" means the stream ended exactly where a prefix (or, with a field
    number, a tag) would start.  Anything else that is cut short, a prefix
    larger than ``max_message_size`` or a body that fails to decode is a
    :class:`DecodeError` carrying the stream offset.  On return the stream is
    positioned right after the item: nothing beyond it has been read.

    With ``BASE128`` and ``field_number > 0``, fields with a different number
    (of any wire type, groups included) and entries of ``field_number`` that
    are not length-delimited are skipped, as protobuf-net does, so items can
    be read straight out of a serialized wrapper message that has other
    fields too; skipped bytes are consumed in bounded chunks, never buffered.
    ``FIXED32`` styles with ``field_number > 0`` raise :class:`ValueError`.
    """
    _check_framing(style, field_number)
    _check_max_size(max_message_size)
    _check_binary(stream)
    codec = _resolve_model(model)
    src = _Source(stream, _start_offset(stream))
    item = _read_item(cls, src, style, field_number, codec, max_message_size)
    return None if isinstance(item, _End) else item


def deserialize_items(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: TypeModel | None = None,
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
) -> Iterator[T]:
    """Lazily yield every length-prefixed ``cls`` in ``stream`` until it ends cleanly.

    Each item is read only when the iterator is advanced and nothing is kept
    once it is yielded, so memory stays at one item however long the stream
    is, and the first item is available before the rest has arrived.  The
    arguments are checked when this is called, before any iteration; stream
    errors surface as :class:`DecodeError` from the ``next()`` that meets them,
    after every earlier item has been yielded, and name the item's index and
    stream offset.  Field-number handling is as in
    :func:`deserialize_with_length_prefix`.
    """
    _check_framing(style, field_number)
    _check_max_size(max_message_size)
    _check_binary(stream)
    codec = _resolve_model(model)
    return _iter_items(cls, stream, style, field_number, codec, max_message_size)


def _iter_items(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle,
    field_number: int,
    codec: TypeModel,
    max_message_size: int,
) -> Iterator[T]:
    # A separate generator so that deserialize_items validates eagerly; the
    # start offset is taken at the first next(), when reading really starts.
    src = _Source(stream, _start_offset(stream))
    src.index = 0
    while True:
        item = _read_item(cls, src, style, field_number, codec, max_message_size)
        if isinstance(item, _End):
            return
        yield item
        src.index += 1
