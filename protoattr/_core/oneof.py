"""Which member of a oneof is set: ``pa.which_oneof(event, "payload")``.

A oneof's members are ``Optional`` fields sharing a ``oneof=`` name, so the member
that is set is the one that is not ``None`` (docs/oneof.md).  This answers from the
resolved contract, the same for every backend and model.
"""

from __future__ import annotations

from typing import Any

from .contract import resolve

__all__ = ["which_oneof"]


def which_oneof(obj: Any, oneof: str, /) -> str | None:
    """The Python name of the member of ``oneof`` that is set in ``obj``, or ``None``.

    ``ValueError`` when the contract has no such oneof, or when more than one of its
    members is set (which the encoder would refuse too).
    """
    cls = obj.__class__
    info = resolve(cls, final=True)
    members = [f.name for f in info.fields if f.oneof == oneof]
    if not members:
        known = sorted({f.oneof for f in info.fields if f.oneof is not None})
        raise ValueError(
            f"{cls.__qualname__} has no oneof {oneof!r}"
            + (f" (its oneofs: {', '.join(known)})" if known else " (it has no oneof)")
        )
    found = [name for name in members if getattr(obj, name) is not None]
    if len(found) > 1:
        raise ValueError(
            f"{cls.__qualname__}: more than one member of oneof {oneof!r} is set: "
            + ", ".join(found)
        )
    return found[0] if found else None
