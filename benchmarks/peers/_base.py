"""What the peers built on another library's message classes share.

Every such peer converts between the workload's dataclasses and its library's
messages, and its codecs are ``to_bytes(to_msg(obj))`` and
``from_msg(parse(data))``.  The conversions are where the peers repeated each
other: reading the same fields off one object to build the other, in the same
order.  :func:`objects` and :func:`getter` do that with ``operator.attrgetter``
(C code, no Python frame per record), so no peer pays for a helper that another
does not, and the baselines stay as strong as the hand-written loops they replace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from operator import attrgetter
from typing import Any

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]

# The twin boilers.proto names its fields in PascalCase; in ``Boiler``'s order.
BOILER_PROTO_FIELDS = (
    *("BoilerId", "TableNumber", "TableName", "BoilerData"),
    *("BrandName", "Qualifier", "ModelName"),
)


def names(cls: type) -> tuple[str, ...]:
    """The dataclass's field names, in declaration (and constructor) order."""
    return tuple(f.name for f in fields(cls))


def getter(attrs: Iterable[str]) -> Callable[[Any], tuple[Any, ...]]:
    """``src -> (src.a, src.b, ...)``, for ``cls(*get(src))`` (no Python frame of its own,
    so a one-message codec pays nothing for it)."""
    return attrgetter(*attrs)


def objects(cls: Callable[..., Any], attrs: Iterable[str]) -> Callable[[Iterable[Any]], list[Any]]:
    """``srcs -> [cls(src.a, src.b, ...) for src in srcs]``: ``attrs`` in ``cls``'s order."""
    get = attrgetter(*attrs)
    return lambda srcs: [cls(*t) for t in map(get, srcs)]


def codec(
    to_msg: Callable[[Any], Any],
    to_bytes: Callable[[Any], bytes],
    parse: Callable[[bytes], Any],
    from_msg: Callable[[Any], Any],
) -> Codec:
    """``(encode, decode)``: dataclass -> message -> bytes, and bytes -> message -> dataclass."""

    def encode(obj: Any) -> bytes:
        return to_bytes(to_msg(obj))

    def decode(data: bytes) -> Any:
        return from_msg(parse(data))

    return encode, decode
