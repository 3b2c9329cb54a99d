"""``json.dumps(value, indent=..., sort_keys=..., ensure_ascii=...)``, the same text, faster.

``json_format.MessageToJson`` pretty-prints with ``indent=2`` by default, and
CPython's C encoder only runs without an indent: with one, ``json.dumps``
falls back to a pure-Python generator that costs more than building the
message's dict.  Protobuf JSON is mostly objects and arrays of scalars, and
those the C encoder *can* write indented: at nesting level ``n`` an object
of scalars is ``{`` newline, its items joined by ``",\\n" + indent * (n + 1)``,
newline, ``}``, so an encoder whose item separator is that string writes its
inside exactly.  This module walks the containers that hold containers in
Python and hands every container of scalars to such an encoder.  The text is
byte for byte ``json.dumps``'s (a property test checks it).
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any

__all__ = ["dumps"]

_C_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)


class _Unusual(Exception):
    """A value this writer leaves to ``json.dumps`` (a non-string key...)."""


class _Indented:
    """Writes one indent / sort_keys / ensure_ascii combination."""

    def __init__(self, indent: str, sort_keys: bool, ensure_ascii: bool) -> None:
        self.indent = indent
        self.sort_keys = sort_keys
        self.string = (
            json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
        )
        self.flat: list[Callable[[Any, int], Any]] = []  # by nesting level

    def encoder(self, level: int) -> Callable[[Any, int], Any]:
        while len(self.flat) <= level:
            separator = ",\n" + self.indent * (len(self.flat) + 1)
            self.flat.append(
                # markers, default, encoder, indent, key and item separators,
                # sort_keys, skipkeys, allow_nan
                _C_ENCODER(None, _unusual, self.string, None, ": ", separator, self.sort_keys,
                           False, True)
            )  # fmt: skip
        return self.flat[level]

    def write(self, v: Any, level: int, out: list[str]) -> None:
        cls = v.__class__
        if cls is dict or cls is list:
            # (one body for both, not a helper: a call per level would lower the depth
            # of nesting this writer reaches before a RecursionError)
            if cls is dict:
                items, opening, closing = v.values(), "{", "}"
            else:
                items, opening, closing = v, "[", "]"
            if not v:
                out.append(opening + closing)
                return
            for x in items:
                c = x.__class__
                if c is dict or c is list:
                    if x:
                        break
                elif c is tuple or isinstance(x, (dict, list)):
                    raise _Unusual
            else:  # an object or array of scalars (and empty containers)
                inside = "".join(self.encoder(level)(v, 0))[1:-1]
                pad = self.indent * level
                out.append(f"{opening}\n{pad}{self.indent}{inside}\n{pad}{closing}")
                return
            self.container(v, level, out)
        elif cls is tuple or isinstance(v, (dict, list)):
            raise _Unusual
        else:
            out.append("".join(self.encoder(0)(v, 0)))

    def container(self, v: Any, level: int, out: list[str]) -> None:
        """An object or array holding containers: walked here, item by item."""
        pad = self.indent * (level + 1)
        first = "\n" + pad
        rest = ",\n" + pad
        sep = first
        if v.__class__ is dict:
            out.append("{")
            items = sorted(v.items()) if self.sort_keys else v.items()
            string = self.string
            for k, x in items:
                if k.__class__ is not str:
                    raise _Unusual
                out.append(sep + string(k) + ": ")
                sep = rest
                self.write(x, level + 1, out)
            out.append("\n" + self.indent * level + "}")
        else:
            out.append("[")
            for x in v:
                out.append(sep)
                sep = rest
                self.write(x, level + 1, out)
            out.append("\n" + self.indent * level + "]")


def _unusual(value: Any) -> Any:
    raise _Unusual


_WRITERS: dict[tuple[str, bool, bool], _Indented] = {}


def dumps(value: Any, *, indent: int | str | None, sort_keys: bool, ensure_ascii: bool) -> str:
    """Exactly ``json.dumps(value, indent=..., sort_keys=..., ensure_ascii=...)``."""
    if indent is None or _C_ENCODER is None:
        return json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    pad = indent if isinstance(indent, str) else " " * indent
    key = (pad, sort_keys, ensure_ascii)
    writer = _WRITERS.get(key)
    if writer is None:
        writer = _WRITERS.setdefault(key, _Indented(pad, sort_keys, ensure_ascii))
    out: list[str] = []
    try:
        writer.write(value, 0, out)
    except (_Unusual, TypeError, ValueError):
        return json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    return "".join(out)
