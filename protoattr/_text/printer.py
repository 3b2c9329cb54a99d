"""Printing text format: ``text_format.MessageToString``, byte for byte, over the binary form.

The printer reads the bytes ``serialize`` wrote with the root's
:class:`~protoattr._text.plan.MessagePlan`, as upb reads them into a
message - last value wins for a singular field, a message seen twice is
merged, a oneof keeps its last member, map entries replace by key, a closed
enum's unknown number and a field with an unexpected wire type go to the
unknown fields - and prints what upb's message would print: fields in
number (or declaration) order, then, with ``print_unknown_fields``, the
unknown ones in the order they came.
"""

from __future__ import annotations

import math
import re
import struct
from typing import TYPE_CHECKING, Any

from .._core.errors import ContractError, DecodeError
from .._core.types import Kind
from .._json.plan import shortest_float32
from .plan import (
    EGROUP,
    I32,
    I64,
    LEN,
    SGROUP,
    VARINT,
    FieldPlan,
    MessagePlan,
    extension_at,
    plan_for,
)

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

_F = struct.Struct("<f")
_D = struct.Struct("<d")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_RECURSION_LIMIT = 100  # the pure-Python decoder's, which decides what an unknown field is

# C escapes (text_encoding.CEscape): printable ASCII as itself, the rest octal
_STR_ESCAPES: dict[int, str] = {i: f"\\{i:03o}" for i in range(128) if not 32 <= i < 127}
_STR_ESCAPES.update({9: "\\t", 10: "\\n", 13: "\\r", 34: '\\"', 39: "\\'", 92: "\\\\"})
_BYTE_ESCAPES: dict[int, str] = {**_STR_ESCAPES, **{i: f"\\{i:03o}" for i in range(128, 256)}}


def escape_bytes(data: bytes) -> str:
    """``data`` C-escaped, every byte outside printable ASCII as an octal escape."""
    return data.decode("latin-1").translate(_BYTE_ESCAPES)


_NEEDS_ESCAPE = re.compile("[\x00-\x1f\"'\\\\\x7f]")


def escape_text(data: bytes) -> str:
    """A string field's UTF-8 kept, ASCII control characters and quotes escaped."""
    try:
        text = data.decode("utf-8")
        return text.translate(_STR_ESCAPES) if _NEEDS_ESCAPE.search(text) else text
    except UnicodeDecodeError:
        out: list[str] = []
        while data:
            try:
                out.append(data.decode("utf-8").translate(_STR_ESCAPES))
                break
            except UnicodeDecodeError as exc:
                out.append(data[: exc.start].decode("utf-8").translate(_STR_ESCAPES))
                out.append(_BYTE_ESCAPES[data[exc.start]])
                data = data[exc.start + 1 :]
        return "".join(out)


class Options:
    """One call's printing options (``MessageToString``'s, same names)."""

    __slots__ = (
        "as_one_line",
        "as_utf8",
        "force_colon",
        "index_order",
        "pointy",
        "short",
        "unknown",
        "use_field_number",
    )

    def __init__(
        self,
        as_utf8: bool,
        as_one_line: bool,
        use_short_repeated_primitives: bool,
        pointy_brackets: bool,
        use_index_order: bool,
        use_field_number: bool,
        print_unknown_fields: bool,
        force_colon: bool,
    ) -> None:
        self.as_utf8 = as_utf8
        self.as_one_line = as_one_line
        self.short = use_short_repeated_primitives
        self.pointy = pointy_brackets
        self.index_order = use_index_order
        self.use_field_number = use_field_number
        self.unknown = print_unknown_fields
        self.force_colon = force_colon


def print_message(
    model: CodecModel, plan: MessagePlan, data: bytes, opts: Options, indent: int = 0
) -> str:
    """The text of the message ``data`` holds, as ``MessageToString`` prints it."""
    printer = _Printer(model, opts)
    printer.message(plan, data, [(0, len(data))], indent)
    text = "".join(printer.out)
    return text.rstrip() if opts.as_one_line else text


# ------------------------------------------------------------------- reading


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result & 0xFFFFFFFFFFFFFFFF, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint over 10 bytes", pos)


def _signed32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - 0x100000000 if v & 0x80000000 else v


def _signed64(v: int) -> int:
    return v - 0x10000000000000000 if v & 0x8000000000000000 else v


def _sint32(raw: int) -> int:
    raw &= 0xFFFFFFFF
    return (raw >> 1) ^ -(raw & 1)


def _sint64(raw: int) -> int:
    return (raw >> 1) ^ -(raw & 1)


def _uint32(raw: int) -> int:
    return raw & 0xFFFFFFFF


def _bool(raw: int) -> bool:
    return raw != 0


def _float(raw: int) -> float:
    return float(_F.unpack(_U32.pack(raw))[0])


def _double(raw: int) -> float:
    return float(_D.unpack(_U64.pack(raw))[0])


def _same(raw: int) -> int:
    return raw


_CONVERTERS: dict[Kind, Any] = {
    Kind.INT32: _signed32, Kind.ENUM: _signed32, Kind.INT64: _signed64, Kind.UINT32: _uint32,
    Kind.UINT64: _same, Kind.BOOL: _bool, Kind.SINT32: _sint32, Kind.SINT64: _sint64,
    Kind.FIXED32: _same, Kind.FIXED64: _same, Kind.SFIXED32: _signed32,
    Kind.SFIXED64: _signed64, Kind.FLOAT: _float, Kind.DOUBLE: _double,
}  # fmt: skip


def _converter(fp: FieldPlan) -> Any:
    conv = fp.conv = _CONVERTERS.get(fp.kind, _same)
    return conv


def _formatter(fp: FieldPlan) -> Any:
    """The function printing one value of ``fp`` (strings: with their UTF-8 kept)."""
    kind = fp.kind
    fmt: Any
    if kind is Kind.STRING:

        def fmt(v: bytes) -> str:
            return '"' + escape_text(v) + '"'

    elif kind is Kind.BYTES:

        def fmt(v: bytes) -> str:
            return '"' + escape_bytes(v) + '"'

    elif kind is Kind.BOOL:

        def fmt(v: bool) -> str:
            return "true" if v else "false"

    elif kind is Kind.ENUM:
        assert fp.enum is not None
        name_of = fp.enum.name_of

        def fmt(v: int) -> str:
            name = name_of.get(v)
            return str(v) if name is None else name

    elif kind is Kind.FLOAT:

        def fmt(v: float) -> str:
            return "nan" if v != v else str(shortest_float32(v))

    else:
        fmt = str  # integers; doubles as Python prints them ('1e+100', 'inf', 'nan')
    fp.fmt = fmt
    return fmt


def _is_zero(fp: FieldPlan, v: Any) -> bool:
    """Whether an implicit-presence field holding ``v`` counts as unset."""
    if fp.kind is Kind.FLOAT or fp.kind is Kind.DOUBLE:
        return bool(v == 0.0 and math.copysign(1.0, v) > 0)
    return not v


class _Values:
    """What one message holds after reading its bytes (possibly several merged chunks)."""

    __slots__ = ("unknown", "values")

    def __init__(self) -> None:
        self.values: dict[int, Any] = {}
        self.unknown: list[tuple[int, int, Any]] = []


def _collect(
    plan: MessagePlan, buf: bytes, pos: int, end: int, into: _Values, group: int = 0
) -> int:
    """Read fields from ``buf[pos:end]`` into ``into``; the position after the message
    (after the end-group tag when ``group`` is the enclosing group's number)."""
    by_number = plan.by_number
    values = into.values
    unknown = into.unknown
    while pos < end:
        tag = buf[pos]
        if tag < 0x80:
            pos += 1
        elif pos + 1 < end and buf[pos + 1] < 0x80:  # fields 16..2047
            tag = (tag & 0x7F) | (buf[pos + 1] << 7)
            pos += 2
        else:
            tag, pos = _varint(buf, pos)
        number = tag >> 3
        wt = tag & 7
        raw: Any
        if wt == VARINT:
            raw = buf[pos]
            if raw < 0x80:
                pos += 1
            else:
                raw, pos = _varint(buf, pos)
        elif wt == LEN:
            size = buf[pos]
            if size < 0x80:
                pos += 1
            else:
                size, pos = _varint(buf, pos)
            raw = (pos, pos + size)
            pos += size
        elif wt == I64:
            raw = _U64.unpack_from(buf, pos)[0]
            pos += 8
        elif wt == I32:
            raw = _U32.unpack_from(buf, pos)[0]
            pos += 4
        elif wt == SGROUP:
            fp = by_number.get(number)
            if fp is None and plan.builder is not None:
                fp = extension_at(plan, number)
            if fp is not None and fp.group and fp.message is not None:
                start = pos
                body_end, pos = _skip_group(buf, pos, end, number)
                chunk = (start, body_end)
                if fp.repeated:
                    values.setdefault(number, []).append([chunk])
                else:
                    _set_oneof(fp, values)
                    values.setdefault(number, []).append(chunk)
                continue
            fields, pos = _unknown_set(buf, pos, end, 1, number)
            unknown.append((number, SGROUP, fields))
            continue
        elif wt == EGROUP:
            if number == group:
                return pos
            raise DecodeError(f"end-group tag {number} without its start", pos)
        else:
            raise DecodeError(f"wire type {wt}", pos)
        if pos > end:
            raise DecodeError("truncated message", end)
        v: Any
        fp = by_number.get(number)
        if fp is None:
            if plan.builder is not None:  # an extendable message: a registered extension?
                fp = extension_at(plan, number)
            if fp is None:
                unknown.append((number, wt, raw))
                continue
        fast = fp.fast
        if fast and wt == fp.wire:  # a plain scalar: the common case, read straight away
            if wt == LEN:
                v = buf[raw[0] : raw[1]]
            else:
                conv = fp.conv
                v = (conv or _converter(fp))(raw)
            if fast == 1:
                values[number] = v
            else:
                found = values.get(number)
                if found is None:
                    values[number] = [v]
                else:
                    found.append(v)
            continue
        if wt != fp.wire or fp.group:
            if wt == LEN and fp.repeated and fp.packable:
                _packed(fp, buf, raw, values, unknown)
            else:
                unknown.append((number, wt, raw))
            continue
        if fp.message is not None:
            if fp.is_map:
                _map_entry(fp, buf, raw, values, unknown)
            elif fp.repeated:
                values.setdefault(number, []).append([raw])
            else:
                _set_oneof(fp, values)
                values.setdefault(number, []).append(raw)
            continue
        if wt == LEN:
            v = buf[raw[0] : raw[1]]
        else:
            conv = fp.conv
            v = (conv or _converter(fp))(raw)
        if fp.closed and fp.enum is not None and v not in fp.enum.name_of:
            unknown.append((number, wt, raw))
            continue
        if fp.repeated:
            values.setdefault(number, []).append(v)
        else:
            if fp.oneof is not None and values:
                _set_oneof(fp, values)
            values[number] = v
    if group:
        raise DecodeError(f"group {group} without its end", end)
    return pos


def _set_oneof(fp: FieldPlan, values: dict[int, Any]) -> None:
    """Setting one member of a oneof clears the others (a member set again is kept)."""
    for other in fp.siblings:
        values.pop(other, None)


def _packed(
    fp: FieldPlan, buf: bytes, raw: tuple[int, int], values: dict[int, Any], unknown: list[Any]
) -> None:
    pos, end = raw
    out = values.setdefault(fp.number, [])
    wire = fp.wire
    conv = fp.conv or _converter(fp)
    check = fp.enum.name_of if fp.closed and fp.enum is not None else None
    if wire == VARINT:
        raws: list[int] = []
        while pos < end:
            b = buf[pos]
            if b < 0x80:
                raws.append(b)
                pos += 1
            else:
                v, pos = _varint(buf, pos)
                raws.append(v)
    elif wire == I32:
        if (end - pos) % 4:
            raise DecodeError("truncated packed field", end)
        raws = list(struct.unpack_from(f"<{(end - pos) // 4}I", buf, pos))
        pos = end
    else:
        if (end - pos) % 8:
            raise DecodeError("truncated packed field", end)
        raws = list(struct.unpack_from(f"<{(end - pos) // 8}Q", buf, pos))
        pos = end
    if pos > end:
        raise DecodeError("truncated packed field", end)
    if check is None:
        out += [conv(v) for v in raws]
    else:
        for v in raws:
            value = conv(v)
            if value in check:
                out.append(value)
            else:
                unknown.append((fp.number, VARINT, v))
    if not out:
        del values[fp.number]


def _map_entry(
    fp: FieldPlan, buf: bytes, raw: tuple[int, int], values: dict[int, Any], unknown: list[Any]
) -> None:
    assert fp.message is not None and fp.key is not None and fp.value is not None
    entry = _Values()
    _collect(fp.message, buf, raw[0], raw[1], entry)
    if entry.unknown:  # upb keeps an entry it cannot hold whole (an unknown field, a closed
        # enum's unknown number) as an unknown field: the entry as upb re-encodes it
        unknown.append((fp.number, LEN, _entry_bytes(fp, buf, raw, entry)))
        return
    key = entry.values.get(1)
    if key is None:
        key = _zero(fp.key)
    # string keys stay UTF-8 bytes: their byte order is the code point order upb sorts by
    vp = fp.value
    value = entry.values.get(2)
    if vp.message is not None:
        value = value or []
    elif value is None:
        value = _zero(vp)
    values.setdefault(fp.number, {})[key] = value


def _entry_bytes(fp: FieldPlan, buf: bytes, raw: tuple[int, int], entry: _Values) -> bytes:
    """A map entry re-encoded as upb does: its key and value, then its unknown fields."""
    from .parser import _tag as tag_of
    from .parser import _varint as put_varint
    from .parser import _write

    assert fp.key is not None and fp.value is not None
    kp, vp = fp.key, fp.value
    out = bytearray()
    key = entry.values.get(1)
    if key is not None and not (kp.implicit and not key and _is_zero(kp, key)):
        _write(out, kp, key)
    value = entry.values.get(2)
    if value is not None:
        if vp.message is not None:
            body = b"".join(buf[s:e] for s, e in value)
            out += tag_of(2, LEN)
            put_varint(out, len(body))
            out += body
        elif not (vp.implicit and not value and _is_zero(vp, value)):
            _write(out, vp, value)
    pos, end = raw
    while pos < end:  # the entry's other fields, as they came
        start = pos
        tag, pos = _varint(buf, pos)
        number, wt = tag >> 3, tag & 7
        if wt == VARINT:
            v, pos = _varint(buf, pos)
        elif wt == I64:
            pos += 8
        elif wt == I32:
            pos += 4
        elif wt == LEN:
            size, pos = _varint(buf, pos)
            pos += size
        else:  # a group
            _, pos = _unknown_set(buf, pos, end, 1, number)
        part = kp if number == 1 else vp if number == 2 else None
        if part is not None and wt == part.wire:
            if not (wt == VARINT and part.closed and part.enum is not None):
                continue  # the key or value, written above
            if (part.conv or _converter(part))(v) in part.enum.name_of:
                continue
        out += buf[start:pos]
    return bytes(out)


def _zero(fp: FieldPlan) -> Any:
    kind = fp.kind
    if kind is Kind.STRING or kind is Kind.BYTES:
        return b""
    if kind is Kind.BOOL:
        return False
    if kind is Kind.FLOAT or kind is Kind.DOUBLE:
        return 0.0
    if kind is Kind.ENUM and fp.enum is not None and fp.closed:
        return next(iter(fp.enum.name_of))  # a closed enum's default: its first value
    return 0


def _skip_group(buf: bytes, pos: int, end: int, number: int) -> tuple[int, int]:
    """Where group ``number``'s body ends (its end tag) and where the tag ends."""
    _, after = _unknown_set(buf, pos, end, 1, number)
    return after - len(_tag_bytes(number, EGROUP)), after


def _tag_bytes(number: int, wt: int) -> bytes:
    v = (number << 3) | wt
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _unknown_set(
    buf: bytes, pos: int, end: int, depth: int, group: int
) -> tuple[list[tuple[int, int, Any]], int]:
    """Fields read as the pure-Python decoder reads an unknown field set.

    ``_DecodeUnknownFieldSet``'s rules, which decide whether text_format prints a
    length-delimited unknown field as a message: any end-group tag ends the set,
    the group's own end tag is checked after it; raises on anything malformed.
    """
    out: list[tuple[int, int, Any]] = []
    while pos < end:
        tag, pos = _varint(buf, pos)
        number = tag >> 3
        wt = tag & 7
        data: Any
        if wt == EGROUP:
            break
        if wt == VARINT:
            data, pos = _varint(buf, pos)
        elif wt == I64:
            if pos + 8 > len(buf):
                raise DecodeError("truncated fixed64", pos)
            data = _U64.unpack_from(buf, pos)[0]
            pos += 8
        elif wt == I32:
            if pos + 4 > len(buf):
                raise DecodeError("truncated fixed32", pos)
            data = _U32.unpack_from(buf, pos)[0]
            pos += 4
        elif wt == LEN:
            size, pos = _varint(buf, pos)
            data = (pos, min(pos + size, len(buf)))
            pos += size
        elif wt == SGROUP:
            if depth >= _RECURSION_LIMIT:
                raise DecodeError("too many levels of nesting", pos)
            data, pos = _unknown_set(buf, pos, end, depth + 1, number)
            end_tag = _tag_bytes(number, EGROUP)
            if buf[pos - len(end_tag) : pos] != end_tag:
                raise DecodeError("missing group end tag", pos)
        else:
            raise DecodeError(f"wire type {wt}", pos)
        if pos > end:
            raise DecodeError("truncated message", end)
        out.append((number, wt, data))
    if group:
        end_tag = _tag_bytes(group, EGROUP)
        if buf[pos - len(end_tag) : pos] != end_tag:
            raise DecodeError(f"group {group} without its end", pos)
    return out, pos


# ------------------------------------------------------------------- printing


class _Printer:
    def __init__(self, model: CodecModel, opts: Options) -> None:
        self.model = model
        self.opts = opts
        self.out: list[str] = []
        self.end = " " if opts.as_one_line else "\n"
        self.open, self.close = ("<", ">") if opts.pointy else ("{", "}")
        self.depth = 0  # how many Any payloads this one is inside
        self.max_depth = int(getattr(model, "max_depth", 100))

    def message(
        self, plan: MessagePlan, buf: bytes, chunks: list[tuple[int, int]], indent: int
    ) -> None:
        got = _Values()
        for chunk_start, chunk_end in chunks:
            _collect(plan, buf, chunk_start, chunk_end, got)
        values = got.values
        if plan.is_any and self._any(values, buf, indent):
            return
        opts = self.opts
        out = self.out
        end = self.end
        pad = " " * indent
        by_number = plan.by_number
        # the fields that are set, in number order (or declaration order)
        numbers = sorted(values) if len(values) > 1 else list(values)
        fields = [by_number.get(n) or extension_at(plan, n) for n in numbers]
        if opts.index_order:
            fields.sort(key=lambda f: (f.index, f.number) if f is not None else (0, 0))
        by_number_text = opts.use_field_number
        message_colon = ": " if opts.force_colon else " "
        plain_strings = opts.as_utf8
        for fp in fields:
            if fp is None:
                continue
            v = values[fp.number]
            head = pad + (str(fp.number) if by_number_text else fp.name)
            if fp.message is not None:
                head += message_colon
                if fp.is_map:
                    assert fp.message is not None
                    for key in sorted(v):
                        out.append(head)
                        self._entry(fp, key, v[key], buf, indent)
                        out.append(end)
                elif fp.repeated:
                    for item in v:
                        out.append(head)
                        self._nested(fp.message, buf, item, indent)
                        out.append(end)
                else:
                    out.append(head)
                    self._nested(fp.message, buf, v, indent)
                    out.append(end)
                continue
            head += ": "
            if fp.repeated:
                if opts.short and fp.kind is not Kind.STRING and fp.kind is not Kind.BYTES:
                    out.append(head[:-1] + " [")
                    fmt = fp.fmt or _formatter(fp)
                    out.append(", ".join([fmt(x) for x in v]))
                    out.append("]" + end)
                else:
                    fmt = fp.fmt
                    if fmt is None or (not plain_strings and fp.kind is Kind.STRING):
                        out += [head + self._scalar(fp, x) + end for x in v]
                    else:
                        out += [head + fmt(x) + end for x in v]
                continue
            if fp.implicit and not v and _is_zero(fp, v):
                continue
            fmt = fp.fmt
            if fmt is None or (not plain_strings and fp.kind is Kind.STRING):
                out.append(head + self._scalar(fp, v) + end)
            else:
                out.append(head + fmt(v) + end)
        if opts.unknown and got.unknown:
            self._unknown(got.unknown, buf, indent)

    def _nested(
        self, plan: MessagePlan, buf: bytes, chunks: list[tuple[int, int]], indent: int
    ) -> None:
        if self.opts.as_one_line:
            self.out.append(self.open + " ")
            self.message(plan, buf, chunks, indent)
            self.out.append(self.close)
        else:
            self.out.append(self.open + "\n")
            self.message(plan, buf, chunks, indent + 2)
            self.out.append(" " * indent + self.close)

    def _entry(self, fp: FieldPlan, key: Any, value: Any, buf: bytes, indent: int) -> None:
        """One map entry, as the message ``{key: ... value: ...}``."""
        assert fp.key is not None and fp.value is not None
        opts = self.opts
        out = self.out
        one = opts.as_one_line
        out.append(self.open + (" " if one else "\n"))
        inner = indent if one else indent + 2
        pad = " " * inner
        end = self.end
        kp, vp = fp.key, fp.value
        if not (kp.implicit and not key and _is_zero(kp, key)):
            name = "1" if opts.use_field_number else "key"
            out.append(f"{pad}{name}: {self._scalar(kp, key)}{end}")
        name = "2" if opts.use_field_number else "value"
        if vp.message is not None:
            out.append(pad + name + (": " if opts.force_colon else " "))
            self._nested(vp.message, buf, value, inner)
            out.append(end)
        elif not (vp.implicit and not value and _is_zero(vp, value)):
            out.append(f"{pad}{name}: {self._scalar(vp, value)}{end}")
        out.append(self.close if one else " " * indent + self.close)

    def _scalar(self, fp: FieldPlan, v: Any) -> str:
        kind = fp.kind
        if kind is Kind.STRING and not self.opts.as_utf8:
            return '"' + escape_bytes(v) + '"'
        fmt = fp.fmt
        return str((fmt or _formatter(fp))(v))

    def _any(self, values: dict[int, Any], buf: bytes, indent: int) -> bool:
        """An ``Any`` whose type is known printed as ``[type_url] { ... }``."""
        url = values.get(1)
        if url is None:
            return False
        type_url = bytes(url).decode("utf-8", "surrogateescape")
        if "/" not in type_url:
            return False
        try:
            target = self.model.find(type_url.rpartition("/")[2])
        except ContractError:
            target = None
        if target is None:
            return False
        plan = plan_for(self.model, target)
        payload = values.get(2)
        data = bytes(payload) if payload is not None else b""
        colon = ":" if self.opts.force_colon else ""
        self.out.append(f"{' ' * indent}[{type_url}]{colon} ")
        # the payload is printed from its own bytes (a message of its own)
        sub = _Printer(self.model, self.opts)
        sub.open, sub.close = self.open, self.close
        sub.depth = self.depth + 1  # an Any in an Any...: bounded like any nesting
        if sub.depth > self.max_depth:
            raise DecodeError(f"Any nested deeper than the model's max_depth ({self.max_depth})")
        sub._nested(plan, data, [(0, len(data))], indent)
        self.out.extend(sub.out)
        self.out.append(self.end)
        return True

    def _unknown(self, fields: list[tuple[int, int, Any]], buf: bytes, indent: int) -> None:
        out = self.out
        one = self.opts.as_one_line
        pad = " " * indent
        for number, wt, data in fields:
            out.append(pad + str(number))
            if wt == SGROUP:
                self._unknown_nested(data, buf, indent)
            elif wt == LEN:
                # read on its own, as the Python decoder reads it
                body = data if isinstance(data, bytes) else buf[data[0] : data[1]]
                try:
                    nested, pos = _unknown_set(body, 0, len(body), 0, 0)
                except (DecodeError, IndexError, struct.error):
                    pos = -1
                if pos == len(body):
                    self._unknown_nested(nested, body, indent)
                else:
                    out.append(': "' + escape_bytes(body) + ('" ' if one else '"\n'))
            else:
                out.append(f": {data}{self.end}")

    def _unknown_nested(self, fields: list[Any], buf: bytes, indent: int) -> None:
        out = self.out
        if self.opts.as_one_line:
            out.append(" { ")
            self._unknown(fields, buf, indent)
            out.append("} ")
        else:
            out.append(" {\n")
            self._unknown(fields, buf, indent + 2)
            out.append(" " * indent + "}\n")
