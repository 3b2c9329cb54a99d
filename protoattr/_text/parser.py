"""Parsing text format into the binary form: what ``text_format.Parse`` accepts, and only that.

The parser walks the tokens with the root's
:class:`~protoattr._text.plan.MessagePlan` and writes each value's wire
form as it goes; ``deserialize`` then builds the object, so every check and
conversion a decode makes applies to text too.  The checks ``Parse`` makes
itself are made here, at the same token: a field named twice (``should not
have multiple``), two members of one oneof, an unknown field or enum name,
numbers out of range, strings that are not UTF-8, an ``Any`` whose type is
not known.  Errors say ``line:column : message``, 1-based.
"""

from __future__ import annotations

import codecs
import math
import re
import struct
import warnings
from typing import TYPE_CHECKING, Any

from .._core.errors import ContractError, DecodeError
from .._core.types import Kind
from .plan import (
    EGROUP,
    I32,
    I64,
    LEN,
    SGROUP,
    VARINT,
    FieldPlan,
    MessagePlan,
    extension_named,
    plan_for,
)
from .tokens import Tokens

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

_IDENT = re.compile(r"[^\d\W]\w*")
_IDENT_OR_NUMBER = re.compile(r"\w+")
_URL_CHARS = re.compile(r"[0-9a-zA-Z\-.~_ !$&()*+,;=%]+")
_TYPE_NAME = re.compile(r"[^\d\W]\w*(\.[^\d\W]\w*)*")
_PERCENT = re.compile(r"%[\da-fA-F][\da-fA-F]")
_C_OCTAL = re.compile(r"(-?)0(\d+)")
_FLOAT_OCTAL = re.compile(r"-?0[0-9]+")
_FLOAT_INF = re.compile(r"-?inf(?:inity)?f?", re.IGNORECASE)
_FLOAT_NAN = re.compile(r"nanf?", re.IGNORECASE)
_SHORT_HEX = re.compile(r"(\\+)x([0-9a-fA-F])(?![0-9a-fA-F])")
_QUESTION = re.compile(r"(\\+)\?")
_QUOTES = "\"'"

_RANGES = {
    Kind.INT32: (-(2**31), 2**31 - 1),
    Kind.SINT32: (-(2**31), 2**31 - 1),
    Kind.SFIXED32: (-(2**31), 2**31 - 1),
    Kind.INT64: (-(2**63), 2**63 - 1),
    Kind.SINT64: (-(2**63), 2**63 - 1),
    Kind.SFIXED64: (-(2**63), 2**63 - 1),
    Kind.UINT32: (0, 2**32 - 1),
    Kind.FIXED32: (0, 2**32 - 1),
    Kind.UINT64: (0, 2**64 - 1),
    Kind.FIXED64: (0, 2**64 - 1),
}
_F = struct.Struct("<f")
_D = struct.Struct("<d")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")


def parse_to_bytes(
    model: CodecModel,
    plan: MessagePlan,
    text: str | bytes,
    *,
    allow_unknown_extension: bool = False,
    allow_field_number: bool = False,
    allow_unknown_field: bool = False,
    max_recursion_depth: int | None = None,
) -> bytes:
    """The binary form of the message ``text`` describes."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(f"the text is not valid UTF-8: {exc}") from None
    parser = _Parser(
        model,
        Tokens(text),
        allow_unknown_extension=allow_unknown_extension,
        allow_field_number=allow_field_number,
        allow_unknown_field=allow_unknown_field,
        max_depth=max_recursion_depth,
    )
    return bytes(parser.top(plan))


# ------------------------------------------------------------------- values


def parse_integer(text: str) -> int:
    """An integer as text_format reads one: decimal, ``0x``, C octal ``017``, ``0o``/``0b``."""
    m = _C_OCTAL.fullmatch(text)
    candidate = f"{m.group(1)}0o{m.group(2)}" if m else text
    try:
        return int(candidate, 0)
    except ValueError:
        raise ValueError(f"Couldn't parse integer: {text}") from None


def parse_float(text: str) -> float:
    """A float as text_format reads one (``1.5``, ``1e3``, ``-inf``, ``nan``, ``2.5f``...)."""
    if _FLOAT_OCTAL.match(text):
        raise ValueError(f"Invalid octal float: {text}")
    try:
        return float(text)
    except ValueError:
        pass
    if _FLOAT_INF.fullmatch(text):
        return -math.inf if text[0] == "-" else math.inf
    if _FLOAT_NAN.fullmatch(text):
        return math.nan
    try:
        return float(text.rstrip("fF"))
    except ValueError:
        raise ValueError(f"Couldn't parse float: {text}") from None


def unescape(body: str) -> bytes:
    """A string literal's body as bytes: C escapes, ``\\x``/octal bytes, ``\\u``/``\\U`` as
    UTF-8, other text as UTF-8 - with the Python escapes text_format also accepts."""
    if "\\" not in body:
        return body.encode("utf-8")

    def short_hex(m: re.Match[str]) -> str:  # "\xf" is one byte, as in C
        return m.group(1) + "x0" + m.group(2) if len(m.group(1)) % 2 else m.group(0)

    def question(m: re.Match[str]) -> str:  # "\?" is "?" (the spec's, C++'s; see the docs)
        return m.group(1)[:-1] + "?" if len(m.group(1)) % 2 else m.group(0)

    try:
        text = _QUESTION.sub(question, _SHORT_HEX.sub(short_hex, body))
        text = codecs.decode(codecs.encode(text, "raw_unicode_escape"), "raw_unicode_escape")
        with warnings.catch_warnings():  # "\q" stays "\q", as in text_format
            warnings.simplefilter("ignore", DeprecationWarning)
            text = codecs.decode(text.encode("utf-8"), "unicode_escape")
        return text.encode("latin-1")
    except (UnicodeError, ValueError) as exc:
        raise ValueError(str(exc)) from None


def _varint(out: bytearray, v: int) -> None:
    v &= 0xFFFFFFFFFFFFFFFF
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


_TAGS: dict[int, bytes] = {}


def _tag(number: int, wt: int) -> bytes:
    key = (number << 3) | wt
    found = _TAGS.get(key)
    if found is None:
        out = bytearray()
        _varint(out, key)
        found = _TAGS[key] = bytes(out)
    return found


def _float32(x: float) -> bytes:
    try:
        return _F.pack(x)
    except OverflowError:  # beyond float32: infinity, as a C cast makes it
        return _F.pack(math.copysign(math.inf, x))


# ------------------------------------------------------------------- parser


class _State:
    """What one message has been given so far (for ``should not have multiple``)."""

    __slots__ = ("oneofs", "present")

    def __init__(self) -> None:
        self.present: dict[int, Any] = {}  # field number -> its value (or True)
        self.oneofs: dict[str, str] = {}  # oneof -> the member set


def _field_name(fp: FieldPlan) -> str:
    """The field's name in its descriptor (a group's is its type name, lower-cased)."""
    return fp.name.lower() if fp.group else fp.name


class _Parser:
    def __init__(
        self,
        model: CodecModel,
        tokens: Tokens,
        *,
        allow_unknown_extension: bool,
        allow_field_number: bool,
        allow_unknown_field: bool,
        max_depth: int | None,
    ) -> None:
        self.model = model
        self.tk = tokens
        self.toks = tokens.text
        self.n = len(tokens.text)
        self.i = 0
        self.allow_unknown_extension = allow_unknown_extension
        self.allow_field_number = allow_field_number
        self.allow_unknown_field = allow_unknown_field
        self.max_depth = max_depth
        self.model_depth = int(getattr(model, "max_depth", 100)) + 1
        self.depth = 0

    # -- tokens ------------------------------------------------------------

    @property
    def token(self) -> str:
        return self.toks[self.i] if self.i < self.n else ""

    def try_consume(self, token: str) -> bool:
        if self.i < self.n and self.toks[self.i] == token:
            self.i += 1
            return True
        return False

    def consume(self, token: str) -> None:
        if not self.try_consume(token):
            raise self.tk.error(self.i, f'Expected "{token}".')

    def error(self, message: str) -> DecodeError:
        return self.tk.error(self.i, message)

    def error_before(self, message: str) -> DecodeError:
        return self.tk.error_before(self.i, message)

    def identifier(self) -> str:
        token = self.token
        if not _IDENT.match(token):
            raise self.error("Expected identifier.")
        self.i += 1
        return token

    def identifier_or_number(self) -> str:
        token = self.token
        if not _IDENT_OR_NUMBER.match(token):
            raise self.error(f"Expected identifier or number, got {token}.")
        self.i += 1
        return token

    def integer(self, kind: Kind) -> int:
        token = self.token
        try:
            value = parse_integer(token)
        except ValueError as exc:
            raise self.error(str(exc)) from None
        lo, hi = _RANGES[kind]
        if not lo <= value <= hi:
            raise self.error(f"Value out of range: {value}")
        self.i += 1
        return value

    def floating(self) -> float:
        try:
            value = parse_float(self.token)
        except ValueError as exc:
            raise self.error(str(exc)) from None
        self.i += 1
        return value

    def boolean(self) -> bool:
        token = self.token
        if token in ("true", "t", "1", "True"):
            value = True
        elif token in ("false", "f", "0", "False"):
            value = False
        else:
            raise self.error('Expected "true" or "false".')
        self.i += 1
        return value

    def byte_string(self) -> bytes:
        parts = [self._one_string()]
        while self.i < self.n and self.toks[self.i][:1] in ("'", '"') and self.toks[self.i]:
            parts.append(self._one_string())
        return b"".join(parts)

    def _one_string(self) -> bytes:
        text = self.token
        if len(text) < 1 or text[0] not in _QUOTES:
            raise self.error(f"Expected string but found: {text!r}")
        if len(text) < 2 or text[-1] != text[0]:
            raise self.error(f"String missing ending quote: {text!r}")
        try:
            value = unescape(text[1:-1])
        except ValueError as exc:
            raise self.error(str(exc)) from None
        self.i += 1
        return value

    def string(self) -> bytes:
        data = self.byte_string()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:  # reported at the token after the string
            raise self.error(f"Couldn't parse string: {exc}") from None
        return data

    def enum(self, fp: FieldPlan) -> int:
        assert fp.enum is not None
        token = self.token
        try:
            number = int(token, 0)
        except ValueError:
            found = fp.enum.by_name.get(token)
            if found is None:
                raise self.error(
                    f'Enum type "{fp.enum.full_name}" has no value named {token}.'
                ) from None
            number = found
        else:
            if fp.closed and number not in fp.enum.name_of:
                raise self.error(
                    f'Enum type "{fp.enum.full_name}" has no value with number {number}.'
                )
            if not -(2**31) <= number < 2**31:
                raise self.error(f"Value out of range: {number}")
        self.i += 1
        return number

    # -- messages ----------------------------------------------------------

    def top(self, plan: MessagePlan) -> bytearray:
        self._enter()
        out = bytearray()
        state = _State()
        while self.i < self.n:
            self.field(plan, state, out)
        self.depth -= 1
        return out

    def _enter(self) -> None:
        self.depth += 1
        if self.max_depth is not None and self.depth > self.max_depth:
            raise self.error(f"Message too deep. Max recursion depth is {self.max_depth}")
        if self.depth > self.model_depth:  # what deserialize would refuse anyway
            raise self.error(
                f"nesting deeper than the model's max_depth ({self.model_depth - 1} levels)"
            )

    def body(self, plan: MessagePlan, end_token: str) -> bytearray:
        self._enter()
        out = bytearray()
        state = _State()
        while not self.try_consume(end_token):
            if self.i >= self.n:
                raise self.error_before(f'Expected "{end_token}".')
            self.field(plan, state, out)
        self.depth -= 1
        return out

    def field(self, plan: MessagePlan, state: _State, out: bytearray) -> None:
        fp: FieldPlan | None
        if plan.is_any and self.try_consume("["):
            self._expanded_any(state, out)
            return
        if self.try_consume("["):
            name = self.identifier()
            while self.try_consume("."):
                name += "." + self.identifier()
            fp = self._extension(plan, name)
            self.consume("]")
            if fp is None:
                self._skip_contents()
                self._separator()
                return
        else:
            name = self.identifier_or_number()
            if self.allow_field_number and name.isdigit():
                try:
                    fp = plan.by_number.get(int(name))
                except ValueError:  # a digit int() does not read ("²")
                    raise self.error_before(f"Couldn't parse integer: {name}") from None
            else:
                fp = plan.by_name.get(name)
                if fp is None:
                    fp = plan.by_name.get(name.lower())
                    if fp is not None and (not fp.group or fp.type_name != name):
                        fp = None
            if fp is None:
                if not self.allow_unknown_field:
                    raise self.error_before(
                        f'Message type "{plan.full_name}" has no field named "{name}".'
                    )
                self._skip_contents()
                self._separator()
                return
        if fp.oneof is not None:
            which = state.oneofs.get(fp.oneof)
            if which is not None and which != _field_name(fp):
                raise self.error_before(
                    f'Field "{_field_name(fp)}" is specified along with field "{which}", '
                    f'another member of oneof "{fp.oneof}" for message type "{plan.full_name}".'
                )
        if fp.message is not None:
            self.try_consume(":")
            merge = self._message_value
        else:
            self.consume(":")
            merge = self._scalar_value
        if fp.repeated and self.try_consume("["):
            if not self.try_consume("]"):
                while True:
                    merge(plan, fp, state, out)
                    if self.try_consume("]"):
                        break
                    self.consume(",")
        else:
            merge(plan, fp, state, out)
        self._separator()

    def _separator(self) -> None:
        if not self.try_consume(","):
            self.try_consume(";")

    def _extension(self, plan: MessagePlan, name: str) -> FieldPlan | None:
        """The extension ``[name]`` of ``plan``'s message (``None``: skip it)."""
        if plan.builder is None:
            raise self.error_before(f'Message type "{plan.full_name}" does not have extensions.')
        handle, fp = extension_named(plan, name)
        if handle is None:
            if self.allow_unknown_extension:
                return None
            raise self.error_before(
                f'Extension "{name}" not registered. Did you declare it with pa.extension '
                "(or import the module that does)?"
            )
        if fp is None:
            raise self.error_before(
                f'Extension "{name}" does not extend message type "{plan.full_name}".'
            )
        return fp

    def _message_value(
        self, plan: MessagePlan, fp: FieldPlan, state: _State, out: bytearray
    ) -> None:
        if self.try_consume("<"):
            end = ">"
        else:
            self.consume("{")
            end = "}"
        if not fp.repeated:
            if fp.number in state.present:
                raise self.error_before(_multiple(plan, fp))
            state.present[fp.number] = True
            if fp.oneof is not None:
                state.oneofs[fp.oneof] = _field_name(fp)
        assert fp.message is not None
        body = self.body(fp.message, end)
        if fp.group:
            out += _tag(fp.number, SGROUP)
            out += body
            out += _tag(fp.number, EGROUP)
        else:
            out += _tag(fp.number, LEN)
            _varint(out, len(body))
            out += body

    def _scalar_value(
        self, plan: MessagePlan, fp: FieldPlan, state: _State, out: bytearray
    ) -> None:
        kind = fp.kind
        value: Any
        if kind is Kind.STRING:
            value = self.string()
        elif kind is Kind.BYTES:
            value = self.byte_string()
        elif kind is Kind.BOOL:
            value = self.boolean()
        elif kind is Kind.ENUM:
            value = self.enum(fp)
        elif kind is Kind.FLOAT or kind is Kind.DOUBLE:
            value = self.floating()
            if kind is Kind.FLOAT:
                value = _F.unpack(_float32(value))[0]
        else:
            value = self.integer(kind)
        if not fp.repeated:
            present = state.present
            if fp.implicit:
                if fp.number in present and not _is_default(present[fp.number]):
                    raise self.error_before(_multiple(plan, fp))
            elif fp.number in present:
                raise self.error_before(_multiple(plan, fp))
            present[fp.number] = value
            if fp.oneof is not None:
                state.oneofs[fp.oneof] = _field_name(fp)
        _write(out, fp, value)

    def _expanded_any(self, state: _State, out: bytearray) -> None:
        prefix, name = self._type_url()
        self.try_consume(":")
        if self.try_consume("<"):
            end = ">"
        else:
            self.consume("{")
            end = "}"
        try:
            target = self.model.find(name)
        except ContractError:
            target = None
        if target is None:
            raise self.error_before(f"Type {name} not found in descriptor pool")
        plan = plan_for(self.model, target)
        body = self.body(plan, end)
        # the payload as the packed message serializes (fields in number order)
        model = self.model
        try:
            value = model.serialize(model.deserialize(target, bytes(body)))
        except DecodeError as exc:
            raise self.error_before(f"{name}: {exc}") from None
        url = f"{prefix}/{name}".encode()
        state.present[1] = url
        state.present[2] = value
        out += _tag(1, LEN)
        _varint(out, len(url))
        out += url
        out += _tag(2, LEN)
        _varint(out, len(value))
        out += value  # and no separator: text_format takes none after an expanded Any

    def _type_url(self) -> tuple[str, str]:
        parts: list[str] = []
        last_slash = -1
        while True:
            token = self.token
            if token and _URL_CHARS.fullmatch(token):
                parts.append(token)
                self.i += 1
                continue
            if self.try_consume("/"):
                last_slash = len(parts)
                parts.append("/")
            else:
                self.consume("]")
                break
        if last_slash == -1:
            raise self.error('Type URL does not contain "/".')
        prefix = "".join(parts[:last_slash])
        name = "".join(parts[last_slash + 1 :])
        if not prefix:
            raise self.error("Type URL prefix is empty.")
        if prefix.startswith("/"):
            raise self.error('Type URL prefix starts with "/".')
        for k, ch in enumerate(prefix):
            if ch == "%" and not _PERCENT.fullmatch(prefix[k : k + 3]):
                raise self.error(f'Invalid percent escape, got "{prefix[k : k + 3]}".')
        if not _TYPE_NAME.fullmatch(name):
            raise self.error(f'Expected type name, got "{name}".')
        return prefix, name

    # -- skipping unknown fields ---------------------------------------------

    def _skip_contents(self) -> None:
        if self.try_consume(":") and self.token not in ("{", "<"):
            if self.token == "[":
                self._skip_repeated()
            else:
                self._skip_value()
        else:
            self._skip_message()

    def _skip_field(self) -> None:
        if self.try_consume("["):
            self.identifier()
            count = 1
            while self.try_consume("."):
                self.identifier()
                count += 1
            if count == 3 and self.try_consume("/"):
                self.identifier()
                while self.try_consume("."):
                    self.identifier()
            self.consume("]")
        else:
            self.identifier_or_number()
        self._skip_contents()
        self._separator()

    def _skip_message(self) -> None:
        if self.try_consume("<"):
            end = ">"
        else:
            self.consume("{")
            end = "}"
        while self.token not in (">", "}"):
            self._skip_field()
        self.consume(end)

    def _skip_value(self) -> None:
        token = self.token
        if token[:1] in ("'", '"') and token:
            if self._try_strings():
                return
            token = self.token
        if token and _IDENT.match(token):
            self.i += 1
            return
        try:
            value = parse_integer(token)
            if -(2**63) <= value < 2**64:
                self.i += 1
                return
        except ValueError:
            pass
        try:
            parse_float(token)
        except ValueError:
            raise self.error(f"Invalid field value: {token}") from None
        self.i += 1

    def _try_strings(self) -> bool:
        try:
            self.byte_string()
        except DecodeError:
            return False
        return True

    def _skip_repeated(self) -> None:
        self.consume("[")
        if not self.try_consume("]"):
            while True:
                if self.token in ("<", "{"):
                    self._skip_message()
                else:
                    self._skip_value()
                if self.try_consume("]"):
                    break
                self.consume(",")


def _multiple(plan: MessagePlan, fp: FieldPlan) -> str:
    if fp.extension is not None:
        what = f'"{fp.extension}" extensions'
    else:
        what = f'"{_field_name(fp)}" fields'
    return f'Message type "{plan.full_name}" should not have multiple {what}.'


def _is_default(value: Any) -> bool:
    if isinstance(value, float) and math.copysign(1.0, value) < 0:
        return False
    return not value


def _write(out: bytearray, fp: FieldPlan, value: Any) -> None:
    """One value with its tag (repeated scalars unpacked: decoders read both forms)."""
    kind = fp.kind
    wire = fp.wire
    out += _tag(fp.number, wire)
    if wire == VARINT:
        if kind is Kind.SINT32 or kind is Kind.SINT64:
            value = (value << 1) ^ (value >> 63)
        elif kind is Kind.BOOL:
            value = 1 if value else 0
        _varint(out, value)
    elif wire == LEN:
        _varint(out, len(value))
        out += value
    elif wire == I32:
        out += _float32(value) if kind is Kind.FLOAT else _U32.pack(value & 0xFFFFFFFF)
    elif wire == I64:
        out += _D.pack(value) if kind is Kind.DOUBLE else _U64.pack(value & 0xFFFFFFFFFFFFFFFF)
