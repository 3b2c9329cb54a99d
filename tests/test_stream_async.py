"""Async streams: ``deserialize_items_async`` / ``serialize_items_async`` over asyncio.

Issue 22 item 8: ``deserialize_items`` on an ``asyncio.StreamReader`` failed with
``'coroutine' object is not subscriptable``.  The async forms read and write the
same frames as the synchronous ones, lazily, with the same errors.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Iterator

import pytest

import protoattr as pa
from protoattr import DecodeError, EncodeError, PrefixStyle
from tests.test_stream import (
    BOILERS,
    FRAMING_IDS,
    FRAMINGS,
    GOOD,
    Boiler,
    Point,
    TrickleReader,
    written,
)
from tests.test_stream_chunks import BAD_TAILS, outcome

BASE128 = PrefixStyle.BASE128


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]


def reader_of(data: bytes, step: int | None = None) -> asyncio.StreamReader:
    """A StreamReader fed ``data`` (in ``step``-byte pieces, each a separate read)."""
    reader = asyncio.StreamReader()
    if step is None:
        reader.feed_data(data)
        reader.feed_eof()
        return reader

    async def feed() -> None:
        for i in range(0, len(data), step):
            reader.feed_data(data[i : i + step])
            await asyncio.sleep(0)
        reader.feed_eof()

    asyncio.get_running_loop().create_task(feed())
    return reader


async def aoutcome(
    data: bytes, cls: type, style: PrefixStyle, field_number: int, step: int | None, **kw: int
) -> tuple:
    got = []
    try:
        async for item in pa.deserialize_items_async(
            cls, reader_of(data, step), style, field_number, **kw
        ):
            got.append(item)
    except DecodeError as exc:
        return got, str(exc), exc.offset
    return got, None, None


@pytest.mark.parametrize("step", [None, 1, 5, 1000])
@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_round_trip_through_a_stream_reader(
    style: PrefixStyle, field_number: int, step: int | None
) -> None:
    data = written(BOILERS, style, field_number)
    assert run(aoutcome(data, Boiler, style, field_number, step)) == (BOILERS, None, None)


@pytest.mark.parametrize("step", [None, 3])
@pytest.mark.parametrize("tail", BAD_TAILS)
def test_errors_are_the_sync_readers(tail: bytes, step: int | None) -> None:
    data = GOOD * 5 + tail
    kw = {"max_message_size": 1 << 20}
    expected = outcome(TrickleReader(data), Point, BASE128, 0, **kw)
    assert expected[1] is not None
    assert run(aoutcome(data, Point, BASE128, 0, step, **kw)) == expected


def test_an_item_is_yielded_as_soon_as_its_bytes_have_arrived() -> None:
    async def main() -> None:
        reader = asyncio.StreamReader()
        items = pa.deserialize_items_async(Boiler, reader)
        reader.feed_data(written(BOILERS[:1]))
        assert await asyncio.wait_for(items.__anext__(), 5) == BOILERS[0]
        reader.feed_data(written(BOILERS[1:3]))
        reader.feed_eof()
        assert [b async for b in items] == BOILERS[1:3]

    run(main())


class _Writer:
    """An asyncio.StreamWriter stand-in: write() and an awaited drain()."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.drains = 0

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        self.drains += 1


@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_writes_the_sync_bytes_from_iterables_and_async_iterables(
    style: PrefixStyle, field_number: int
) -> None:
    async def produce() -> AsyncIterator[Boiler]:
        for b in BOILERS:
            await asyncio.sleep(0)
            yield b

    async def main() -> tuple[_Writer, _Writer]:
        plain, streamed = _Writer(), _Writer()
        assert await pa.serialize_items_async(plain, BOILERS, style, field_number) == 60
        assert await pa.serialize_items_async(streamed, produce(), style, field_number) == 60
        return plain, streamed

    plain, streamed = run(main())  # type: ignore[misc]
    assert bytes(plain.data) == bytes(streamed.data) == written(BOILERS, style, field_number)
    assert plain.drains >= 1 and streamed.drains >= 1


def test_a_bad_item_leaves_the_items_before_it_written() -> None:
    async def main() -> _Writer:
        w = _Writer()
        with pytest.raises(EncodeError):
            await pa.serialize_items_async(w, [Point(1), Point(2**40)])
        return w

    assert bytes(run(main()).data) == written([Point(1)])  # type: ignore[attr-defined]


def test_over_a_loopback_socket() -> None:
    async def main() -> list[Boiler]:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            def many() -> Iterator[Boiler]:
                for i in range(3000):
                    yield BOILERS[i % len(BOILERS)]

            await pa.serialize_items_async(writer, many())
            writer.close()
            await writer.wait_closed()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            got = [b async for b in pa.deserialize_items_async(Boiler, reader)]
            writer.close()
            await writer.wait_closed()
        return got

    got = run(main())
    assert got == [BOILERS[i % len(BOILERS)] for i in range(3000)]


def test_arguments_are_checked_when_called() -> None:
    with pytest.raises(TypeError, match="async read"):
        pa.deserialize_items_async(Point, io.BytesIO())  # type: ignore[arg-type]

    async def main() -> None:
        with pytest.raises(ValueError, match=r"needs PrefixStyle\.BASE128"):
            pa.deserialize_items_async(Point, asyncio.StreamReader(), PrefixStyle.FIXED32, 3)

    run(main())
