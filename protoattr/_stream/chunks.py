"""Streams at the speed of their messages: big reads, batched writes, framing in C.

Reading a stream item by item with exact ``read()`` calls (:mod:`.framing`)
costs about half a microsecond per item in Python frames and calls, as much
as decoding a small record.  This module takes the common case off that path:

* **Reading** takes big chunks from the stream and frames items out of them,
  in C (the engine's ``FrameReader``, which decodes each body with the class's
  plan straight from the chunk) or, on the Python backend, in one Python loop.
  Whatever the fast framer does not take — a frame cut by the chunk's end, a
  tag to skip, a prefix over the limit, a body that fails to decode — it hands
  back, and that one item is read by :class:`.framing._ItemReader` from the
  exact position, so items, errors, messages and offsets are the exact
  reader's.  Read-ahead is only used where it can be undone: on streams whose
  ``seek`` is cheap (files, ``BytesIO``) the unread rest of a chunk is given
  back with a relative seek when the iterator stops, is closed or is
  collected; on other buffered streams (``peek()``: pipes, sockets,
  ``gzip``) only the bytes already in the stream's own buffer are framed and
  then consumed.  Any other stream keeps exact reads.
* **Writing** encodes items into one buffer, frames included, and writes it
  every :data:`BATCH` bytes — the same bytes, in fewer ``write()`` calls.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any, Literal, Protocol, TypeVar

from .. import _native
from .._core.wire import WireType, tag_bytes
from .._model.codecs import CodecModel
from .framing import (
    _CHUNK,
    PrefixStyle,
    _End,
    _frame,
    _ItemReader,
    _Readable,
    _would_block,
)

T = TypeVar("T")

#: the C engine (``None`` when it is not built), looked up once
_ENGINE = _native.engine()

#: Bytes of frames collected before one ``write()``.
BATCH = 1 << 16

#: Bytes asked for by one read of a seekable stream (the tests make it small).
READ_SIZE = _CHUNK

#: Streams whose ``seek`` is a pointer move or one ``lseek``: the only ones read
#: ahead and then put back (a ``GzipFile`` can seek, but backwards by decompressing
#: again from the start).
_CHEAP_SEEK = (io.BytesIO, io.BufferedReader, io.BufferedRandom, io.FileIO)


class _Refill(Protocol):
    def __call__(self, consumed: int, yielded: int, final: bool, /) -> Any: ...


def read_mode(stream: object) -> str | None:
    """``"seek"``, ``"peek"`` or ``None`` (exact reads): how far ``stream`` may be read ahead."""
    if isinstance(stream, _CHEAP_SEEK):
        try:
            if stream.seekable():
                return "seek"
        except (OSError, ValueError):
            pass
    peek = getattr(stream, "peek", None)
    return "peek" if callable(peek) else None


def framing_tag(field_number: int) -> bytes:
    """The tag bytes in front of each item (empty without a field number)."""
    return tag_bytes(field_number, WireType.LEN) if field_number else b""


def _runs_plans(model: object) -> bool:
    """A model of ours on the engine; any other object with ``serialize``/``deserialize``
    (a stand-in, a wrapper) is called as it is.  The engine counts a bounded model's
    messages per decode (each item starts a fresh count, as ``deserialize`` does)."""
    return isinstance(model, CodecModel) and model.backend == "native"


def plan_of(model: CodecModel, cls: object) -> Any:
    """The engine's plan decoding ``cls`` in ``model``, or ``None`` (then Python frames).

    A class that is not a contract gets ``None``:
    its error comes from the exact reader, where it always came from.
    """
    engine = _ENGINE
    if engine is None or not _runs_plans(model):
        return None
    if not isinstance(cls, type):
        return None
    try:
        codec = model._compiled_codec(cls)
    except Exception:  # the same error is raised when the first item is decoded
        return None
    plan = getattr(codec.decode, "__self__", None)
    return plan if type(plan) is engine.Plan else None


def _decoder(model: CodecModel, cls: Any) -> Callable[[bytes, int, int], Any]:
    """``(chunk, start, end) -> item`` for the Python framer.

    A codec of ours decodes straight from the chunk (no slice, no model call);
    a model counting messages, or any other model, gets its own ``deserialize``.
    """
    if isinstance(model, CodecModel) and model.max_messages is None and isinstance(cls, type):
        try:
            codec = model._compiled_codec(cls)
        except Exception:  # the exact reader raises it again, where it always did
            codec = None
        if codec is not None:
            return lambda chunk, start, end: codec.decode(chunk, start, end, 0, None)
    deserialize = model.deserialize
    return lambda chunk, start, end: deserialize(cls, chunk[start:end])


class ChunkSource:
    """Chunks of a stream for a fast framer, with the stream kept where items end.

    It is the ``refill(consumed, yielded, final)`` callable the framers call
    when they cannot go on in the chunk they hold: ``consumed`` bytes of it
    were items (``yielded`` of them).  It answers with the next chunk, with
    ``(item,)`` for one item it read exactly, or ``None`` at the end; with
    ``final`` it only puts the stream back after the last item.
    """

    __slots__ = ("exact", "held", "make_exact", "mode", "stream")

    def __init__(self, stream: Any, mode: str, make_exact: Callable[[], _ItemReader[Any]]) -> None:
        self.stream = stream
        self.mode = mode
        self.make_exact = make_exact
        #: the exact reader, made at the first call (its start offset is taken then)
        self.exact: _ItemReader[Any] | None = None
        self.held = 0  # length of the chunk the framer holds (0: none)

    def __call__(self, consumed: int, yielded: int, final: bool) -> bytes | tuple[Any] | None:
        exact = self.exact
        if final and (exact is None or getattr(self.stream, "closed", False)):
            return None  # nothing was read, or nothing can be given back to a closed stream
        if exact is None:
            exact = self.exact = self.make_exact()
            exact.src.index = 0
        src = exact.src
        assert src.index is not None
        src.index += yielded
        src.pos += consumed
        held, self.held = self.held, 0
        if self.mode == "seek":
            if held > consumed:
                self.stream.seek(consumed - held, io.SEEK_CUR)
        elif consumed:
            self.stream.read(consumed)  # peek: the items were only looked at
        if final:
            return None
        stuck = held and not consumed  # not even the first frame of a fresh chunk
        if not stuck:
            chunk = self.stream.read(READ_SIZE) if self.mode == "seek" else self.stream.peek(1)
            if chunk is None:
                _would_block()
            if chunk:
                self.held = len(chunk)
                return chunk if chunk.__class__ is bytes else bytes(chunk)
            if self.mode == "seek":
                return None  # an empty read: the end
            # An empty peek() is the end, or nothing ready on a non-blocking stream
            # (which peek does not say): the exact reader's read() tells them apart.
        # not even the chunk's first frame, or nothing peeked: one item read exactly
        item = exact.next()
        if isinstance(item, _End):
            return None
        src.index += 1
        return (item,)


class PyFramer:
    """The Python backend's framer: ``FrameReader``'s loop and ``take``, in Python."""

    __slots__ = ("decode", "fixed", "max_size", "tag")

    def __init__(
        self,
        decode: Callable[[bytes, int, int], Any],
        style: PrefixStyle,
        tag: bytes,
        max_size: int,
    ) -> None:
        self.decode = decode
        #: byte order of a FIXED32 prefix, None for BASE128
        self.fixed: Literal["little", "big"] | None = None
        if style is not PrefixStyle.BASE128:
            self.fixed = "little" if style is PrefixStyle.FIXED32 else "big"
        self.tag = tag
        self.max_size = max_size

    def take_one(self, chunk: bytes, pos: int) -> tuple[Any, int] | None:
        """The item at ``chunk[pos:]`` and where it ends, or ``None`` for the exact reader."""
        end = len(chunk)
        tag = self.tag
        if tag:
            if not chunk.startswith(tag, pos):
                return None
            pos += len(tag)
        if self.fixed is not None:
            if end - pos < 4:
                return None
            n = int.from_bytes(chunk[pos : pos + 4], self.fixed)
            pos += 4
        else:
            n = shift = 0
            while True:
                if pos >= end or shift > 56:
                    return None
                b = chunk[pos]
                pos += 1
                n |= (b & 0x7F) << shift
                if b < 0x80:
                    break
                shift += 7
        if n > self.max_size or n > end - pos:
            return None
        try:
            item = self.decode(chunk, pos, pos + n)
        except Exception:  # the exact reader raises it again, with the item and offset
            return None
        return item, pos + n

    def take(self, chunk: bytes, pos: int, limit: int) -> tuple[list[Any], int]:
        items: list[Any] = []
        take_one = self.take_one
        while len(items) < limit:
            got = take_one(chunk, pos)
            if got is None:
                break
            items.append(got[0])
            pos = got[1]
        return items, pos

    def iterate(self, refill: _Refill) -> Iterator[Any]:
        """Items until ``refill`` says the stream ended; the stream put back when stopped."""
        chunk = b""
        pos = yielded = 0
        held = finished = False
        take_one = self.take_one
        try:
            while True:
                if held:
                    got = take_one(chunk, pos)
                    if got is not None:
                        pos = got[1]
                        yielded += 1
                        yield got[0]
                        continue
                try:
                    more = refill(pos if held else 0, yielded, False)
                except BaseException:
                    finished = True
                    raise
                pos = yielded = 0
                held = False
                if more is None:
                    finished = True
                    return
                if more.__class__ is tuple:
                    yield more[0]
                    continue
                chunk, held = more, True
        finally:
            if not finished:
                refill(pos if held else 0, yielded, True)


def iter_items(
    cls: type[T],
    stream: _Readable,
    style: PrefixStyle,
    field_number: int,
    codec: CodecModel,
    max_message_size: int,
    mode: str,
) -> Iterator[T]:
    """``deserialize_items`` over a stream that may be read ahead (``mode``)."""
    source = ChunkSource(
        stream,
        mode,
        lambda: _ItemReader(cls, stream, style, field_number, codec, max_message_size),
    )
    tag = framing_tag(field_number)
    plan = plan_of(codec, cls)
    if plan is not None:
        engine = _ENGINE
        assert engine is not None
        reader: Iterator[T] = engine.FrameReader(plan, style.value, tag, max_message_size, source)
        return reader
    framer = PyFramer(_decoder(codec, cls), style, tag, max_message_size)
    return framer.iterate(source)


def framer_for(
    cls: Any, style: PrefixStyle, field_number: int, codec: CodecModel, max_message_size: int
) -> Any:
    """An object with ``take(chunk, pos, limit) -> (items, pos)``: C when there is a plan."""
    tag = framing_tag(field_number)
    plan = plan_of(codec, cls)
    if plan is not None:
        engine = _ENGINE
        assert engine is not None
        return engine.FrameReader(plan, style.value, tag, max_message_size, None)
    return PyFramer(_decoder(codec, cls), style, tag, max_message_size)


# --------------------------------------------------------------------------- #
# Writing
# --------------------------------------------------------------------------- #


def _plan_finder(model: CodecModel) -> Callable[[type], Any]:
    """``type -> plan or None`` for the engine's writer (``None``: ``frame(obj)`` runs)."""
    engine = _ENGINE
    plan_type = None if engine is None else engine.Plan

    def plan_for(tp: type) -> Any:
        codec = model._codecs.get(tp)
        if codec is None or not codec.compiled:
            try:
                codec = model._compiled_codec(tp)
            except Exception:  # frame(obj) raises the error, as serialize() does
                return None
        plan = getattr(codec.encode, "__self__", None)
        return plan if type(plan) is plan_type else None

    return plan_for


def _py_encode_frames(
    frame: Callable[[Any], bytes], it: Iterator[Any], max_bytes: int
) -> tuple[bytes, int, bool, BaseException | None]:
    """``encode_frames`` of the engine, in Python: a batch, its count, done, the error."""
    parts: list[bytes] = []
    size = count = 0
    try:
        for obj in it:
            data = frame(obj)
            parts.append(data)
            size += len(data)
            count += 1
            if size >= max_bytes:
                return b"".join(parts), count, False, None
    except BaseException as exc:  # written after the items before it, then raised
        return b"".join(parts), count, False, exc
    return b"".join(parts), count, True, None


class Batches:
    """The frames of an iterable's items, a batch of about :data:`BATCH` bytes at a time.

    An item that fails to encode (or an iterable that raises) ends the batch
    before it: :meth:`next` returns that batch with the exception, so the
    caller writes the items before the bad one and then raises.
    """

    __slots__ = ("frame", "it", "plan_for", "style", "tag")

    def __init__(
        self, it: Iterator[Any], style: PrefixStyle, field_number: int, codec: CodecModel
    ) -> None:
        tag = framing_tag(field_number)
        serialize = codec.serialize
        self.it = it
        self.style = style
        self.tag = tag
        self.frame: Callable[[Any], bytes] = lambda obj: _frame(serialize(obj), style, tag)
        native = _runs_plans(codec) and _ENGINE is not None
        self.plan_for = _plan_finder(codec) if native else None

    def next(self) -> tuple[bytes, int, bool, BaseException | None]:
        """``(batch, items in it, iterable exhausted, exception or None)``."""
        if self.plan_for is None:
            return _py_encode_frames(self.frame, self.it, BATCH)
        engine = _ENGINE
        assert engine is not None
        batch, count, done, error = engine.encode_frames(
            self.plan_for, self.frame, self.it, self.style.value, self.tag, BATCH
        )
        return batch, count, done, error
