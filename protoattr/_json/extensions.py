"""Extensions in JSON: ``"[shop.v1.priority]": 7`` keys, as ``json_format`` reads and
writes them.

Only contracts that declare ``extensions=`` ranges get the extension-aware writer,
and only keys in brackets reach the reader's look-up, so other messages pay nothing.
An extension's value is written and read by its holder contract's plan (see
:mod:`protoattr._core.extensions`), so it has exactly the JSON form of a field of its
type.  Like ``json_format``, the keys of the extensions that are set go among the set
fields in field-number order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._model.extensions import present

if TYPE_CHECKING:
    from .._model.codecs import CodecModel
    from .._model.extensions import Extension

__all__ = ["KEY", "extendable_writer", "store"]

#: where a level reader collects the extensions it read, among the attribute values
#: (no attribute can be called that)
KEY = "[extensions]"


def extendable_writer(
    model: CodecModel,
    level: type,
    base: Callable[[Any], dict[str, Any]],
    tags: dict[str, int],
    defaults: list[tuple[str, Any]],
    writer_for: Callable[[type], Callable[[Any], Any]],
) -> Callable[[Any], dict[str, Any]]:
    """A level writer for an extendable ``level``: ``base`` writes the set fields (keys
    in ``tags``, in number order), the extensions set on the object are merged in by
    number, and ``defaults`` (``always_print_fields_with_no_presence``) follow."""

    def write(obj: Any) -> dict[str, Any]:
        out = base(obj)
        found = []
        for ext in present(obj, level, model):
            value = ext.read(obj, model)
            if value is None or (ext.info.repeated and not value):
                continue
            held = writer_for(ext.info.holder)(ext.info.holder(value))
            found.append((ext.number, f"[{ext.full_name}]", held["value"]))
        if found:
            merged: dict[str, Any] = {}
            pending = iter(found)
            nxt = next(pending, None)
            for key, v in out.items():
                while nxt is not None and nxt[0] < tags[key]:
                    merged[nxt[1]] = nxt[2]
                    nxt = next(pending, None)
                merged[key] = v
            while nxt is not None:
                merged[nxt[1]] = nxt[2]
                nxt = next(pending, None)
            out = merged
        for key, printed in defaults:
            if key not in out:
                out[key] = printed
        return out

    return write


def store(obj: Any, read: list[tuple[Extension[Any, Any], Any]], model: CodecModel) -> None:
    """Give the newly built ``obj`` the extension values read from its object."""
    for ext, value in read:
        ext.write(obj, ext.encode(value, model), model)
