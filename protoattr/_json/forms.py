"""Where the well-known types plug their special canonical-JSON forms in.

The canonical proto3 JSON mapping gives a handful of message types a form of
their own (``Any`` as ``{"@type": ..., ...}``, ``Struct`` as a JSON object,
wrappers as bare values, ``FieldMask`` as ``"a.b,cD"``, ``Timestamp`` as an
RFC 3339 string ...).  The JSON codec does not know those types; each one
registers a pair of functions here, keyed by the Python type a field holds
(``ValueType.domain`` when set, else ``ValueType.py_type``).  Keeping the
registry in a module of its own lets the JSON codec and the well-known types
depend on it without depending on each other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

__all__ = [
    "FromJson", "JsonContext", "NestedFromJson", "ToJson", "form_for", "nested_form_for",
    "register",
]  # fmt: skip


class JsonContext(Protocol):
    """What a special form may ask of the JSON codec that called it."""

    #: the TypeModel doing the conversion (for ``Any``'s full-name look-up)
    model: Any
    #: whether the call reads with ``ignore_unknown_fields=True``
    ignore_unknown: bool

    def message_to_json(self, obj: object) -> Any:
        """The JSON value of ``obj`` (a contract instance), with the call's options."""
        ...

    def message_from_json(self, cls: type, value: Any, path: str, depth: int = 0) -> Any:
        """An instance of contract ``cls`` read from the JSON ``value`` found at ``path``,
        as a message nested ``depth`` levels deep (which counts towards the model's
        ``max_depth``)."""
        ...


#: ``(value, ctx) -> JSON value`` (dict, list, str, int, float, bool or None)
ToJson = Callable[[Any, JsonContext], Any]
#: ``(JSON value, path, ctx) -> value``; raises ``DecodeError`` whose message starts with path
FromJson = Callable[[Any, str, JsonContext], Any]
#: ``(JSON value, path, ctx, depth) -> value``: a form holding messages of its own
#: (``Value``, ``Struct``, ``ListValue``, ``Any``), read as a message ``depth`` levels deep
NestedFromJson = Callable[[Any, str, JsonContext, int], Any]

_FORMS: dict[type, tuple[ToJson, FromJson]] = {}
_NESTED: dict[type, NestedFromJson] = {}
_LOCK = threading.Lock()


def register(
    cls: type, to_json: ToJson, from_json: FromJson, *, nested: NestedFromJson | None = None
) -> None:
    """Give values of ``cls`` a special JSON form (the last registration wins).

    ``nested`` is how the codec reads a form that holds messages, so that their
    nesting counts towards ``max_depth`` as the binary codec counts it.
    """
    with _LOCK:
        _FORMS[cls] = (to_json, from_json)
        if nested is None:
            _NESTED.pop(cls, None)
        else:
            _NESTED[cls] = nested


def form_for(cls: type | None) -> tuple[ToJson, FromJson] | None:
    """The special form registered for ``cls``, or ``None`` for the ordinary mapping."""
    if cls is None:
        return None
    return _FORMS.get(cls)


def nested_form_for(cls: type | None) -> NestedFromJson | None:
    """The depth-counting reader registered for ``cls``, or ``None``."""
    if cls is None:
        return None
    return _NESTED.get(cls)
