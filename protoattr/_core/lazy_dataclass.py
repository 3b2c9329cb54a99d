"""Dataclasses whose methods are made when their first instance is.

On Python 3.11 ``@dataclasses.dataclass`` compiles each generated method from source
(``__init__``, ``__repr__``, ``__eq__``, and for frozen classes ``__hash__``,
``__setattr__``, ``__delattr__``): about a millisecond a class, and the contract layer
has five.  ``import protoattr`` does not need them yet; the first declaration does.

:func:`dataclass` leaves the class as written, with a stand-in ``__init__``: the first
call of it makes the class a dataclass in place (``dataclasses.dataclass`` without
``slots`` returns the class it was given), exactly as the decorator would have, and then
runs the real ``__init__``.  Every instance is therefore an instance of a finished
dataclass (``dataclasses.replace``, ``fields``, ``==``, ``repr`` and ``hash`` as usual);
only the class itself, before its first instance, is not one yet
(:func:`built` tells).  Type checkers see ``dataclasses.dataclass`` itself (see the
importing modules).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["build", "built", "dataclass"]

_T = TypeVar("_T", bound=type)
_LOCK = threading.Lock()
#: the pending classes and the ``dataclasses.dataclass`` options each was given
_PENDING: dict[type, dict[str, Any]] = {}


def dataclass(**options: Any) -> Callable[[_T], _T]:
    """``@dataclasses.dataclass(**options)``, applied when the first instance is made."""

    def wrap(cls: _T) -> _T:
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            build(cls)
            vars(cls)["__init__"](self, *args, **kwargs)  # the dataclass's own, now

        __init__.__qualname__ = f"{cls.__qualname__}.__init__"
        type.__setattr__(cls, "__init__", __init__)
        _PENDING[cls] = options
        return cls

    return wrap


def build(cls: type) -> None:
    """Make ``cls`` the dataclass it was declared to be (once; any thread)."""
    with _LOCK:
        options = _PENDING.pop(cls, None)
        if options is None:
            return  # built already
        type.__delattr__(cls, "__init__")  # (the decorator keeps an __init__ it finds)
        dataclasses.dataclass(cls, **options)


def built(cls: type) -> bool:
    """Whether ``cls`` has been made a dataclass yet."""
    return cls not in _PENDING
