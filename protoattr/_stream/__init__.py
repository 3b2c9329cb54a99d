"""Streams of length-prefixed messages (protobuf-net's ``*WithLengthPrefix``).

A file or socket carrying many messages needs a frame around each one; these
functions write and read the three frames protobuf-net knows, item by item, so
a stream of a million records is produced and consumed in constant memory
instead of being built as one giant ``repeated`` message (Google's
"techniques: streaming multiple messages"; seed 001).

The package is three modules with one job each: :mod:`.framing` reads and
writes one frame exactly (the reference behaviour: errors, offsets, where the
stream is left), :mod:`.chunks` runs the common case at the speed of the
messages themselves (big reads, batched writes, framing in C), and
:mod:`.aio` is the same over asyncio streams.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from . import chunks as _chunks
from .aio import deserialize_items_async, serialize_items_async
from .framing import (
    DEFAULT_MAX_MESSAGE_SIZE,
    PrefixStyle,
    _check_binary,
    _check_framing,
    _check_max_size,
    _check_sync_reader,
    _End,
    _frame,
    _ItemReader,
    _Readable,
    _resolve_model,
    _Writable,
    _write_all,
)

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = [
    "PrefixStyle",
    "deserialize_items",
    "deserialize_items_async",
    "deserialize_with_length_prefix",
    "serialize_items",
    "serialize_items_async",
    "serialize_with_length_prefix",
]

T = TypeVar("T")


def serialize_with_length_prefix(
    stream: _Writable,
    obj: object,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: CodecModel | None = None,
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
    _write_all(stream, _frame(codec.serialize(obj), style, _chunks.framing_tag(field_number)))


def serialize_items(
    stream: _Writable,
    iterable: Iterable[object],
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: CodecModel | None = None,
) -> int:
    """Write each item of ``iterable`` as a length-prefixed message; return how many.

    Items are encoded one at a time into a batch that is written every 64 KiB
    (and at the end), so a generator of a million records never exists in
    memory at once and a stream sees few large writes.  If an item fails to
    encode, the items before it have been written and the failing one has not.
    """
    _check_framing(style, field_number)
    _check_binary(stream)
    codec = _resolve_model(model)
    batches = _chunks.Batches(iter(iterable), style, field_number, codec)
    total = 0
    while True:
        batch, count, done, error = batches.next()
        if batch:
            _write_all(stream, batch)
        total += count
        if error is not None:
            raise error
        if done:
            return total


def deserialize_with_length_prefix(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: CodecModel | None = None,
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
    _check_sync_reader(stream)
    codec = _resolve_model(model)
    item = _ItemReader(cls, stream, style, field_number, codec, max_message_size).next()
    return None if isinstance(item, _End) else item


def deserialize_items(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: CodecModel | None = None,
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
) -> Iterator[T]:
    """Lazily yield every length-prefixed ``cls`` in ``stream`` until it ends cleanly.

    Each item is decoded only when the iterator is advanced and nothing is
    kept once it is yielded, so memory stays at one item (and one read chunk)
    however long the stream is, and the first item is available before the
    rest has arrived.  The arguments are checked when this is called, before
    any iteration; stream errors surface as :class:`DecodeError` from the
    ``next()`` that meets them, after every earlier item has been yielded, and
    name the item's index and stream offset.  Field-number handling is as in
    :func:`deserialize_with_length_prefix`.

    Files and ``BytesIO`` are read in 1 MiB chunks and other buffered streams
    (pipes, sockets, ``gzip``) from their own buffer; the stream is put back
    right after the last item yielded when the iterator ends, is closed or is
    collected.  Streams that can do neither are read exactly, item by item.
    """
    _check_framing(style, field_number)
    _check_max_size(max_message_size)
    _check_binary(stream)
    _check_sync_reader(stream)
    codec = _resolve_model(model)
    mode = _chunks.read_mode(stream)
    if mode is not None:
        return _chunks.iter_items(cls, stream, style, field_number, codec, max_message_size, mode)
    return _iter_items(cls, stream, style, field_number, codec, max_message_size)


def _iter_items(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle,
    field_number: int,
    codec: CodecModel,
    max_message_size: int,
) -> Iterator[T]:
    # A separate generator so that deserialize_items validates eagerly; the
    # start offset is taken at the first next(), when reading really starts.
    reader = _ItemReader(cls, stream, style, field_number, codec, max_message_size)
    src = reader.src
    src.index = 0
    read_next = reader.next
    while True:
        item = read_next()
        if isinstance(item, _End):
            return
        yield item
        src.index += 1
