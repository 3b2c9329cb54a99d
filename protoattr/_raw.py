"""Schema-less decoding: what ``protoattr decode-raw`` prints.

The output is ``protoc --decode_raw``'s, line for line: varints in decimal,
fixed32/fixed64 as zero-padded hex, groups and length-delimited fields that
parse completely as messages as nested blocks, other length-delimited fields
as C-escaped strings.  Like protoc, nested messages are guessed at most ten
levels deep (deeper ones print as strings) and groups nest at most 100 levels.
"""

from __future__ import annotations

from ._core.errors import DecodeError

__all__ = ["decode_raw", "parse_raw"]

#: protoc guesses nested messages this many levels deep (``kUnknownFieldRecursionLimit``).
GUESS_DEPTH = 10
#: Groups may nest this deep (a ``CodedInputStream``'s default recursion limit).
GROUP_DEPTH = 100

# A parsed field: (number, wire type, value); a group's value is its list of fields.
RawField = tuple[int, int, object]


class _Invalid(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def parse_raw(data: bytes, *, group_depth: int = GROUP_DEPTH) -> list[RawField]:
    """The fields of ``data`` as ``(number, wire_type, value)``; :class:`DecodeError` if
    ``data`` is not a well-formed message."""
    try:
        fields, _ = _parse(data, 0, len(data), group_depth, None)
    except _Invalid as exc:
        raise DecodeError(str(exc), exc.offset) from None
    return fields


def decode_raw(data: bytes) -> str:
    """``data`` printed the way ``protoc --decode_raw`` prints it."""
    lines: list[str] = []
    _render(parse_raw(data), "", GUESS_DEPTH, lines)
    return "".join(lines)


def _varint(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise _Invalid("truncated varint", start)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result & 0xFFFFFFFFFFFFFFFF, pos  # bits past 64 are dropped, as protoc does
        shift += 7
        if shift >= 70:
            raise _Invalid("varint over 10 bytes", start)


def _parse(
    buf: bytes, pos: int, end: int, depth: int, group: int | None
) -> tuple[list[RawField], int]:
    fields: list[RawField] = []
    while pos < end:
        start = pos
        tag, pos = _varint(buf, pos, end)
        if pos - start > 5:
            raise _Invalid("tag over 5 bytes", start)
        tag &= 0xFFFFFFFF  # protoc reads tags as 32-bit varints
        number, wire = tag >> 3, tag & 7
        if number == 0:
            raise _Invalid("field number 0", start)
        if wire == 0:
            value, pos = _varint(buf, pos, end)
            fields.append((number, 0, value))
        elif wire == 1:
            if pos + 8 > end:
                raise _Invalid("truncated fixed64", pos)
            fields.append((number, 1, int.from_bytes(buf[pos : pos + 8], "little")))
            pos += 8
        elif wire == 5:
            if pos + 4 > end:
                raise _Invalid("truncated fixed32", pos)
            fields.append((number, 5, int.from_bytes(buf[pos : pos + 4], "little")))
            pos += 4
        elif wire == 2:
            n, pos = _varint(buf, pos, end)
            if pos + n > end:
                raise _Invalid("length-delimited field runs past the end", start)
            fields.append((number, 2, bytes(buf[pos : pos + n])))
            pos += n
        elif wire == 3:
            if depth <= 0:
                raise _Invalid("groups nested too deep", start)
            inner, pos = _parse(buf, pos, end, depth - 1, number)
            fields.append((number, 3, inner))
        elif wire == 4:
            if group != number:
                raise _Invalid(f"end-group {number} without its start-group", start)
            return fields, pos
        else:
            raise _Invalid(f"invalid wire type {wire}", start)
    if group is not None:
        raise _Invalid(f"group {group} has no end-group", end)
    return fields, pos


def _render(fields: list[RawField], indent: str, budget: int, out: list[str]) -> None:
    for number, wire, value in fields:
        if wire == 0:
            out.append(f"{indent}{number}: {value}\n")
        elif wire == 5:
            out.append(f"{indent}{number}: 0x{value:08x}\n")
        elif wire == 1:
            out.append(f"{indent}{number}: 0x{value:016x}\n")
        elif wire == 3:
            assert isinstance(value, list)
            out.append(f"{indent}{number} {{\n")
            _render(value, indent + "  ", budget - 1, out)
            out.append(f"{indent}}}\n")
        else:
            assert isinstance(value, bytes)
            nested = _guess(value, budget)
            if nested is None:
                out.append(f'{indent}{number}: "{c_escape(value)}"\n')
            else:
                out.append(f"{indent}{number} {{\n")
                _render(nested, indent + "  ", budget - 1, out)
                out.append(f"{indent}}}\n")


def _guess(value: bytes, budget: int) -> list[RawField] | None:
    """``value`` parsed as a message, if it is a non-empty one and the budget allows."""
    if not value or budget <= 0:
        return None
    try:
        return _parse(value, 0, len(value), budget, None)[0]
    except _Invalid:
        return None


_ESCAPES = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5C: "\\\\"}


def c_escape(data: bytes) -> str:
    """protobuf's ``CEscape``: printable ASCII as is, a few C escapes, octal for the rest."""
    return "".join(_ESCAPES.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}") for b in data)
