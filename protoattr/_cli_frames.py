"""Length-prefixed streams for the command line: split them, and recognise one.

``protoattr decode --delimited`` and ``decode-raw --delimited`` read a file of
messages each preceded by its length (a varint, as Java's ``writeDelimitedTo``,
protobuf-net's ``PrefixStyle.Base128`` and ``pa.serialize_items`` write it, or a
4-byte length).  When a plain decode fails on such a file, :func:`looks_delimited`
lets the error say so.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from ._core.errors import DecodeError
from ._core.wire import decode_varint

__all__ = ["STYLES", "frames", "looks_delimited"]

#: ``--delimited`` values: how each message's length is written
STYLES = ("base128", "fixed32", "fixed32-be")


def frames(data: bytes, style: str = "base128") -> Iterator[tuple[int, bytes]]:
    """``(offset of the message, its bytes)`` for each length-prefixed message of ``data``."""
    pos, end = 0, len(data)
    while pos < end:
        if style == "base128":
            size, start = decode_varint(data, pos)
        else:
            if end - pos < 4:
                raise DecodeError("truncated length prefix", pos)
            (size,) = struct.unpack_from("<I" if style == "fixed32" else ">I", data, pos)
            start = pos + 4
        if size > end - start:
            raise DecodeError(
                f"message length {size} runs past the end ({end - start} bytes left)", pos
            )
        yield start, data[start : start + size]
        pos = start + size


def looks_delimited(data: bytes) -> bool:
    """Whether ``data`` splits exactly into two or more varint-length-prefixed messages
    (a guess for an error message, made only once a plain decode has failed)."""
    try:
        count = sum(1 for _ in frames(data))
    except DecodeError:
        return False
    return count >= 2 or (count == 1 and len(data) > 1 and data[0] == len(data) - 1)
