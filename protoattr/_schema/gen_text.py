"""``gen``'s source text helpers: literals, identifiers, wrapped calls, comments.

Pure functions from values to Python source text, formatted the way ruff format
writes it (the generated modules pass ``ruff format --check``).
"""

from __future__ import annotations

import builtins
import keyword
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from . import descriptor as d

WIDTH = 88  # the generated code fits the usual formatter width


@dataclass
class Field:
    name: str  # the Python attribute
    proto_name: str
    number: int
    annotation: str
    options: list[str]
    comment: list[str]
    oneof: str | None = None
    needs_value: bool = False  # no default: a required field
    loc: d.Location | None = None  # its comments


# -- source text helpers ------------------------------------------------------------------


IMMUTABLE = {"int", "float", "str", "bytes", "bool", "None"}


def field_lines(f: Field, pad: str = "    ") -> list[str]:
    """``name: T = pa.field(...)`` at indentation ``pad``, wrapped as ruff format wraps it."""
    call = f"pa.field({', '.join(f.options)})"
    line = f"{pad}{f.name}: {f.annotation} = {call}"
    if len(line) <= WIDTH:
        return [line]
    if len(f"{pad}{f.name}: {f.annotation} = pa.field(") > WIDTH:
        # split where ruff format would: around the value, else around the annotation
        if len(f"{pad}{f.name}: {f.annotation} = (") <= WIDTH and len(f"{pad}    {call}") <= WIDTH:
            return [f"{pad}{f.name}: {f.annotation} = (", f"{pad}    {call}", f"{pad})"]
        head, bracket, inner = f.annotation.partition("[")
        if bracket and f.annotation.endswith("]"):  # ruff splits the subscript first
            return [f"{pad}{f.name}: {head}[", f"{pad}    {inner[:-1]}", f"{pad}] = {call}"]
        return [f"{pad}{f.name}: (", f"{pad}    {f.annotation}", f"{pad}) = {call}"]
    return wrap_call(f"{f.name}: {f.annotation} = {call}", pad)


def wrap_call(text: str, indent: str) -> list[str]:
    """``head(args)`` over several lines, the way black and ruff format it."""
    head, _, rest = text.partition("(")
    args = rest[:-1]
    one = f"{indent}    {args}"
    if len(one) <= WIDTH:
        return [f"{indent}{head}(", one, f"{indent})"]
    parts = _split_args(args)
    return [f"{indent}{head}(", *(f"{indent}    {p}," for p in parts), f"{indent})"]


def _split_args(args: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    quote = ""
    current = ""
    for ch in args:
        if quote:
            current += ch
            if ch == quote and not current.endswith("\\" + quote):
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def reserved_option(m: d.DescriptorProto) -> str:
    items: list[str] = []
    for r in m.reserved_range:
        start, end = r.start or 0, r.end or 0
        items.append(str(start) if end == start + 1 else f"range({start}, {end})")
    items += [str_literal(n) for n in m.reserved_name]
    if not items:
        return ""
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def snake(name: str) -> str:
    """``GetHTTPStatus`` -> ``get_http_status`` (a gRPC method name as a Python method)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def safe_name(name: str, taken: Iterable[str], *, builtin: bool = False) -> str:
    """``name`` as a Python identifier that does not collide with ``taken`` or a keyword
    (nor, for module-level names, with a builtin).  Soft keywords (``match``, ``case``,
    ``type``, ``_``) are valid identifiers and stay as they are, so the output is the
    same on every Python: which words are soft keywords depends on the version."""
    taken = set(taken)
    out = name
    if keyword.iskeyword(out):
        out += "_"
    while out in taken or (builtin and out in _BUILTINS):
        out += "_"
    return out


_BUILTINS = set(dir(builtins))


def enum_member(name: str) -> str:
    if keyword.iskeyword(name) or name == "mro":
        return name + "_"
    if name.startswith("_"):
        return "V" + name
    return name


def str_literal(text: str) -> str:
    """A double-quoted Python string literal (the quotes ruff format prefers)."""
    r = repr(text)
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


def bytes_literal(data: bytes) -> str:
    r = repr(data)
    if r.startswith("b'") and b'"' not in data:
        r = 'b"' + r[2:-1].replace("\\'", "'") + '"'
    return r


def float_literal(text: str) -> str:
    if text in ("inf", "+inf"):
        return 'float("inf")'
    if text == "-inf":
        return '-float("inf")'
    if text in ("nan", "-nan"):
        return 'float("nan")'
    return repr(float(text)).replace("e+", "e")  # 1e100, as ruff format writes it


_OCTAL = re.compile(r"\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)", re.DOTALL)
_SIMPLE = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11}


def unescape(text: str) -> bytes:
    """Undo protoc's C escaping of a bytes default."""
    out = bytearray()
    pos = 0
    for m in _OCTAL.finditer(text):
        out += text[pos : m.start()].encode("latin-1")
        code = m.group(1)
        if code[0] in "01234567":
            out.append(int(code, 8) & 0xFF)
        elif code[0] == "x":
            out.append(int(code[1:], 16))
        else:
            out.append(_SIMPLE.get(code, ord(code)))
        pos = m.end()
    out += text[pos:].encode("latin-1")
    return bytes(out)


def _clean(text: str) -> list[str]:
    """Comment text as lines: stripped, without the leading blank ones or trailing ones."""
    lines = [line.rstrip() for line in textwrap.dedent(text).splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return [_plain(line) for line in lines]


# Characters ruff flags as ambiguous in comments and docstrings (RUF002/RUF003).
_AMBIGUOUS = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",  # minus sign (google/type/quaternion.proto)
        "\u00a0": " ",
        "\u00d7": "x",
    }
)


def _plain(line: str) -> str:
    return line.translate(_AMBIGUOUS)


_LIST_ITEM = re.compile(r"([-*+#|>]|\d+[.)])(\s|$)")


def _wrapped(lines: list[str], width: int) -> list[str]:
    """``lines`` fitted to ``width``: a paragraph (lines of one indentation, none blank,
    none starting a list item) with a line too long is wrapped as a whole, so no short
    fragment is left between its lines; other paragraphs keep their author's breaks."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if any(len(x) > width for x in paragraph):
            lead = paragraph[0][: len(paragraph[0]) - len(paragraph[0].lstrip())]
            text = " ".join(x.strip() for x in paragraph)
            out.extend(
                textwrap.wrap(
                    text,
                    width,
                    initial_indent=lead,
                    subsequent_indent=lead,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
                or paragraph
            )
        else:
            out.extend(paragraph)
        paragraph.clear()

    for line in lines:
        lead = line[: len(line) - len(line.lstrip())]
        starts = not line.strip() or bool(_LIST_ITEM.match(line.lstrip()))
        if paragraph and (
            starts
            or not paragraph[0].startswith(lead)
            or len(lead) != len(paragraph[0]) - len(paragraph[0].lstrip())
        ):
            flush()
        if not line.strip():
            out.append(line)
            continue
        paragraph.append(line)
    flush()
    return out


def doc_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def docstring_lines(loc: d.Location | None, indent: str) -> list[str]:
    lines = _clean(loc.leading_comments or "") if loc else []
    if not lines:
        return []
    lines = _wrapped([doc_escape(x) for x in lines], WIDTH - len(indent) - 6)
    if len(lines) == 1:
        line = lines[0]
        if line.endswith('"'):
            line += " "
        return [f'{indent}"""{line}"""']
    # ruff format re-indents a docstring's later lines by their common indentation
    rest = textwrap.dedent("\n".join(lines[1:])).split("\n")
    body = [f"{indent}{x}" if x else "" for x in rest]
    return [f'{indent}"""{lines[0]}', *body, f'{indent}"""']


def comment_lines(loc: d.Location | None, indent: str, *, trailing: bool = True) -> list[str]:
    """The ``# ...`` lines of a declaration's leading comments (and trailing ones)."""
    if loc is None:
        return []
    lines = _clean(loc.leading_comments or "")
    if trailing:
        lines += _clean(loc.trailing_comments or "")
    lines = _wrapped(lines, WIDTH - len(indent) - 2)
    return [f"{indent}# {x}".rstrip() for x in lines]


def commented(declaration: list[str], loc: d.Location | None, indent: str) -> list[str]:
    """A declaration with its comments: the leading ones above it, and a trailing one
    (protoc's comment after the value on its line) at the end of its line when it has
    one line and the comment fits there, else above it after the leading ones: either
    way with its own value, not before the next one."""
    lines = comment_lines(loc, indent, trailing=False)
    tail = _clean(loc.trailing_comments or "") if loc is not None else []
    if len(tail) == 1 and len(declaration) == 1:
        line = f"{declaration[0]}  # {tail[0]}"
        if len(line) <= WIDTH:
            return [*lines, line]
    if tail:
        lines += [f"{indent}# {x}".rstrip() for x in _wrapped(tail, WIDTH - len(indent) - 2)]
    return [*lines, *declaration]
