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

__all__ = ["FromJson", "JsonContext", "ToJson", "form_for", "register"]


class JsonContext(Protocol):
    """What a special form may ask of the JSON codec that called it."""

    #: the TypeModel doing the conversion (for ``Any``'s full-name look-up)
    model: Any

    def message_to_json(self, obj: object) -> Any:
        """The JSON value of ``obj`` (a contract instance), with the call's options."""
        ...

    def message_from_json(self, cls: type, value: Any, path: str) -> Any:
        """An instance of contract ``cls`` read from the JSON ``value`` found at ``path``."""
        ...


#: ``(value, ctx) -> JSON value`` (dict, list, str, int, float, bool or None)
ToJson = Callable[[Any, JsonContext], Any]
#: ``(JSON value, path, ctx) -> value``; raises ``DecodeError`` whose message starts with path
FromJson = Callable[[Any, str, JsonContext], Any]

_FORMS: dict[type, tuple[ToJson, FromJson]] = {}
_LOCK = threading.Lock()


def register(cls: type, to_json: ToJson, from_json: FromJson) -> None:
    """Give values of ``cls`` a special JSON form (the last registration wins)."""
    with _LOCK:
        _FORMS[cls] = (to_json, from_json)


def form_for(cls: type | None) -> tuple[ToJson, FromJson] | None:
    """The special form registered for ``cls``, or ``None`` for the ordinary mapping."""
    if cls is None:
        return None
    return _FORMS.get(cls)
