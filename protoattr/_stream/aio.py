"""Length-prefixed streams over asyncio: the same frames, read and written lazily.

``deserialize_items`` calls ``read()`` and expects bytes; an
``asyncio.StreamReader``'s ``read()`` is a coroutine.  The async forms here
take any object with ``async read(n)`` (reading) or ``write(data)`` plus
``async drain()`` (writing) — ``asyncio.StreamReader``/``StreamWriter``, or
an adapter around another event loop's streams — and share the framing of
the synchronous functions:

* Received bytes are framed by the same fast framer (C when the class has a
  plan), straight from what has arrived; an item that is cut by the end of
  what has arrived, or that the framer does not take, is read by the exact
  reader of :mod:`.framing` from the bytes at hand, so items, errors and their
  offsets are the synchronous functions'.  When that reader needs bytes that
  have not arrived, the iterator awaits more and tries the item again.
* Memory stays at the bytes of one read plus one item.  The iterator reads
  ahead (a stream has no way to push bytes back), so bytes after the last item
  taken stay with the iterator: use one iterator per stream.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterable, AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from . import chunks as _chunks
from .framing import (
    _CHUNK,
    DEFAULT_MAX_MESSAGE_SIZE,
    PrefixStyle,
    _check_framing,
    _check_max_size,
    _End,
    _frame,
    _ItemReader,
    _resolve_model,
)

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["deserialize_items_async", "serialize_items_async"]

T = TypeVar("T")

# Items framed from the bytes at hand before the iterator yields them one by one.
_TAKE = 256


class _AsyncReadable(Protocol):
    async def read(self, n: int = -1, /) -> bytes: ...


class _AsyncWritable(Protocol):
    def write(self, data: bytes, /) -> object: ...
    async def drain(self) -> None: ...


class _NeedMore(Exception):
    """The exact reader reached the end of the bytes received so far (not of the stream)."""


class _Window:
    """A synchronous ``read()``/``tell()`` over received bytes, for the exact reader.

    It raises :class:`_NeedMore` instead of returning an empty read while the
    stream has not ended, so the exact reader never mistakes "not yet" for
    "end of stream"; ``wanted`` is how many bytes from the start it asked for.
    """

    __slots__ = ("base", "data", "eof", "pos", "wanted")

    def __init__(self, data: bytes, pos: int, base: int, eof: bool) -> None:
        self.data = data
        self.pos = pos
        self.base = base  # stream offset of data[0]
        self.eof = eof
        self.wanted = 0

    def read(self, size: int) -> bytes:
        data, pos = self.data, self.pos
        if pos >= len(data) and not self.eof:
            self.wanted = pos + size
            raise _NeedMore
        out = data[pos : pos + size]
        self.pos = pos + len(out)
        return out

    def tell(self) -> int:
        return self.base + self.pos


def deserialize_items_async(
    cls: type[T],
    reader: _AsyncReadable,
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: CodecModel | None = None,
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
) -> AsyncIterator[T]:
    """Lazily yield every length-prefixed ``cls`` read from ``reader`` (``async for``).

    ``reader`` has ``async read(n)`` returning up to ``n`` bytes, ``b""`` at the
    end (``asyncio.StreamReader``).  Items are yielded as soon as their bytes
    have arrived; the arguments are checked when this is called; errors are
    the :class:`DecodeError`\\ s of :func:`protoattr.deserialize_items`, with the
    item's index and the offset counted from where reading started.
    """
    _check_framing(style, field_number)
    _check_max_size(max_message_size)
    if isinstance(reader, io.IOBase) or not callable(getattr(reader, "read", None)):
        raise TypeError(
            f"reader must have an async read(n), not {reader!r} "
            "(a file or socket file is read with protoattr.deserialize_items)"
        )
    codec = _resolve_model(model)
    framer = _chunks.framer_for(cls, style, field_number, codec, max_message_size)
    return _aiter_items(cls, reader, style, field_number, codec, max_message_size, framer)


async def _aiter_items(
    cls: type[T],
    reader: _AsyncReadable,
    style: PrefixStyle,
    field_number: int,
    codec: CodecModel,
    max_message_size: int,
    framer: Any,
) -> AsyncIterator[T]:
    data = b""  # received and not yet taken from data[pos:]
    pos = base = index = 0  # base: stream offset of data[0]
    eof = False
    wanted = 0  # the exact reader needs data to reach this length before it tries again
    while True:
        if len(data) - pos >= wanted or eof:
            items, pos = framer.take(data, pos, _TAKE)
            for item in items:
                yield item
            index += len(items)
            if len(items) == _TAKE:
                continue
            window = _Window(data, pos, base, eof)
            exact = _ItemReader(cls, window, style, field_number, codec, max_message_size)
            exact.src.index = index
            try:
                item = exact.next()
            except _NeedMore:
                wanted = window.wanted - pos
            else:
                if isinstance(item, _End):
                    return
                pos = window.pos
                wanted = 0
                yield item
                index += 1
                continue
        more = await reader.read(_CHUNK)
        if not more:
            eof = True
            continue
        data = data[pos:] + more
        base += pos
        pos = 0


async def serialize_items_async(
    writer: _AsyncWritable,
    items: Iterable[object] | AsyncIterable[object],
    style: PrefixStyle = PrefixStyle.BASE128,
    field_number: int = 0,
    *,
    model: CodecModel | None = None,
) -> int:
    """Write each item as a length-prefixed message to ``writer``; return how many.

    ``writer`` has ``write(data)`` and ``async drain()`` (``asyncio.StreamWriter``);
    it is drained after every batch and is not closed.  A plain iterable is
    written in batches of about 64 KiB (its items are there already); an async
    iterable item by item as they come, so a slow producer's items are not held
    back.  If an item fails to encode, the items before it have been written.
    """
    _check_framing(style, field_number)
    codec = _resolve_model(model)
    if isinstance(items, AsyncIterable):
        return await _write_async_iterable(writer, items, style, field_number, codec)
    batches = _chunks.Batches(iter(items), style, field_number, codec)
    total = 0
    while True:
        batch, count, done, error = batches.next()
        if batch:
            writer.write(batch)
            await writer.drain()
        total += count
        if error is not None:
            raise error
        if done:
            return total


async def _write_async_iterable(
    writer: _AsyncWritable,
    items: AsyncIterable[object],
    style: PrefixStyle,
    field_number: int,
    codec: CodecModel,
) -> int:
    tag = _chunks.framing_tag(field_number)
    serialize = codec.serialize
    count = unflushed = 0
    async for obj in items:
        data = _frame(serialize(obj), style, tag)
        writer.write(data)
        count += 1
        unflushed += len(data)
        if unflushed >= _chunks.BATCH:
            await writer.drain()
            unflushed = 0
    await writer.drain()
    return count
