"""Streams read in chunks and written in batches: the exact reader's items, errors and positions.

``deserialize_items`` reads files and ``BytesIO`` ahead in big chunks, and other
buffered streams from their own buffer, framing items in C (or, on the Python
backend, in one Python loop); ``serialize_items`` writes batches.  Every test
here holds that against the exact reader (a trickling, non-seekable stream,
read byte by byte) on both backends: same items, same errors and offsets, the
stream left right after the last item taken.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import DecodeError, EncodeError, PrefixStyle, field, proto_contract
from protoattr._stream import chunks
from tests.test_stream import (
    BOILERS,
    FRAMING_IDS,
    FRAMINGS,
    GOOD,
    Blob,
    Boiler,
    Point,
    TrickleReader,
    written,
)

BASE128 = PrefixStyle.BASE128


class _PipeRaw(io.RawIOBase):
    """A non-seekable raw stream returning at most ``step`` bytes a read (a pipe)."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data = io.BytesIO(data)
        self._step = step

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        chunk = self._data.read(min(len(b), self._step))
        b[: len(chunk)] = chunk
        return len(chunk)


def pipe(data: bytes, buffer_size: int = 64, step: int = 50) -> io.BufferedReader:
    return io.BufferedReader(_PipeRaw(data, step), buffer_size=buffer_size)


def gzipped(data: bytes) -> gzip.GzipFile:
    return gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(data)))


#: every kind of stream the chunked readers handle, by the name of the test id
STREAMS: dict[str, Callable[[bytes], object]] = {
    "bytesio": io.BytesIO,
    "buffered-file": lambda data: io.BufferedReader(io.BytesIO(data), buffer_size=32),  # type: ignore[arg-type]
    "pipe": pipe,
    "pipe-big-buffer": lambda data: pipe(data, 1 << 16, 1 << 16),
    "gzip": gzipped,
}


def outcome(stream: object, cls: type, style: PrefixStyle, field_number: int, **kw: int) -> tuple:
    """(items before the error, the error's text and offset) of reading ``stream``."""
    got = []
    try:
        for item in pa.deserialize_items(cls, stream, style, field_number, **kw):  # type: ignore[arg-type]
            got.append(item)
    except DecodeError as exc:
        return got, str(exc), exc.offset
    return got, None, None


@pytest.fixture(params=[1 << 20, 7], ids=["1MiB-reads", "7-byte-reads"])
def read_size(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Reads of a seekable stream as configured, and so small that frames cross them."""
    monkeypatch.setattr(chunks, "READ_SIZE", request.param)
    return int(request.param)


@pytest.mark.parametrize("kind", list(STREAMS))
@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_items_are_the_exact_readers(
    kind: str, style: PrefixStyle, field_number: int, read_size: int
) -> None:
    data = written(BOILERS, style, field_number)
    expected = outcome(TrickleReader(data), Boiler, style, field_number)
    assert expected == (BOILERS, None, None)
    assert outcome(STREAMS[kind](data), Boiler, style, field_number) == expected


BAD_TAILS = [
    b"\x96",  # cut inside the prefix
    b"\x05\x08\x01",  # body cut short
    b"\xff" * 10 + b"\x01",  # over-long prefix
    b"\xff\xff\xff\xff\x0f" + b"\x08" * 5,  # over max_message_size
    b"\x02\x08\x96" + GOOD,  # a body that does not decode, good items after it
    b"\x04\x08\x01\x0a\x05",  # a body whose field is cut inside it
]


@pytest.mark.parametrize("kind", list(STREAMS))
@pytest.mark.parametrize("tail", BAD_TAILS)
def test_errors_are_the_exact_readers(kind: str, tail: bytes, read_size: int) -> None:
    data = GOOD * 20 + tail
    kw = {"max_message_size": 1 << 20}
    expected = outcome(TrickleReader(data), Point, BASE128, 0, **kw)
    assert expected[1] is not None and len(expected[0]) == 40
    assert outcome(STREAMS[kind](data), Point, BASE128, 0, **kw) == expected


@pytest.mark.parametrize("kind", list(STREAMS))
def test_field_number_streams_with_other_fields(kind: str, read_size: int) -> None:
    # other fields of every wire type between the items, and a two-byte-tag field
    others = b"\x08\x05" + b"\x11" + b"\x00" * 8 + b"\x15\x01\x02\x03\x04" + b"\x82\x01\x00"
    data = b"".join(others + written([p], BASE128, 3) for p in map(Point, range(30)))
    expected = outcome(TrickleReader(data), Point, BASE128, 3)
    assert expected == ([Point(i) for i in range(30)], None, None)
    assert outcome(STREAMS[kind](data), Point, BASE128, 3) == expected
    bad = data + b"\x1f"  # wire type 7 after the last item
    assert outcome(STREAMS[kind](bad), Point, BASE128, 3) == outcome(
        TrickleReader(bad), Point, BASE128, 3
    )


def test_an_item_larger_than_a_read(read_size: int) -> None:
    blobs = [Blob(b"x" * 3_000_000), Blob(b"y"), Blob(b"z" * 200)]
    data = written(blobs)  # type: ignore[arg-type]
    assert list(pa.deserialize_items(Blob, io.BytesIO(data))) == blobs


@pytest.mark.parametrize("kind", ["bytesio", "buffered-file", "pipe", "gzip"])
@pytest.mark.parametrize("stop", ["close", "collect", "end"])
def test_the_stream_is_left_right_after_the_last_item_taken(kind: str, stop: str) -> None:
    frames = written(BOILERS[:5])
    trailer = b"\x00\x01rest of the protocol" if stop != "end" else b""
    stream = STREAMS[kind](frames + trailer)
    items: Iterator[Boiler] = pa.deserialize_items(Boiler, stream)  # type: ignore[arg-type]
    if stop == "end":
        assert list(items) == BOILERS[:5]
    else:
        assert [next(items) for _ in range(5)] == BOILERS[:5]
        if stop == "close":
            items.close()  # type: ignore[attr-defined]
        else:
            del items
    assert stream.read() == trailer  # type: ignore[attr-defined]


def test_a_real_file_is_left_after_the_items(tmp_path: Path) -> None:
    path = tmp_path / "items.bin"
    path.write_bytes(written(BOILERS) + b"TRAILER")
    with open(path, "rb") as f:
        items = pa.deserialize_items(Boiler, f)
        assert [next(items) for _ in range(len(BOILERS))] == BOILERS
        items.close()  # type: ignore[attr-defined]
        assert f.read() == b"TRAILER"


def test_nothing_is_read_before_the_first_item_is_asked_for() -> None:
    stream = io.BytesIO(written(BOILERS[:3]))
    items = pa.deserialize_items(Boiler, stream)
    assert stream.tell() == 0
    assert next(items) == BOILERS[0]
    del items
    assert stream.tell() == len(written(BOILERS[:1]))


def test_the_engine_frames_items_on_the_native_backend() -> None:
    items = pa.deserialize_items(Point, io.BytesIO(GOOD))
    native = pa.default_model.backend == "native"
    assert (type(items).__name__ == "FrameReader") is native
    assert list(items) == [Point(1), Point(2)]
    # a model counting messages: the engine counts them too, a fresh count per item
    counted = pa.TypeModel(max_messages=1)
    assert (
        type(pa.deserialize_items(Point, io.BytesIO(GOOD), model=counted)).__name__ == "FrameReader"
    ) is (counted.backend == "native")
    assert list(pa.deserialize_items(Point, io.BytesIO(GOOD), model=counted)) == [
        Point(1),
        Point(2),
    ]


@proto_contract
@dataclass
class Nest:
    kids: list[Point] = field(1, default_factory=list)


@pytest.mark.parametrize("kind", list(STREAMS))
def test_the_message_bound_counts_per_item_and_names_the_item(kind: str) -> None:
    bounded = pa.TypeModel(max_messages=5)
    nests = [Nest([Point(1)] * 4), Nest([Point(2)] * 9), Nest([Point(3)])]
    data = written(nests)  # type: ignore[arg-type]
    got: list[Nest] = []
    with pytest.raises(DecodeError) as info:
        got.extend(pa.deserialize_items(Nest, STREAMS[kind](data), model=bounded))  # type: ignore[arg-type]
    with pytest.raises(DecodeError) as exact:
        list(pa.deserialize_items(Nest, TrickleReader(data), model=bounded))
    assert got == nests[:1]  # 5 messages: within the bound, counted afresh per item
    assert str(info.value).startswith("item 1: ")
    assert (str(info.value), info.value.offset) == (str(exact.value), exact.value.offset)


class _Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.writes.append(bytes(data))
        return len(data)


@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_writes_are_batched_and_are_the_single_frames(
    style: PrefixStyle, field_number: int
) -> None:
    items = [BOILERS[i % len(BOILERS)] for i in range(2000)]
    out = _Recorder()
    assert pa.serialize_items(out, iter(items), style, field_number) == len(items)  # type: ignore[arg-type]
    single = io.BytesIO()
    for b in items:
        pa.serialize_with_length_prefix(single, b, style, field_number)
    assert b"".join(out.writes) == single.getvalue()
    assert 1 < len(out.writes) <= len(single.getvalue()) // chunks.BATCH + 1


def test_a_failing_iterable_leaves_the_items_before_it_written() -> None:
    def points() -> Iterator[Point]:
        yield from map(Point, range(5))
        raise RuntimeError("the source broke")

    out = io.BytesIO()
    with pytest.raises(RuntimeError, match="the source broke"):
        pa.serialize_items(out, points())
    assert out.getvalue() == written([Point(i) for i in range(5)])


def test_items_of_several_classes_and_a_bad_one_among_them() -> None:
    out = io.BytesIO()
    mixed = [Point(1), Blob(b"ab"), Point(2), Point(2**40), Point(3)]
    with pytest.raises(EncodeError, match="Point"):
        pa.serialize_items(out, mixed)
    assert out.getvalue() == written(mixed[:3])


def test_the_sync_reader_refuses_an_asyncio_stream_clearly() -> None:
    class AsyncOnly:
        async def read(self, n: int = -1) -> bytes:
            return b""

    with pytest.raises(TypeError, match="deserialize_items_async"):
        pa.deserialize_items(Point, AsyncOnly())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="deserialize_items_async"):
        pa.deserialize_with_length_prefix(Point, AsyncOnly())  # type: ignore[arg-type]


_FRAME_PARTS = st.one_of(
    st.builds(lambda x: written([Point(x)]), st.integers(-(2**31), 2**31 - 1)),
    st.builds(lambda x: written([Point(x)], BASE128, 3), st.integers(0, 300)),
    st.binary(max_size=12),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_FRAME_PARTS, max_size=12), st.sampled_from([0, 3]), st.sampled_from([3, 64]))
def test_any_bytes_read_chunked_are_read_as_the_exact_reader_reads_them(
    parts: list[bytes], field_number: int, read: int
) -> None:
    data = b"".join(parts)
    expected = outcome(TrickleReader(data), Point, BASE128, field_number)
    chunks.READ_SIZE, saved = read, chunks.READ_SIZE
    try:
        for kind in ("bytesio", "pipe"):
            assert outcome(STREAMS[kind](data), Point, BASE128, field_number) == expected
    finally:
        chunks.READ_SIZE = saved


def test_an_iterator_outliving_its_closed_file_is_collected_quietly(tmp_path: Path) -> None:
    path = tmp_path / "items.bin"
    path.write_bytes(written(BOILERS))
    with open(path, "rb") as f:
        items = pa.deserialize_items(Boiler, f)
        assert next(items) == BOILERS[0]
    del items  # the file is closed: nothing to put back, and no "exception ignored"


def test_a_buffered_non_blocking_stream_with_nothing_ready_is_not_its_end() -> None:
    class NothingYet(io.RawIOBase):
        """A non-blocking raw stream: one frame, then nothing ready (read gives None)."""

        def __init__(self) -> None:
            self._data = written([Point(7)])

        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray | memoryview) -> int | None:  # type: ignore[override]
            if not self._data:
                return None
            n = min(len(b), len(self._data))
            b[:n], self._data = self._data[:n], self._data[n:]
            return n

    items = pa.deserialize_items(Point, io.BufferedReader(NothingYet()))
    assert next(items) == Point(7)
    with pytest.raises(BlockingIOError):
        next(items)
