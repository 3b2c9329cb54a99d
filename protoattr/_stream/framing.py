"""The exact framing of length-prefixed messages: prefixes, tags, and one item at a time.

Protobuf messages are not self-delimiting, so a file or socket carrying many of
them needs a frame around each one.  This module knows the three frames
protobuf-net knows (:class:`PrefixStyle`) and reads an item with exact reads:
it is the reference every faster path of :mod:`protoattr._stream` falls back
to, item by item, so that all of them give the same items and the same errors.

Design points, each for a reason:

* **No read-ahead.**  Prefixes and tags are read one byte at a time (they are at
  most ten bytes) and a body with exact ``read(n)`` calls, so when an item has
  been read the stream sits right after it.
* **Short reads are normal.**  Sockets, pipes and raw files may return fewer
  bytes than asked for; every read loops until it has all it needs or the
  stream ends.  Only an empty read means end of stream.
* **A length prefix is a claim, not a fact.**  A body is read in chunks of at
  most :data:`_CHUNK` bytes and the buffer grows only with bytes that actually
  arrived, so a corrupt prefix claiming gigabytes on a short stream fails with
  :class:`DecodeError` at once instead of allocating what it claims.
* **Errors say where.**  Every :class:`DecodeError` names the item (its index in
  ``deserialize_items``) and carries the absolute stream offset: the
  stream's ``tell()`` when it has one, otherwise bytes counted from where the
  call started.
"""

from __future__ import annotations

import io
import struct
from enum import Enum
from typing import TYPE_CHECKING, Generic, NoReturn, Protocol, TypeVar

from .._core.errors import DecodeError, EncodeError
from .._core.wire import (
    MAX_FIELD_NUMBER,
    WireType,
    decode_tag,
    decode_varint,
    encode_varint,
    make_tag,
)
from .._model import codecs as _codecs

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["DEFAULT_MAX_MESSAGE_SIZE", "PrefixStyle"]

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


_CO_COROUTINE = 0x80  # inspect.CO_COROUTINE, without importing inspect at start-up


def _check_sync_reader(stream: object) -> None:
    """An asyncio stream's ``read`` is a coroutine function: point to the async reader."""
    code = getattr(getattr(stream, "read", None), "__code__", None)
    if code is not None and code.co_flags & _CO_COROUTINE:
        raise TypeError(
            f"{type(stream).__name__}.read is a coroutine function: read an asyncio stream "
            "with protoattr.deserialize_items_async (async for)"
        )


def _check_max_size(max_message_size: int) -> None:
    if isinstance(max_message_size, bool) or not isinstance(max_message_size, int):
        raise TypeError(f"max_message_size must be an int, not {max_message_size!r}")
    if max_message_size < 0:
        raise ValueError(f"max_message_size must be >= 0, not {max_message_size}")


def _resolve_model(model: CodecModel | None) -> CodecModel:
    """``None`` means the default model; imported late so the core can import us."""
    return _codecs.default() if model is None else model


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
    stream positioned right after the last item.  These are the slow paths
    (multi-byte varints, short reads, skipping); :class:`_ItemReader` inlines
    the common one-byte-prefix, one-read-body case.
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
        if data is None:
            _would_block()
        return data

    def varint_tail(self, first: bytes, start: int, what: str) -> int:
        """Finish a varint whose first byte (already counted) had its high bit set.

        Reads one byte at a time and at most ten in all; decoding them (and
        the over-long check) is :func:`protoattr._core.wire.decode_varint`'s job.
        """
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
        try:
            return decode_varint(bytes(buf))[0]
        except DecodeError as exc:
            raise DecodeError(f"{self.label(what)}: {_strip_offset(exc)}", start) from None

    def read_exact(self, n: int, what: str, head: bytes = b"") -> bytes | bytearray:
        """``head`` (already read and counted) completed to exactly ``n`` bytes.

        The buffer grows only with bytes that really arrived, in reads of at
        most :data:`_CHUNK`, never with what a length prefix merely claims;
        :class:`DecodeError` if the stream ends first.
        """
        start = self.pos - len(head)
        buf = bytearray(head)
        while len(buf) < n:
            data = self.chunk(min(n - len(buf), _CHUNK))
            if not data:
                raise DecodeError(
                    f"{self.label(what)} of {n} bytes starting at stream offset {start} "
                    f"is cut short: stream ends after {len(buf)} bytes",
                    self.pos,
                )
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
                    f"is cut short: stream ends after {n - remaining} bytes",
                    self.pos,
                )
            self.pos += len(data)
            remaining -= len(data)


def _would_block() -> NoReturn:
    # read() returns None only on a non-blocking raw stream with nothing ready.
    raise BlockingIOError("the stream has no data ready; use a blocking stream")


def _read_varint(src: _Source, what: str) -> int:
    """A varint that must be there (inside a skipped field, after a tag)."""
    start = src.pos
    first = src.chunk(1)
    if not first:
        raise DecodeError(f"{src.label(what)} is missing: the stream ends there", start)
    src.pos += 1
    return first[0] if first[0] < 0x80 else src.varint_tail(first, start, what)


def _tag(src: _Source, first: bytes, start: int, what: str) -> tuple[int, int]:
    """``(field_number, wire_type)`` of a tag whose first byte was read, validated."""
    value = first[0] if first[0] < 0x80 else src.varint_tail(first, start, what)
    try:  # _wire owns the rules (field 1..2**29-1, wire type 0..5) and their messages
        field_number, wire_type, _ = decode_tag(encode_varint(value))
    except DecodeError as exc:
        raise DecodeError(f"{src.label(what)}: {_strip_offset(exc)}", start) from None
    return field_number, wire_type


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
            _read_varint(src, f"{what}: varint")
        elif wire_type == WireType.I64:
            src.skip(8, f"{what}: fixed64")
        elif wire_type == WireType.I32:
            src.skip(4, f"{what}: fixed32")
        elif wire_type == WireType.LEN:
            src.skip(_read_varint(src, f"{what}: length"), f"{what}: value")
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
        tag_at = src.pos
        first = src.chunk(1)
        if not first:
            raise DecodeError(
                f"{src.label(what)}: tag inside a group is missing: the stream ends there", tag_at
            )
        src.pos += 1
        field_number, wire_type = _tag(src, first, tag_at, f"{what}: tag inside a group")


class _ItemReader(Generic[T]):
    """Reads framed items of one class from one stream, one per :meth:`next` call.

    Everything that does not change between items (the bound decode function,
    the expected tag, the style) is worked out once here, so the per-item
    path for the usual case (one-byte tag and prefix, body in one read) is a
    handful of reads and comparisons; every unusual case drops into
    :class:`_Source`'s slow paths.
    """

    __slots__ = ("cls", "decode", "max_size", "src", "style", "tag", "tag_byte", "unpack")

    def __init__(
        self,
        cls: type[T],
        stream: _Readable,
        style: PrefixStyle,
        field_number: int,
        codec: CodecModel,
        max_message_size: int,
    ) -> None:
        self.src = _Source(stream, _start_offset(stream))
        self.cls = cls
        self.decode = codec.deserialize
        self.style = style
        self.max_size = max_message_size
        #: The expected tag's value (0: no tag), and its byte when it is a single byte.
        self.tag = make_tag(field_number, WireType.LEN) if field_number else 0
        self.tag_byte = self.tag if self.tag < 0x80 else -1
        self.unpack = _unpack_be32 if style is PrefixStyle.FIXED32_BIG_ENDIAN else _unpack_le32

    def next(self) -> T | _End:
        """The next item, or :data:`_END` if the stream ends cleanly before it."""
        src = self.src
        read = src.read
        if self.style is not PrefixStyle.BASE128:
            return self._next_fixed32()
        first = read(1)
        if not first:
            if first is None:
                _would_block()
            return _END
        src.pos += 1
        if self.tag:
            if first[0] != self.tag_byte and not self._find_tag(first):
                return _END
            first = read(1)
            if not first:
                if first is None:
                    _would_block()
                raise DecodeError(
                    f"{src.label('length prefix')} is missing: the stream ends there", src.pos
                )
            src.pos += 1
        prefix_at = src.pos - 1
        length = first[0]
        if length >= 0x80:
            length = src.varint_tail(first, prefix_at, "length prefix")
        return self._body(length, prefix_at)

    def _find_tag(self, first: bytes) -> bool:
        """Slow path: a multi-byte tag or another field; skip until ours (``False`` at EOF)."""
        src = self.src
        want = (self.tag >> 3, WireType.LEN)
        while True:
            tag_at = src.pos - 1
            tag = _tag(src, first, tag_at, "tag")
            if tag == want:
                return True
            # Another field, or ours with another wire type: skipped without
            # buffering it, as protobuf-net omits records with another tag.
            _skip_field(src, tag[0], tag[1], tag_at)
            first = src.chunk(1)
            if not first:
                return False
            src.pos += 1

    def _next_fixed32(self) -> T | _End:
        src = self.src
        prefix_at = src.pos
        head = src.read(4)
        if not head:
            if head is None:
                _would_block()
            return _END
        while len(head) < 4:
            more = src.chunk(4 - len(head))
            if not more:
                raise DecodeError(
                    f"{src.label(self.style.name + ' length prefix')} is cut short: "
                    f"stream ends after {len(head)} of 4 bytes",
                    prefix_at,
                )
            head += more
        src.pos += 4
        return self._body(self.unpack(head)[0], prefix_at)

    def _body(self, length: int, prefix_at: int) -> T:
        src = self.src
        if length > self.max_size:
            raise DecodeError(
                f"{src.label('length prefix')} at stream offset {prefix_at} claims {length} "
                f"bytes, more than max_message_size={self.max_size}",
                prefix_at,
            )
        body_at = src.pos
        body: bytes | bytearray = b""
        if length:
            body = src.read(min(length, _CHUNK)) or b""  # None (would block): read_exact says so
            src.pos += len(body)
            if len(body) != length:
                body = src.read_exact(length, "body", body)
        try:
            return self.decode(self.cls, body)
        except DecodeError as exc:
            inner = exc.offset
            where = f"byte {inner} of the body starting at stream offset {body_at}"
            if inner is None:
                where = f"the body starting at stream offset {body_at}"
            raise DecodeError(
                f"{src.label(_strip_offset(exc))}, in {where}", body_at + (inner or 0)
            ) from exc
