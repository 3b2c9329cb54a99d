"""Generate the Python source of one contract's codec.

:func:`codec_source` is a pure function: from a :class:`ContractInfo` it returns a
:class:`GeneratedSource`: the text of two functions and the values of the names that text
refers to.  All the thinking happens here, once per class: tag bytes are
precomputed, each field gets straight-line code specialised to its kind and
label, and every helper is a global of the generated module (one dictionary
lookup, no attribute chains).  :mod:`protoattr._python.compiler` turns the text into
functions.

The generated functions are::

    encode_<Name>(obj) -> bytes              # the message body, without length
    decode_<Name>(buf, pos, end, depth, base) -> obj

``decode`` reads ``buf[pos:end]`` (``buf`` is ``bytes``); ``base`` is ``None``
or an object whose values the decoded ones merge into (protobuf merge
semantics), which is also how a singular message seen twice is merged.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from functools import partial
from typing import Any

from .._core import bcl as _bcl
from .._core import wire as _wire
from .._core.contract import MISSING, ContractInfo, FieldInfo, Label, ValueType, zero_value
from .._core.errors import DecodeError, EncodeError
from .._core.record import Record
from .._core.types import BCL_KINDS, INT_RANGES, Kind
from . import runtime as _runtime
from .plain import merges_in_place, takes_merge_in_place

__all__ = ["CodecContext", "codec_source"]

_VARINT_KINDS = frozenset(
    {
        Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
        Kind.BOOL, Kind.ENUM,
    }
)  # fmt: skip
_FIXED: dict[Kind, tuple[str, int]] = {
    Kind.FIXED32: ("I", 4),
    Kind.FIXED64: ("Q", 8),
    Kind.SFIXED32: ("i", 4),
    Kind.SFIXED64: ("q", 8),
    Kind.FLOAT: ("f", 4),
    Kind.DOUBLE: ("d", 8),
}
_UNPACK = {fmt: struct.Struct("<" + fmt).unpack_from for fmt, _ in _FIXED.values()}
_PACK = {fmt: struct.Struct("<" + fmt).pack for fmt, _ in _FIXED.values()}
#: kinds whose second occurrence merges into the first (messages, well-known or not)
_MERGED_KINDS = frozenset({Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION})
#: singular kinds written whenever not None (a bcl.DateTime even at DateTime.MinValue)
_WRITTEN_UNLESS_NONE = _MERGED_KINDS | {Kind.BCL_DATETIME}


def wire_type(kind: Kind) -> int:
    """The wire type a single value of ``kind`` travels with."""
    if kind in _VARINT_KINDS:
        return _wire.WireType.VARINT
    if kind in _FIXED:
        return _wire.WireType.I32 if _FIXED[kind][1] == 4 else _wire.WireType.I64
    return _wire.WireType.LEN


class CodecContext(Record):
    """What the generator needs from the model: nested codecs, hierarchies, limits."""

    __slots__ = (  # noqa: RUF023 (the fields' order: positional arguments, repr)
        "codec_for",  # the (possibly not yet compiled) codec of a contract
        "max_depth",
        "info_for",
        "own_fields",  # fields of this level of a hierarchy
        "parent_of",  # (base, subtype tag)
        "chain_of",  # the class, its base, ..., the hierarchy's root
        "children_of",  # [(subtype tag, subclass)]
        # write map entries sorted by key (upb's ``SerializeToString(deterministic=True)``)
        "deterministic",
        "max_messages",  # messages one decode may build (None: no bound)
    )
    codec_for: Callable[[type], Any]
    max_depth: int
    info_for: Callable[[type], ContractInfo]
    own_fields: Callable[[type], list[FieldInfo]]
    parent_of: Callable[[type], tuple[type, int] | None]
    chain_of: Callable[[type], list[type]]
    children_of: Callable[[type], list[tuple[int, type]]]
    deterministic: bool
    max_messages: int | None

    def __init__(
        self,
        codec_for: Callable[[type], Any],
        max_depth: int,
        info_for: Callable[[type], ContractInfo],
        own_fields: Callable[[type], list[FieldInfo]],
        parent_of: Callable[[type], tuple[type, int] | None],
        chain_of: Callable[[type], list[type]],
        children_of: Callable[[type], list[tuple[int, type]]],
        deterministic: bool = False,
        max_messages: int | None = None,
    ) -> None:
        self.codec_for = codec_for
        self.max_depth = max_depth
        self.info_for = info_for
        self.own_fields = own_fields
        self.parent_of = parent_of
        self.chain_of = chain_of
        self.children_of = children_of
        self.deterministic = deterministic
        self.max_messages = max_messages


class _Source:
    """Lines of Python with an indentation cursor."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.level = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.level + line)

    def indent(self) -> _Source:
        self.level += 1
        return self

    def dedent(self) -> None:
        self.level -= 1

    def __enter__(self) -> _Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.dedent()


class _Generator:
    """Builds one contract's source; ``ns`` collects the names the source uses."""

    def __init__(self, info: ContractInfo, ctx: CodecContext) -> None:
        self.info = info
        self.ctx = ctx
        self.qual = info.cls.__qualname__
        self.ident = _identifier(self.qual)
        self.ns: dict[str, Any] = {
            "_varint": _wire.encode_varint,
            "_rv": _wire.read_varint,
            "_rtag": _wire.read_tag,
            "_s32": _wire.signed32,
            "_skip": _runtime.skip_field,
            "_decode_error": _runtime.decode_error,
            "_truncated": _runtime.truncated,
            "_missing": _runtime.missing_required,
            "_too_deep": _runtime.too_deep,
            "_out_of_range": _runtime.out_of_range,
            "_bad_value": _runtime.bad_value,
            "_not_a_list": _runtime.not_a_list,
            "_EncodeError": EncodeError,
            "_DecodeError": DecodeError,
            "_struct_error": struct.error,
            "_spack": struct.pack,
            "_sunpack": struct.unpack_from,
            "_setattr": object.__setattr__,
            "_new": object.__new__,
            "_cls": info.cls,
            "_MISSING": MISSING,
        }
        self._counter = 0
        self._where = self.qual
        #: before a merge in place in ``decode``: only into what this very call built
        #: (a ``base`` and what it holds may be the caller's or a shared default)
        self._own = "base is None and "
        #: "decode", "collect" (the merge of a class that cannot merge in place: into a
        #: _runtime.Partial) or "in_place" (merge_ into an object's attributes)
        self._mode = "decode"
        self._enum_tables: dict[Any, dict[int, Any]] = {}

    # -- shared helpers -------------------------------------------------

    def const(self, value: Any, hint: str) -> str:
        """Bind ``value`` as a global of the generated module and return its name."""
        for name, existing in self.ns.items():
            if existing is value and name.startswith("_k_"):
                return name
        self._counter += 1
        name = f"_k_{hint}_{self._counter}"
        self.ns[name] = value
        return name

    def enum_table(self, enum_cls: Any) -> str:
        """The name of ``{number: member}`` for ``enum_cls`` (one table per enum)."""
        table = self._enum_tables.get(enum_cls)
        if table is None:
            table = self._enum_tables[enum_cls] = {m.value: m for m in enum_cls}
        return self.const(table, "enum")

    def codec(self, cls: type) -> str:
        name = f"_C_{_identifier(cls.__qualname__)}"
        existing = self.ns.get(name)
        codec = self.ctx.codec_for(cls)
        if existing is not None and existing is not codec:
            name = self.const(codec, "codec")
        self.ns[name] = codec
        return name

    @staticmethod
    def tag_literal(tag: int, wt: int) -> str:
        return repr(_wire.tag_bytes(tag, wt))

    # -- encoding ---------------------------------------------------------

    def encoder(self) -> list[str]:
        """``encode_<Name>``: the message of exactly this class, from the root of its hierarchy.

        A subclass's own fields travel as a message in its base's ``subtype_tag``
        field, written before the base's own fields (protobuf-net's layout).
        """
        ctx = self.ctx
        cls = self.info.cls
        src = _Source()
        src(f"def encode_{self.ident}(obj):")
        src.indent()
        if self.descendants(cls):
            self.ns["_subcodecs"] = {d: ctx.codec_for(d) for d in self.descendants(cls)}
            src("if obj.__class__ is not _cls:")
            with src.indent():
                src("c = _subcodecs.get(obj.__class__)")
                src("if c is not None:")
                src.indent()("return c.encode(obj)")
                src.dedent()
        chain = self.chain(cls)  # [cls, parent, grandparent, ..., root]
        for level in chain:
            self._oneof_checks(src, ctx.own_fields(level))
        src("out = []  # the message's pieces, joined once at the end")
        for i, level in enumerate(chain):
            if i:
                tag = self.ctx.parent_of(chain[i - 1])
                assert tag is not None
                src(f"# the {chain[i - 1].__qualname__} part, nested in {level.__qualname__}")
                src('b = b"".join(out)')
                src("out = []")
                self._write_len(src, "out", tag[1], "b")
            for f in ctx.own_fields(level):
                src(f"# {f.name}: {_describe(f)} = {f.tag}")
                src(f"v = obj.{f.name}")
                self._encode_field(src, f)
            if self.preserve_unknown(level):
                src(f"u = {self.unknown_get(level, 'obj')}")
                src("if u:")
                src.indent()("out.append(u)")
                src.dedent()
        src('return b"".join(out)')
        return src.lines

    # -- hierarchy and unknown-field helpers -------------------------------

    def chain(self, cls: type) -> list[type]:
        """``cls`` and its contract bases up to the root of its hierarchy."""
        return self.ctx.chain_of(cls)

    def descendants(self, cls: type) -> list[type]:
        out: list[type] = []
        for _, sub in self.ctx.children_of(cls):
            out.append(sub)
            out.extend(self.descendants(sub))
        return out

    def preserve_unknown(self, level: type) -> bool:
        return self.ctx.info_for(level).options.preserve_unknown and _runtime.can_store_unknown(
            level
        )

    def unknown_key(self, level: type) -> str:
        root = self.chain(level)[-1]
        return _runtime.unknown_key(level, root)

    def unknown_get(self, level: type, obj: str) -> str:
        if getattr(level, "__dictoffset__", 0):  # kept in the instance __dict__
            return f"{obj}.__dict__.get({self.unknown_key(level)!r})"
        self.ns["_get_unknown"] = _runtime.get_unknown
        return f"_get_unknown({obj}, {self.unknown_key(level)!r})"

    def _oneof_checks(self, src: _Source, fields: list[FieldInfo]) -> None:
        groups: dict[str, list[FieldInfo]] = {}
        for f in fields:
            if f.oneof is not None:
                groups.setdefault(f.oneof, []).append(f)
        for oneof, members in groups.items():
            if len(members) < 2:
                continue
            count = " + ".join(f"(obj.{f.name} is not None)" for f in members)
            names = ", ".join(f.name for f in members)
            src(f"if {count} > 1:")
            msg = f"{self.qual}: more than one member of oneof {oneof!r} ({names}) is set"
            src.indent()(f"raise _EncodeError({msg!r})")
            src.dedent()

    def _encode_field(self, src: _Source, f: FieldInfo) -> None:
        where = f.where
        kind = f.value.kind
        if f.label is Label.REPEATED:
            src("if v:")
            with src.indent():
                # a str, bytes or dict iterates, but is no list: Google refuses them too
                self.ns["_not_lists"] = _runtime.NOT_LISTS
                src("if isinstance(v, _not_lists):")
                src.indent()(f"raise _not_a_list({where!r}, v)")
                src.dedent()
                if f.packed:
                    self._encode_packed(src, f)
                elif kind is Kind.MESSAGE and not f.group and f.value.encode_with is None:
                    assert f.value.py_type is not None
                    src(f"enc = {self.codec(f.value.py_type)}.encode")
                    src("for x in v:")
                    with src.indent():
                        src("b = enc(x)")
                        self._write_len(src, "out", f.tag, "b")
                else:
                    src("for x in v:")
                    with src.indent():
                        self._encode_value(src, f.value, "x", f.tag, "out", where, f.group)
            self._none_is_not_empty(src, f)
            return
        if f.label is Label.MAP:
            assert f.key is not None
            src("if v:")
            with src.indent():
                if self.ctx.deterministic:  # upb's order (see _runtime)
                    if f.key.kind is Kind.STRING:
                        self.ns["_det_str"] = _runtime.deterministic_str_key
                        src("for k in sorted(v, key=_det_str):")
                    else:
                        self.ns["_det_int"] = _runtime.deterministic_int_key
                        src("for k in sorted(v, key=_det_int, reverse=True):")
                    src.indent()("x = v[k]")
                    src.dedent()
                else:
                    src("for k, x in v.items():")
                with src.indent():
                    src("e = []")
                    self._encode_value(src, f.key, "k", 1, "e", where + "[key]", False)
                    self._encode_value(src, f.value, "x", 2, "e", where + "[value]", False)
                    src('e = b"".join(e)')
                    self._write_len(src, "out", f.tag, "e")
            self._none_is_not_empty(src, f)
            return
        if f.required:
            if f.value.domain is not None or kind is Kind.BOOL:
                # elsewhere None fails by itself, and the slow path names the field
                src("if v is None:")
                msg = f"{where}: required field is None"
                src.indent()(f"raise _EncodeError({msg!r})")
                src.dedent()
            self._encode_value(src, f.value, "v", f.tag, "out", where, f.group)
            return
        if f.label is Label.OPTIONAL or kind in _WRITTEN_UNLESS_NONE:
            src("if v is not None:")
            with src.indent():
                self._encode_value(src, f.value, "v", f.tag, "out", where, f.group)
            if f.label is not Label.OPTIONAL and f.default is not None:
                # absent would decode as an empty message (or the epoch), not as None
                self._none_is_not_empty(src, f)
            return
        # singular scalar: skipped when equal to its default
        default = f.default
        if f.default_factory is not None:
            default = f.default_factory()
        if f.value.domain is not None and f.value.encode_with is not None:
            # converted first, then compared on the wire form (Decimal('0.0') is not '0')
            to_wire = f.value.encode_with
            src(f"v = {self.const(to_wire, 'to_wire')}(v)")
            plain = f.value.replace(encode_with=None)
            src(f"if v != {self.literal(to_wire(default))}:")
            with src.indent():
                self._encode_value(src, plain, "v", f.tag, "out", where, f.group)
            return
        if f.value.domain is not None:
            src(f"if v != {self.const(default, 'default')}:")
            with src.indent():
                self._encode_value(src, f.value, "v", f.tag, "out", where, f.group)
            return
        if kind in (Kind.FLOAT, Kind.DOUBLE):
            fmt, size = _FIXED[kind]
            packer = self.const(_PACK[fmt], "pack_" + fmt)
            if kind is Kind.FLOAT:  # a NaN keeps its bits
                self.ns["_f32nan_pack"] = _wire.pack_float32_nan
                src(f"b = {packer}(v) if v == v else _f32nan_pack(v)")
            else:
                src(f"b = {packer}(v)")
            try:
                dbytes = struct.pack("<" + fmt, default)
            except (struct.error, TypeError):
                dbytes = b"\x00" * size
            src(f"if b != {dbytes!r}:")
            with src.indent():
                src(f"out.append({self.tag_literal(f.tag, wire_type(kind))})")
                src("out.append(b)")
            return
        if kind is Kind.BOOL:
            d = bool(default)
            src(f"if v is not {d}:")
            with src.indent():
                src(f"if v is {not d} or (v == {int(not d)} and type(v) is int):")
                src.indent()(f"out.append({_wire.tag_bytes(f.tag, 0) + bytes((int(not d),))!r})")
                src.dedent()
                src(f"elif not (v == {int(d)} and type(v) is int):")
                src.indent()(f"raise _bad_value({where!r}, 'bool', v)")
                src.dedent()
            return
        if kind is Kind.ENUM:
            assert f.value.py_type is not None
            self._closed_check(src, f.value, "v", where)
            self._enum_to_int(src, f.value, "v")
            default = getattr(default, "value", default)
        src(f"if v != {self.literal(default)}:")
        with src.indent():
            self._encode_value(src, f.value, "v", f.tag, "out", where, f.group, enum_done=True)

    def _none_is_not_empty(self, src: _Source, f: FieldInfo) -> None:
        """``elif v is None: raise``: None where absent does not decode back to None."""
        src("elif v is None:")
        msg = f"{f.where}: None is not a {f.value.describe()} (declare it Optional[...])"
        if f.label in (Label.REPEATED, Label.MAP):
            msg = f"{f.where}: None is not a {_describe(f)} (use an empty one)"
        src.indent()(f"raise _EncodeError({msg!r})")
        src.dedent()

    def literal(self, value: Any) -> str:
        """``value`` as source: a plain literal where repr is one, else a bound name."""
        if type(value) in (int, str, bytes) or (type(value) is float and math.isfinite(value)):
            return repr(value)
        return self.const(value, "default")

    def _closed_check(self, src: _Source, vt: ValueType, var: str, where: str) -> None:
        """A closed enum takes members only: a number it does not define would be written,
        then read back as the default (its value kept with the unknown fields)."""
        if not vt.closed:
            return
        enum_cls = self.const(vt.py_type, "enum_cls")
        src(f"if {var}.__class__ is not {enum_cls} and {var} not in {self.enum_table(vt.py_type)}:")
        self.ns["_not_member"] = _runtime.not_member
        src.indent()(f"raise _not_member({where!r}, {enum_cls}, {var})")
        src.dedent()

    def _enum_to_int(self, src: _Source, vt: ValueType, var: str) -> None:
        assert vt.py_type is not None
        if not issubclass(vt.py_type, int):
            src(f"if type({var}) is not int:")
            src.indent()(f"{var} = {var}.value")
            src.dedent()

    def _range_check(self, src: _Source, kind: Kind, var: str, where: str) -> None:
        lo, hi = INT_RANGES[kind]
        src(f"if not {lo} <= {var} <= {hi}:")
        src.indent()(f"raise _out_of_range({where!r}, {kind.value!r}, {var})")
        src.dedent()

    def prefix_table(self, prefix: bytes) -> str:
        """The name of the shared table ``prefix + bytes([i])`` for i < 128."""
        return self.const(_wire.prefix_table(prefix), "after_" + _identifier(prefix.hex()))

    def _write_varint(self, src: _Source, buf: str, var: str, prefix: bytes = b"") -> None:
        """Append ``prefix`` and the varint of the non-negative int ``var``."""
        table = self.prefix_table(prefix)
        slow = f"{prefix!r} + _varint({var})" if prefix else f"_varint({var})"
        src(f"{buf}.append({table}[{var}] if {var} < 128 else {slow})")

    def _write_len(self, src: _Source, buf: str, tag: int, data: str) -> None:
        src(f"n = len({data})")
        self._write_varint(src, buf, "n", _wire.tag_bytes(tag, 2))
        src(f"{buf}.append({data})")

    def _encode_value(
        self,
        src: _Source,
        vt: ValueType,
        var: str,
        tag: int,
        buf: str,
        where: str,
        group: bool,
        enum_done: bool = False,
    ) -> None:
        """Write tag and value of ``var`` unconditionally."""
        kind = vt.kind
        if vt.encode_with is not None:
            src(f"{var} = {self.const(vt.encode_with, 'to_wire')}({var})")
        if kind in _VARINT_KINDS:
            if kind is Kind.BOOL:
                true_bytes = _wire.tag_bytes(tag, 0) + b"\x01"
                false_bytes = _wire.tag_bytes(tag, 0) + b"\x00"
                src(f"if {var} is True:")
                src.indent()(f"{buf}.append({true_bytes!r})")
                src.dedent()
                src(f"elif {var} is False:")
                src.indent()(f"{buf}.append({false_bytes!r})")
                src.dedent()
                src("else:")
                src.indent()(
                    f"{buf}.append({self.tag_literal(tag, 0)} + _bool_byte({var}, {where!r}))"
                )
                src.dedent()
                self.ns["_bool_byte"] = _bool_byte
                return
            if kind is Kind.ENUM and not enum_done:
                self._closed_check(src, vt, var, where)
                self._enum_to_int(src, vt, var)
            tag_bytes = _wire.tag_bytes(tag, 0)
            lo, hi = INT_RANGES[kind]
            if kind in (Kind.SINT32, Kind.SINT64):
                self._range_check(src, kind, var, where)
                bits = 31 if kind is Kind.SINT32 else 63
                src(f"z = ({var} << 1) ^ ({var} >> {bits})")
                self._write_varint(src, buf, "z", tag_bytes)
                return
            # small non-negative numbers first: one table lookup, no range check
            src(f"if 0 <= {var} < 128:")
            src.indent()(f"{buf}.append({self.prefix_table(tag_bytes)}[{var}])")
            src.dedent()
            src(f"elif {lo} <= {var} <= {hi}:")
            src.indent()(f"{buf}.append({tag_bytes!r} + _varint({var}))")
            src.dedent()
            src("else:")
            src.indent()(f"raise _out_of_range({where!r}, {kind.value!r}, {var})")
            src.dedent()
            return
        if kind in _FIXED:
            fmt = _FIXED[kind][0]
            packer = self.const(_PACK[fmt], "pack_" + fmt)
            if kind in INT_RANGES:
                self._range_check(src, kind, var, where)
            src(f"{buf}.append({self.tag_literal(tag, wire_type(kind))})")
            if kind is Kind.FLOAT:  # a NaN keeps its bits
                self.ns["_f32nan_pack"] = _wire.pack_float32_nan
                src(f"{buf}.append({packer}({var}) if {var} == {var} else _f32nan_pack({var}))")
                return
            src(f"{buf}.append({packer}({var}))")
            return
        if kind is Kind.STRING:
            src(f"b = {var}.encode()")
            self._write_len(src, buf, tag, "b")
            return
        if kind is Kind.BYTES:
            self._write_len(src, buf, tag, var)
            return
        if kind is Kind.MESSAGE:
            assert vt.py_type is not None
            codec = self.codec(vt.py_type)
            if group:
                src(f"{buf}.append({self.tag_literal(tag, 3)})")
                src(f"{buf}.append({codec}.encode({var}))")
                src(f"{buf}.append({self.tag_literal(tag, 4)})")
                return
            src(f"b = {codec}.encode({var})")
            self._write_len(src, buf, tag, "b")
            return
        if kind is Kind.TIMESTAMP:
            self.ns["_enc_ts"] = _runtime.encode_timestamp
            src(f"b = _enc_ts({var})")
            self._write_len(src, buf, tag, "b")
            return
        if kind is Kind.DURATION:
            self.ns["_enc_dur"] = _runtime.encode_duration
            src(f"b = _enc_dur({var})")
            self._write_len(src, buf, tag, "b")
            return
        if kind in BCL_KINDS:
            encode = _bcl.codec(kind, vt.with_kind)[0]
            src(f"b = {self.const(encode, 'enc_bcl')}({var})")
            self._write_len(src, buf, tag, "b")
            return
        raise AssertionError(kind)

    def _encode_packed(self, src: _Source, f: FieldInfo) -> None:
        kind = f.value.kind
        where = f.where
        if kind in _FIXED:
            fmt, _ = _FIXED[kind]
            if f.value.encode_with is not None:  # a converted type (bcl ticks): to wire first
                src(f"v = [{self.const(f.value.encode_with, 'to_wire')}(x) for x in v]")
            if kind in INT_RANGES:
                lo, hi = INT_RANGES[kind]
                src(f"if min(v) < {lo} or max(v) > {hi}:")
                src.indent()(
                    f"raise _out_of_range({where!r}, {kind.value!r}, "
                    f"next(x for x in v if not {lo} <= x <= {hi}))"
                )
                src.dedent()
            src(f"p = _spack('<%d{fmt}' % len(v), *v)")
            if kind is Kind.FLOAT:  # a NaN among them (the sum is NaN too) keeps its bits
                self.ns["_f32s_pack"] = _wire.pack_float32s
                src("if (s := sum(v)) != s:")
                src.indent()("p = _f32s_pack(v)")
                src.dedent()
        elif kind is Kind.BOOL:
            src("p = bytes(v)")
            src("if p.translate(None, b'\\x00\\x01'):")
            src.indent()(
                f"raise _bad_value({where!r}, 'bool', next(x for x in v if x not in (0, 1)))"
            )
            src.dedent()
        else:
            src("p = bytearray()")
            src("for x in v:")
            with src.indent():
                if f.value.encode_with is not None:
                    src(f"x = {self.const(f.value.encode_with, 'to_wire')}(x)")
                if kind is Kind.ENUM:
                    self._closed_check(src, f.value, "x", where)
                    self._enum_to_int(src, f.value, "x")
                self._range_check(src, kind, "x", where)
                if kind is Kind.SINT32:
                    src("x = (x << 1) ^ (x >> 31)")
                elif kind is Kind.SINT64:
                    src("x = (x << 1) ^ (x >> 63)")
                src("if 0 <= x < 128:")
                src.indent()("p.append(x)")
                src.dedent()
                src("else:")
                src.indent()("p += _varint(x)")
                src.dedent()
        self._write_len(src, "out", f.tag, "p")

    # -- decoding ---------------------------------------------------------

    def decoder(self) -> list[str]:
        """``decode_<Name>``: read a message (rooted at the hierarchy's root) and build the object.

        Two passes over the fields: first straight-line code that expects
        them in tag order (what every encoder writes), then a general loop for
        whatever is left (fields out of order, repeated, unknown).
        """
        cls = self.info.cls
        root = self.chain(cls)[-1]
        levels = [root, *self.descendants(root)]
        self.levels = levels
        hier = len(levels) > 1
        maxd = self.ctx.max_depth
        src = _Source()
        src(f"def decode_{self.ident}(buf, pos, end, depth, base):")
        src.indent()
        src(f"if depth > {maxd}:")
        src.indent()(f"raise _too_deep({self.qual!r}, {maxd}, pos)")
        src.dedent()
        if self.ctx.max_messages is not None:  # the model bounds what one decode may build
            self.ns["_budget"] = _runtime.BUDGET
            self.ns["_too_many"] = _runtime.too_many_messages
            src("_budget.left -= 1")
            src("if _budget.left < 0:")
            src.indent()(f"raise _too_many({self.qual!r}, {self.ctx.max_messages}, pos)")
            src.dedent()
        if hier:
            src("cls_ = _cls  # the class to build: the deepest subtype present")
        pending = any(
            self.merges_field_in_place(f) for level in levels for f in self.ctx.own_fields(level)
        )
        if pending:
            src("pend = None  # what merges in place left pending (_runtime.unknown_pending)")
        src("if base is None:")
        with src.indent():
            src("pass")
            for level in levels:
                for f in self.ctx.own_fields(level):
                    src(f"f_{f.name} = {self._initial(f)}")
                if self.preserve_unknown(level):
                    src(f"{self.unknown_var(level)} = b''")
        src("else:")
        with src.indent():
            src("pass")  # a contract without fields (Empty) has nothing to copy
            if hier:
                src("cls_ = base.__class__")
            self._copy_levels(src, levels, root)
        src("try:")
        with src.indent():
            self._level_body(src, root, "end", 0)
            src("if pos != end:")
            src.indent()(f"raise _truncated({self.qual!r}, pos, end)")
            src.dedent()
        self._decode_errors_at_one_boundary(src)
        if pending:  # bytes again, before any constructor sees the objects
            self.ns["_flush_pending"] = _runtime.flush_pending
            src("if pend:")
            src.indent()("_flush_pending(pend)")
            src.dedent()
        if hier:
            src("if cls_ is not _cls and base is None and not issubclass(cls_, _cls):")
            self.ns["_other_subtype"] = _runtime.other_subtype
            src.indent()("raise _other_subtype(cls_, _cls, end)")
            src.dedent()
            for i, final in enumerate(levels):
                src(f"{'if' if i == 0 else 'elif'} cls_ is {self.const(final, 'level')}:")
                with src.indent():
                    self._build(src, final)
            src("else:")
            with src.indent():
                self._build(src, cls)
        else:
            self._build(src, cls)
        return src.lines

    def unknown_var(self, level: type) -> str:
        return f"u_{self.levels.index(level)}"

    def flat_in_place(self, cls: type | None) -> bool:
        """Whether a ``cls`` object a decode built may take a later occurrence's fields
        in place (:func:`~protoattr._python.plain.merges_in_place`; no hierarchy)."""
        if cls is None or self.ctx.parent_of(cls) is not None or self.ctx.children_of(cls):
            return False
        return merges_in_place(self.ctx.info_for(cls), True)

    def merges_field_in_place(self, f: FieldInfo) -> bool:
        """Whether a later occurrence of ``f`` merges into the value this decode built."""
        return takes_merge_in_place(f) and self.flat_in_place(f.value.py_type)

    def merger(self) -> list[str]:
        """``merge_<Name>(buf, pos, end, depth, obj)``: protobuf's merge of the message
        ``buf[pos:end]`` into ``obj``, an object of exactly this class that this decode
        built, straight into its attributes (a list grows, a message merges on down),
        counted and depth-checked as a message; returns ``obj``.  What ``decode`` with
        ``obj`` as ``base`` builds anew (an equal object) at the cost of every field,
        so that a message field repeated n times costs its new fields, not n rebuilds.
        A class that cannot merge in place (:meth:`flat_in_place`) merges by ``decode``.
        On failure ``obj`` may be half-merged: the decode that built it fails with it."""
        cls = self.info.cls
        src = _Source()
        src(f"def merge_{self.ident}(buf, pos, end, depth, obj, pend):")
        src.indent()
        if not self.flat_in_place(cls):
            return self._collector()
        maxd = self.ctx.max_depth
        self._mode = "in_place"
        self.levels = [cls]
        self._own = ""  # everything obj holds was built by this decode (or is excluded)
        src(f"if depth > {maxd}:")
        src.indent()(f"raise _too_deep({self.qual!r}, {maxd}, pos)")
        src.dedent()
        if self.ctx.max_messages is not None:
            src("_budget.left -= 1")
            src("if _budget.left < 0:")
            src.indent()(f"raise _too_many({self.qual!r}, {self.ctx.max_messages}, pos)")
            src.dedent()
        fields = self.ctx.own_fields(cls)
        unknown = self.unknown_var(cls) if self.preserve_unknown(cls) else None
        if unknown is not None:
            src(f"{unknown} = b''")
        src("try:")
        with src.indent():
            src("while pos < end:")
            with src.indent():
                if unknown is not None:
                    src("t0 = pos")
                self._read_tag(src)
                known = [t for f in fields for t, _ in self._field_decoders(f, "end", unknown, 0)]
                cases: list[tuple[int, Callable[[], None]]] = []
                for f in fields:
                    for tag, lines in self._field_decoders(f, "end", unknown, 0):
                        cases.append((tag, self._merge_case(src, f, fields, lines)))
                self._dispatch(src, cases, known, "end", unknown)
            src("if pos != end:")
            src.indent()(f"raise _truncated({self.qual!r}, pos, end)")
            src.dedent()
        self._decode_errors_at_one_boundary(src)
        if unknown is not None:
            self.ns["_upend"] = _runtime.unknown_pending
            src(f"if {unknown}:")
            src.indent()(f"_upend(obj, {self.unknown_key(cls)!r}, {unknown}, pend)")
            src.dedent()
        src("return obj")
        return src.lines

    def _collector(self) -> list[str]:
        """``merge_<Name>`` of a class that cannot merge in place (validated, frozen, with a
        ``__post_init__``, converted containers, a hierarchy): a later occurrence of a
        singular message field read into a :class:`~protoattr._python.runtime.Partial`,
        the field values so far, which ``finish_<Name>`` builds once when the parent is
        built.  ``base`` is the object the first occurrence built (its values copied, as
        ``decode``'s ``base`` is) or the Partial of an earlier merge (its values taken as
        they are).  Building anew at every occurrence copied every list each time: a
        field repeated n times cost O(n^2).  Read, counted and depth-checked as ``decode``
        reads the message; only the constructor call waits for the last occurrence."""
        cls = self.info.cls
        root = self.chain(cls)[-1]
        levels = [root, *self.descendants(root)]
        self.levels = levels
        hier = len(levels) > 1
        self._mode = "collect"
        maxd = self.ctx.max_depth
        names = [f"f_{f.name}" for level in levels for f in self.ctx.own_fields(level)]
        names += [self.unknown_var(level) for level in levels if self.preserve_unknown(level)]
        if hier:
            names.append("cls_")
        self.ns["_Partial"] = _runtime.Partial
        src = _Source()
        src(f"def merge_{self.ident}(buf, pos, end, depth, base, pend):")
        src.indent()
        src(f"if depth > {maxd}:")
        src.indent()(f"raise _too_deep({self.qual!r}, {maxd}, pos)")
        src.dedent()
        if self.ctx.max_messages is not None:
            self.ns["_budget"] = _runtime.BUDGET
            self.ns["_too_many"] = _runtime.too_many_messages
            src("_budget.left -= 1")
            src("if _budget.left < 0:")
            src.indent()(f"raise _too_many({self.qual!r}, {self.ctx.max_messages}, pos)")
            src.dedent()
        src("if base.__class__ is _Partial:")
        with src.indent():
            src("pass")
            if names:
                src(f"{', '.join(names)}, = base.values")
        src("else:")
        with src.indent():
            src("pass")
            if hier:
                src("cls_ = base.__class__")
            self._copy_levels(src, levels, root)
        src("try:")
        with src.indent():
            self._level_body(src, root, "end", 0)
            src("if pos != end:")
            src.indent()(f"raise _truncated({self.qual!r}, pos, end)")
            src.dedent()
        self._decode_errors_at_one_boundary(src)
        src(f"values = ({', '.join(names)}{',' if names else ''})")
        src("if base.__class__ is _Partial:")
        with src.indent():
            src("base.values = values")
            src("base.end = end")
            if hier:
                src("base.cls = cls_")
            src("return base")
        built = "cls_" if hier else "_cls"
        src(f"return _Partial(finish_{self.ident}, values, {built}, end, depth)")
        src.dedent()
        src("")
        src(f"def finish_{self.ident}(part):")
        src.indent()
        src("end = part.end  # the last occurrence's: where today's last build was")
        src("depth = part.depth")
        if names:
            src(f"{', '.join(names)}, = part.values")
        if hier:
            for i, final in enumerate(levels):
                src(f"{'if' if i == 0 else 'elif'} cls_ is {self.const(final, 'level')}:")
                with src.indent():
                    self._build(src, final)
            src("else:")
            with src.indent():
                self._build(src, cls)
        else:
            self._build(src, cls)
        return _drop_needless_pass(src.lines)

    def _copy_levels(self, src: _Source, levels: list[type], root: type) -> None:
        """Every level's values from ``base`` where it is an instance of the level (the
        root always), else their initial values."""
        for level in levels:
            if level is root:
                self._copy_from_base(src, level)
                continue
            src(f"if isinstance(base, {self.const(level, 'level')}):")
            with src.indent():
                self._copy_from_base(src, level)
            src("else:")
            with src.indent():
                src("pass")
                for f in self.ctx.own_fields(level):
                    src(f"f_{f.name} = {self._initial(f)}")
                if self.preserve_unknown(level):
                    src(f"{self.unknown_var(level)} = b''")

    def collects(self, f: FieldInfo) -> bool:
        """Whether a later occurrence of singular message field ``f`` merges into a
        Partial (see :meth:`_collector`) rather than building its class anew."""
        vt = f.value
        return (
            vt.kind is Kind.MESSAGE
            and f.label is not Label.REPEATED
            and f.label is not Label.MAP
            and vt.encode_with is None
            and vt.decode_with is None
            and vt.py_type is not None
            and not self.flat_in_place(vt.py_type)
        )

    def _copy_from_base(self, src: _Source, level: type) -> None:
        for f in self.ctx.own_fields(level):
            if f.label is Label.REPEATED:
                src(f"f_{f.name} = list(base.{f.name})")
            elif f.label is Label.MAP:
                src(f"f_{f.name} = dict(base.{f.name})")
            else:
                src(f"f_{f.name} = base.{f.name}")
        if self.preserve_unknown(level):
            src(f"{self.unknown_var(level)} = {self.unknown_get(level, 'base')} or b''")

    def _level_body(self, src: _Source, level: type, end: str, nesting: int) -> None:
        """Decode the fields of one hierarchy level from ``pos`` to ``end``."""
        fields = self.ctx.own_fields(level)
        unknown = self.unknown_var(level) if self.preserve_unknown(level) else None
        # 1. fields in tag order, each tested once (repeated ones while they last)
        for f in fields:
            if f.group or f.value.closed:
                continue
            tb = _wire.encode_varint(self._field_decoders(f, end, unknown, 0)[0][0])
            lines = self._field_decoders(f, end, unknown, len(tb))[0][1]
            loop = "while" if f.label in (Label.REPEATED, Label.MAP) and not f.packed else "if"
            if len(tb) == 1:
                src(f"{loop} pos < {end} and buf[pos] == {tb[0]}:")
            else:
                src(f"{loop} pos + {len(tb)} <= {end} and buf.startswith({tb!r}, pos):")
            with src.indent():
                for line in lines:
                    src(line)
        # 2. whatever is left: out of order, repeated again, unknown
        src(f"while pos < {end}:")
        with src.indent():
            if unknown is not None:
                src("t0 = pos")
            self._read_tag(src)
            known = [t for f in fields for t, _ in self._field_decoders(f, end, unknown, 0)]
            known += [_wire.make_tag(t, 2) for t, _ in self.ctx.children_of(level)]
            cases: list[tuple[int, Callable[[], None]]] = []
            for f in fields:
                for tag, lines in self._field_decoders(f, end, unknown, 0):
                    cases.append((tag, partial(self._lines_case, src, lines)))
            for subtag, sub in self.ctx.children_of(level):
                case = partial(self._subtype_case, src, sub, end, nesting)
                cases.append((_wire.make_tag(subtag, 2), case))
            self._dispatch(src, cases, known, end, unknown)

    @staticmethod
    def _lines_case(src: _Source, lines: list[str]) -> None:
        for line in lines:
            src(line)

    def _subtype_case(self, src: _Source, sub: type, end: str, nesting: int) -> None:
        """A subtype's level: its fields, nested in this level's message."""
        src(f"# {sub.__qualname__}")
        sub_end = f"e{nesting + 1}"
        head: list[str] = []
        self._read_len(head, end, 0)
        for line in head:
            src(line)
        src(f"{sub_end} = e")
        level_name = self.const(sub, "level")
        # the requested class is the least we build; deeper data wins
        src(f"if not issubclass(cls_, {level_name}):")
        src.indent()(f"cls_ = {level_name}")
        src.dedent()
        self._level_body(src, sub, sub_end, nesting + 1)
        # the level's last value must end exactly where its length said
        src(f"if pos != {sub_end}:")
        src.indent()(f"raise _truncated({self.qual!r}, pos, {sub_end})")
        src.dedent()

    def _merge_case(
        self, src: _Source, f: FieldInfo, fields: list[FieldInfo], lines: list[str]
    ) -> Callable[[], None]:
        """The body of one tag in ``merge_``: read into ``obj``'s attributes."""
        group = [f.name] + [
            g.name
            for g in fields
            if f.oneof is not None and g.oneof == f.oneof and g.name != f.name
        ]

        if len(group) == 1 and self.merges_field_in_place(f):
            assert f.value.py_type is not None
            codec, cls = self.codec(f.value.py_type), self.const(f.value.py_type, "cls")
            head: list[str] = []
            self._read_len(head, "end", 0)
            own = [
                "m0 = obj." + f.name,  # merged where it is: no attribute set
                "if m0.__class__ is " + cls + ":",
                f"    {codec}.merge(buf, pos, e, depth + 1, m0, pend)",
                "else:",
                f"    _setattr(obj, {f.name!r}, {codec}.decode(buf, pos, e, depth + 1, m0))",
                "pos = e",
            ]
            return partial(self._lines_case, src, head + own)
        # one set of locals for every case: a frame with a local per field (a hundred)
        # made a deep chain of merges cost 3 us per level in CPython's frame stack
        local = {name: f"m{i}" for i, name in enumerate(group)}
        pattern = re.compile(r"\bf_(" + "|".join(map(re.escape, group)) + r")\b")
        renamed = [pattern.sub(lambda m: local[m.group(1)], line) for line in lines]

        # a Partial left in obj's attribute (a later occurrence of a field that cannot
        # merge in place) is built by the decode holding obj, before its own build
        waits = [g.name for g in fields if g.name in local and self.collects(g)]

        def emit() -> None:
            for name in group:
                src(f"{local[name]} = obj.{name}")
            for name in waits:
                self.ns["_Partial"] = _runtime.Partial
                src(f"q{local[name][1:]} = {local[name]}.__class__ is not _Partial")
            for line in renamed:
                src(line)
            for name in waits:
                m = local[name]
                src(f"if q{m[1:]} and {m}.__class__ is _Partial:")
                src.indent()(f"pend.append((obj, {name!r}, None))")
                src.dedent()
            for name in group:
                src(f"_setattr(obj, {name!r}, {local[name]})")

        return emit

    def _read_tag(self, src: _Source) -> None:
        """``tag`` from ``pos``: one- and two-byte tags (fields 1 to 2047) inline."""
        src("tag = buf[pos]")
        src("pos += 1")
        src("if tag >= 128:")
        with src.indent():
            src("if buf[pos] < 128:")
            src.indent()("tag = (tag & 127) | buf[pos] << 7")
            src("pos += 1")
            src.dedent()
            src("else:")
            src.indent()("tag, pos = _rtag(buf, pos - 1)")
            src.dedent()

    def _dispatch(
        self,
        src: _Source,
        cases: list[tuple[int, Callable[[], None]]],
        known: list[int],
        end: str,
        unknown: str | None,
    ) -> None:
        """The tests of the general loop: a chain of ``tag ==`` tests, with anything else
        skipped (and kept, where unknown fields are).  With more than eight known tags
        an unknown one is skipped at once and the known ones are found by halving the
        range of tags (a contract of a hundred fields: seven tests, not fifty)."""
        if len(known) > 8:
            self._skip_unknown_at_once(src, known, end, unknown)
            first: dict[int, Callable[[], None]] = {}
            for tag, emit in cases:
                first.setdefault(tag, emit)  # the chain's rule: the first case of a tag
            self._split(src, sorted(first.items()))
            return
        keyword = "if"
        for tag, emit in cases:
            src(f"{keyword} tag == {tag}:")
            keyword = "elif"
            with src.indent():
                emit()
        if keyword != "if":
            src("else:")
            src.indent()
        self._skip_and_keep(src, end, unknown)
        if keyword != "if":
            src.dedent()

    def _split(self, src: _Source, cases: list[tuple[int, Callable[[], None]]]) -> None:
        """Tests for ``cases`` (sorted by tag), every tag reaching them being one of theirs."""
        if len(cases) <= 4:
            for i, (tag, emit) in enumerate(cases):
                src(f"{'if' if i == 0 else 'elif'} tag == {tag}:")
                with src.indent():
                    emit()
            return
        half = len(cases) // 2
        src(f"if tag < {cases[half][0]}:")
        with src.indent():
            self._split(src, cases[:half])
        src("else:")
        with src.indent():
            self._split(src, cases[half:])

    def _initial(self, f: FieldInfo) -> str:
        if f.label is Label.REPEATED:
            return "[]"
        if f.label is Label.MAP:
            return "{}"
        if f.value.kind is Kind.MESSAGE or f.required:
            return "None"  # a message: also "nothing to merge into"; required: "not seen"
        if f.default_factory is not None:
            return "_MISSING"
        if f.default is MISSING:
            return "None"
        return self.literal(f.default)

    def _build(self, src: _Source, final: type) -> None:
        """Check, complete and construct an instance of ``final`` from the locals."""
        qual = final.__qualname__
        info = self.ctx.info_for(final)
        chain = self.chain(final)
        fields = [f for level in reversed(chain) for f in self.ctx.own_fields(level)]
        for f in fields:  # merged occurrences, built now (their own fields first)
            if self.collects(f):
                self.ns["_Partial"] = _runtime.Partial
                src(f"if f_{f.name}.__class__ is _Partial:")
                src.indent()(f"f_{f.name} = f_{f.name}.finish(f_{f.name})")
                src.dedent()
        for f in fields:
            name = f"f_{f.name}"
            absent = "None" if f.value.kind is Kind.MESSAGE or f.required else "_MISSING"
            if f.required:
                src(f"if {name} is {absent}:")
                src.indent()(f"raise _missing({qual!r}, {f.name!r}, {f.tag}, end)")
                src.dedent()
            elif f.default_factory is not None and f.label not in (Label.REPEATED, Label.MAP):
                src(f"if {name} is {absent}:")
                src.indent()(f"{name} = {self.const(f.default_factory, 'factory')}()")
                src.dedent()
            elif f.label is Label.SINGULAR and f.value.kind is Kind.MESSAGE:
                if f.default is MISSING:
                    src(f"if {name} is None:")
                    src.indent()(f"{name} = {self._empty_message(f.value)}")
                    src.dedent()
                elif f.default is not None:
                    src(f"if {name} is None:")
                    src.indent()(f"{name} = {self.const(f.default, 'default')}")
                    src.dedent()
            if f.label is Label.REPEATED and f.container is not list:
                src(f"{name} = {self.const(f.container, 'container')}({name})")
        by_name = {f.name: f for f in fields}
        target = self.const(final, "cls")
        late = [f for f in fields if f.init_name is None]
        if info.construct == "init":
            args: list[str] = []
            positional = True
            for attr, init_name, kw_only in info.init_params:
                found = by_name.get(attr)
                if found is None or kw_only:
                    positional = False
                if found is None:
                    continue
                args.append(f"f_{attr}" if positional else f"{init_name}=f_{attr}")
            if info.validated:  # a pydantic model: a value its validators refuse is bad input
                src("try:")
                src.indent()(f"obj = {target}({', '.join(args)})")
                src.dedent()
                src("except ValueError as exc:")
                src.indent()(f"raise _decode_error(exc, end, {qual!r}) from None")
                src.dedent()
            else:
                src(f"obj = {target}({', '.join(args)})")
        else:
            src(f"obj = _new({target})")
            late = fields
        for f in late:
            src(f"_setattr(obj, {f.name!r}, f_{f.name})")
        for level in chain:
            if self.preserve_unknown(level):
                var = self.unknown_var(level)
                self.ns["_set_unknown"] = _runtime.set_unknown
                src(f"if {var}:")
                src.indent()(f"_set_unknown(obj, {self.unknown_key(level)!r}, bytes({var}))")
                src.dedent()
        src("return obj")

    def _decode_errors_at_one_boundary(self, src: _Source) -> None:
        """The ``except`` clauses closing a decoder's ``try``: low-level errors become one
        ``DecodeError`` with the offset (``decode_`` and ``merge_`` alike)."""
        src("except _DecodeError:")
        src.indent()("raise")
        src.dedent()
        src("except (IndexError, ValueError, ArithmeticError, _struct_error) as exc:")
        src.indent()(f"raise _decode_error(exc, min(pos, end), {self.qual!r}) from None")
        src.dedent()

    def _skip_unknown_at_once(
        self, src: _Source, known: list[int], end: str, unknown: str | None
    ) -> None:
        """With more than eight known tags, an unknown field skips the chain of tests that
        follows at once (and is kept, where unknown fields are)."""
        if len(known) <= 8:
            return
        src(f"if tag not in {self.const(frozenset(known), 'known')}:")
        with src.indent():
            self._skip_and_keep(src, end, unknown)
            src("continue")

    def _skip_and_keep(self, src: _Source, end: str, unknown: str | None) -> None:
        """Skip an unknown field (and keep it, where unknown fields are): a short
        length-delimited one inline, anything else (and every error) by ``_skip``."""
        skip = f"pos = _skip(buf, pos, {end}, tag, depth, {self.ctx.max_depth})"
        src(f"if tag & 7 == 2 and tag > 7 and buf[pos] < 128 and pos + 1 + buf[pos] <= {end}:")
        src.indent()("pos += 1 + buf[pos]")
        src.dedent()
        src("else:")
        src.indent()(skip)
        src.dedent()
        if unknown is not None:
            self.ns["_ucat"] = _runtime.unknown_append
            src(f"if {unknown}.__class__ is bytearray:")
            src.indent()(f"{unknown} += buf[t0:pos]")
            src.dedent()
            src("else:")
            src.indent()(f"{unknown} = _ucat({unknown}, buf, t0, pos)")
            src.dedent()

    def _field_decoders(
        self, f: FieldInfo, end: str, unknown: str | None, skip: int
    ) -> list[tuple[int, list[str]]]:
        """``(tag, lines)`` for each wire form of ``f`` the decoder accepts, the
        expected form first.  ``skip`` tag bytes at ``pos`` are not consumed yet."""
        kind = f.value.kind
        target = f"f_{f.name}"
        self._where = f.where  # for errors that name the field (a Timestamp too far out)
        if f.label is Label.MAP:
            return [(_wire.make_tag(f.tag, 2), self._decode_map_entry(f, end, skip, unknown))]
        single_tag = _wire.make_tag(f.tag, 3 if f.group else wire_type(kind))
        if f.label is Label.REPEATED:
            single = self._decode_value(
                f.value, f"{target}.append({{}})", end=end, skip=skip, group=f.group,
                unknown=unknown, tag=f.tag,
            )  # fmt: skip
            forms = [(single_tag, single)]
            if kind in _VARINT_KINDS or kind in _FIXED:
                packed = (_wire.make_tag(f.tag, 2), self._decode_packed(f, end, unknown, skip))
                forms.insert(0 if f.packed else 1, packed)
            return forms
        store = f"{target} = {{}}"
        if f.oneof is not None:  # the last member seen wins: clear the others
            everything = [g for level in self.levels for g in self.ctx.own_fields(level)]
            others = [
                g.name
                for g in everything
                if g.oneof == f.oneof and g.owner == f.owner and g.name != f.name
            ]
            if others:
                names = ", ".join(f"f_{name}" for name in [f.name, *others])
                store = f"{names} = {{}}" + ", None" * len(others)
        lines = self._decode_value(
            f.value, store, end=end, skip=skip, group=f.group, unknown=unknown,
            tag=f.tag, merge=target if kind in _MERGED_KINDS else None,
            in_place=self.merges_field_in_place(f) and self._mode == "decode",
            collect=self.collects(f),
        )  # fmt: skip
        return [(single_tag, lines)]

    def _read_len(self, lines: list[str], end: str, skip: int) -> None:
        """Read a length at ``pos + skip``; leave ``pos`` at the data and ``e`` after it."""
        at = f"pos + {skip}" if skip else "pos"
        lines += [
            f"n = buf[{at}]",
            "if n < 128:",
            f"    pos += {skip + 1}",
            f"elif buf[{at} + 1] < 128:  # up to 16 kB",
            f"    n = (n & 127) | buf[{at} + 1] << 7",
            f"    pos += {skip + 2}",
            "else:",
            f"    n, pos = _rv(buf, {at})",
            "e = pos + n",
            f"if e > {end}:",
            f"    raise _truncated({self.qual!r}, pos, {end})",
        ]

    def _decode_value(
        self,
        vt: ValueType,
        store: str,
        *,
        end: str,
        skip: int = 0,
        group: bool = False,
        unknown: str | None = None,
        tag: int = 0,
        merge: str | None = None,
        in_place: bool = False,
        collect: bool = False,
    ) -> list[str]:
        """Lines that read one value at ``pos + skip`` and run ``store`` (a template) on it;
        ``in_place``: a message of this decode's own merges into that object itself;
        ``collect``: a later occurrence merges into a Partial (:meth:`_collector`)."""
        kind = vt.kind
        if vt.decode_with is not None and kind is not Kind.ENUM:
            store = store.format(f"{self.const(vt.decode_with, 'from_wire')}({{}})")
        at = f"pos + {skip}" if skip else "pos"
        lines: list[str] = []
        if kind in _VARINT_KINDS:
            if vt.closed and unknown is not None and end == "pe":
                lines.append("p0 = pos  # an unknown number is kept as sent, all 64 bits")
            lines += [
                f"x = buf[{at}]",
                "if x < 128:",
                f"    pos += {skip + 1}",
                "else:",
                f"    x, pos = _rv(buf, {at})",
            ]
            lines += ["    " + c for c in _varint_fixups(kind)]
            lines += _varint_conversions(kind)
            if kind is Kind.ENUM:
                assert vt.py_type is not None
                enum_cls: Any = vt.py_type
                members = self.enum_table(enum_cls)
                if vt.closed:
                    lines += [f"if x in {members}:", "    " + store.format(f"{members}[x]")]
                    if unknown is not None and end == "pe":  # packed: re-encode singly
                        self.ns["_closed_unknown"] = _runtime.closed_enum_unknown
                        self.ns["_ucat"] = _runtime.unknown_append
                        lines += [
                            "else:",
                            f"    {unknown} = _ucat({unknown}, _closed_unknown({tag}, "
                            "_rv(buf, p0)[0]), 0, None)",
                        ]
                    elif unknown is not None:
                        self.ns["_ucat"] = _runtime.unknown_append
                        lines += ["else:", f"    {unknown} = _ucat({unknown}, buf, t0, pos)"]
                    return lines
                if vt.decode_with is not None:  # IntFlag: any combination is a value
                    members = self.const(vt.decode_with, "flag")
                    # negative numbers are no combination of flags: kept as plain ints
                    lines.append(store.format(f"{members}(x) if x >= 0 else x"))
                else:
                    lines.append(store.format(f"{members}.get(x, x)"))
                return lines
            lines.append(store.format("x"))
            return lines
        if kind in _FIXED:
            fmt, size = _FIXED[kind]
            unpack = self.const(_UNPACK[fmt], "unpack_" + fmt)
            if kind is Kind.FLOAT:  # a NaN keeps its bits
                self.ns["_f32nan"] = _wire.float32_nan
                lines += [f"x = {unpack}(buf, {at})[0]", "if x != x:"]
                lines.append(f"    x = _f32nan(buf, {at})")
                lines += [store.format("x"), f"pos += {size + skip}"]
                return lines
            lines += [store.format(f"{unpack}(buf, {at})[0]"), f"pos += {size + skip}"]
            return lines
        if kind is Kind.MESSAGE and group:
            assert vt.py_type is not None
            codec = self.codec(vt.py_type)
            self.ns["_group_end"] = _runtime.group_end
            if skip:
                lines.append(f"pos += {skip}")
            value = self._nested(vt, codec, merge)
            if collect and merge is not None:  # a later occurrence: into a Partial
                fresh = f"{codec}.decode(buf, pos, e, depth + 1, None)"
                later = self._nested(vt, codec, merge, "merge")
                value = f"({fresh} if {merge} is None else {later})"
            lines += [
                f"e, after = _group_end(buf, pos, {end}, {_wire.make_tag(tag, 3)}, depth, "
                f"{self.ctx.max_depth})",
                store.format(value),
                "pos = after",
            ]
            return lines
        self._read_len(lines, end, skip)
        if kind is Kind.STRING:
            lines.append(store.format("buf[pos:e].decode()"))
        elif kind is Kind.BYTES:
            lines.append(store.format("buf[pos:e]"))
        elif kind is Kind.MESSAGE:
            assert vt.py_type is not None
            codec = self.codec(vt.py_type)
            if vt.encode_with is not None and merge is not None:  # merge into the surrogate
                to_wire = self.const(vt.encode_with, "to_wire")
                merge = f"(None if {merge} is None else {to_wire}({merge}))"
            if in_place and merge is not None:  # the engine's takes_in_place
                own = f"{self._own}{merge}.__class__ is {self.const(vt.py_type, 'cls')}"
                # decode_ makes its list of pending unknown fields at its first merge
                pend = "pend" if not self._own else "pend if pend is not None else (pend := [])"
                merged = f"{codec}.merge(buf, pos, e, depth + 1, {merge}, {pend})"
                fresh = f"{codec}.decode(buf, pos, e, depth + 1, {merge})"
                lines.append(store.format(f"({merged} if {own} else {fresh})"))
            elif collect and merge is not None:
                fresh = f"{codec}.decode(buf, pos, e, depth + 1, None)"
                later = self._nested(vt, codec, merge, "merge")
                lines.append(store.format(f"({fresh} if {merge} is None else {later})"))
            else:
                lines.append(store.format(self._nested(vt, codec, merge)))
        elif kind is Kind.TIMESTAMP:
            self.ns["_dec_ts"] = _runtime.decode_timestamp
            lines.append(
                store.format(
                    f"_dec_ts(buf, pos, e, {merge}, depth + 1, {self.ctx.max_depth}, "
                    f"{self._where!r})"
                )
            )
        elif kind in BCL_KINDS:
            decode = self.const(_bcl.codec(kind)[1], "dec_bcl")
            lines.append(
                store.format(
                    f"{decode}(buf, pos, e, depth + 1, {self.ctx.max_depth}, {self._where!r})"
                )
            )
        elif kind is Kind.DURATION:
            self.ns["_dec_dur"] = _runtime.decode_duration
            lines.append(
                store.format(
                    f"_dec_dur(buf, pos, e, {merge}, depth + 1, {self.ctx.max_depth}, "
                    f"{self._where!r})"
                )
            )
        lines.append("pos = e")
        return lines

    def _nested(self, vt: ValueType, codec: str, merge: str | None, how: str = "decode") -> str:
        """The expression decoding a nested message ``buf[pos:e]`` (merged into ``merge``;
        ``how``: "merge" for the collecting merge, :meth:`_collector`)."""
        extra = ", None" if how == "merge" else ""
        value = f"{codec}.{how}(buf, pos, e, depth + 1, {merge}{extra})"
        assert vt.py_type is not None
        if merge is not None and self.ctx.parent_of(vt.py_type) is not None:
            # merging into a subtype-typed value must not turn it into a sibling subtype
            self.ns["_of_subtype"] = _runtime.of_subtype
            value = f"_of_subtype({value}, {self.const(vt.py_type, 'level')}, e)"
        return value

    def _decode_packed(self, f: FieldInfo, end: str, unknown: str | None, skip: int) -> list[str]:
        kind = f.value.kind
        target = f"f_{f.name}"
        lines: list[str] = []
        self._read_len(lines, end, skip)
        if kind in _FIXED:
            fmt, size = _FIXED[kind]
            lines += [
                f"if n % {size}:",
                f"    raise _truncated({self.qual!r}, pos, e)",
                f"{target}.extend(_sunpack('<%d{fmt}' % (n // {size}), buf, pos))",
            ]
            if kind is Kind.FLOAT:  # a NaN among them (the sum is NaN too) keeps its bits
                self.ns["_f32nans"] = _wire.float32_nans
                lines[-1] = f"xs = _sunpack('<%d{fmt}' % (n // {size}), buf, pos)"
                lines += [
                    "if (s := sum(xs)) != s:",
                    "    xs = _f32nans(xs, buf, pos)",
                    f"{target}.extend(xs)",
                ]
            if f.value.decode_with is not None:  # a converted type (bcl ticks)
                from_wire = self.const(f.value.decode_with, "from_wire")
                lines[-1] = f"xs = _sunpack('<%d{fmt}' % (n // {size}), buf, pos)"
                lines.append(f"{target}.extend(map({from_wire}, xs))")
            lines.append("pos = e")
            return lines
        lines += ["pe = e", "while pos < pe:"]
        lines += [
            "    " + line
            for line in self._decode_value(
                f.value, f"{target}.append({{}})", end="pe", unknown=unknown, tag=f.tag
            )
        ]
        lines += ["if pos != pe:", f"    raise _truncated({self.qual!r}, pos, pe)"]
        return lines

    def _decode_map_entry(
        self, f: FieldInfo, end: str, skip: int, unknown: str | None = None
    ) -> list[str]:
        assert f.key is not None
        lines: list[str] = []
        if unknown is not None and skip:  # the entry may go to the unknown fields whole
            lines.append("t0 = pos")
        self._read_len(lines, end, skip)
        lines.append("me = e")
        lines.append(f"k = {self._zero_literal(f.key)}")
        if f.value.kind is Kind.MESSAGE:
            lines.append("y = None")
        else:
            lines.append(f"y = {self._zero_literal(f.value)}")
        lines.append("odd = False  # a field other than key and value: upb keeps the entry unknown")
        lines.append("while pos < me:")
        body = ["t = buf[pos]", "pos += 1", "if t >= 128:", "    t, pos = _rtag(buf, pos - 1)"]
        ktag = _wire.make_tag(1, wire_type(f.key.kind))
        vtag = _wire.make_tag(2, wire_type(f.value.kind))
        body.append(f"if t == {ktag}:")
        body += ["    " + ln for ln in self._decode_value(f.key, "k = {}", end="me")]
        body.append(f"elif t == {vtag}:")
        closed = f.value.closed
        value_type = f.value.replace(closed=False) if closed else f.value
        value_lines = self._decode_value(value_type, "y = {}", end="me", merge="y")
        # upb counts the entry as a message level: a message value is two levels down
        value_lines = [ln.replace("depth + 1", "depth + 2") for ln in value_lines]
        body += ["    " + ln for ln in value_lines]
        body += ["else:", f"    pos = _skip(buf, pos, me, t, depth, {self.ctx.max_depth})"]
        body.append("    odd = True")
        lines += ["    " + ln for ln in body]
        lines += ["if pos != me:", f"    raise _truncated({self.qual!r}, pos, me)"]
        if f.value.kind is Kind.MESSAGE:
            lines += ["if y is None:", f"    y = {self._empty_message(f.value)}"]
        if closed:  # an unknown number: the whole entry goes to the unknown fields
            enum_cls = self.const(f.value.py_type, "enum_cls")
            lines.append(f"if not odd and isinstance(y, {enum_cls}):")
        else:
            lines.append("if not odd:")
        lines.append(f"    f_{f.name}[k] = y")
        if unknown is not None:
            self.ns["_ucat"] = _runtime.unknown_append
            lines += ["else:", f"    {unknown} = _ucat({unknown}, buf, t0, pos)"]
        return lines

    def _empty_message(self, vt: ValueType) -> str:
        """An expression for the value of an absent non-Optional message: an empty one."""
        assert vt.py_type is not None
        expr = f"{self.codec(vt.py_type)}.decode(b'', 0, 0, depth + 1, None)"
        if vt.decode_with is not None:
            expr = f"{self.const(vt.decode_with, 'from_wire')}({expr})"
        return expr

    def _zero_literal(self, vt: ValueType) -> str:

        return self.literal(zero_value(vt))


def _varint_fixups(kind: Kind) -> list[str]:
    """Conversions only multi-byte varints need (run in the ``else`` branch)."""
    if kind in (Kind.INT32, Kind.ENUM):
        return ["if x > 0x7FFFFFFF:", "    x = _s32(x)"]
    if kind is Kind.INT64:
        return ["if x > 0x7FFFFFFFFFFFFFFF:", "    x -= 0x10000000000000000"]
    if kind is Kind.UINT32:
        return ["x &= 0xFFFFFFFF"]
    return []


def _varint_conversions(kind: Kind) -> list[str]:
    """Conversions every varint value of ``kind`` needs."""
    if kind is Kind.SINT32:
        return ["x &= 0xFFFFFFFF", "x = (x >> 1) ^ -(x & 1)"]
    if kind is Kind.SINT64:
        return ["x = (x >> 1) ^ -(x & 1)"]
    if kind is Kind.BOOL:
        return ["x = x != 0"]
    return []


def _bool_byte(value: Any, where: str) -> bytes:
    """The byte of a bool given as something other than True/False (ints 0 and 1 only)."""
    if type(value) is int and value in (0, 1):
        return bytes((value,))
    raise _runtime.bad_value(where, "bool", value)


def _drop_needless_pass(lines: list[str]) -> list[str]:
    """Remove ``pass`` lines followed by a statement at the same indentation."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if line.strip() == "pass" and i + 1 < len(lines):
            indent = len(line) - len(line.lstrip())
            following = lines[i + 1]
            if len(following) - len(following.lstrip()) == indent:
                continue
        out.append(line)
    return out


def _identifier(qualname: str) -> str:
    return qualname.replace(".", "_").replace("<", "_").replace(">", "_")


def _describe(f: FieldInfo) -> str:
    value = f.value.describe()
    if f.label is Label.MAP:
        assert f.key is not None
        return f"map<{f.key.describe()}, {value}>"
    if f.label is Label.REPEATED:
        return f"repeated {value}" + (" [packed]" if f.packed else "")
    if f.label is Label.OPTIONAL:
        return f"optional {value}"
    if f.required:
        return f"required {value}"
    return value


class GeneratedSource(Record, frozen=True):
    """A contract's codec as text: ``encode_<stem>`` and ``decode_<stem>``, and the
    values of the global names the text uses."""

    __slots__ = ("source", "namespace", "stem")  # noqa: RUF023 (the fields' order)
    source: str
    namespace: dict[str, Any]
    stem: str

    def __init__(self, source: str, namespace: dict[str, Any], stem: str) -> None:
        _set = object.__setattr__
        _set(self, "source", source)
        _set(self, "namespace", namespace)
        _set(self, "stem", stem)


def codec_source(info: ContractInfo, ctx: CodecContext) -> GeneratedSource:
    """The source text of ``info``'s codec and the names it refers to."""
    gen = _Generator(info, ctx)
    lines = [f"# protoattr codec for {info.cls.__module__}.{gen.qual}"]
    lines += gen.encoder()
    lines.append("")
    lines += _drop_needless_pass(gen.decoder())
    lines.append("")
    lines += gen.merger()
    return GeneratedSource("\n".join(lines) + "\n", gen.ns, gen.ident)
