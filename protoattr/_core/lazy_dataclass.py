"""Dataclasses whose methods are made when their first instance is.

On Python 3.11 ``@dataclasses.dataclass`` compiles each generated method from source
(``__init__``, ``__repr__``, ``__eq__``, and for frozen classes ``__hash__``,
``__setattr__``, ``__delattr__``): about a millisecond a class, and the contract layer
has five.  ``import protoattr`` does not need them yet; the first declaration does.

:func:`dataclass` leaves the class as written, with a stand-in ``__new__``: the first
call of it makes the class a dataclass in place (``dataclasses.dataclass`` without
``slots`` returns the class it was given), exactly as the decorator would have, and then
makes the instance, which ``type.__call__`` initialises with the generated ``__init__``.
The gate is ``__new__`` rather than ``__init__`` because the decorator keeps an
``__init__`` it finds: an ``__init__`` gate would have to be removed before the decorator
runs, and a thread making an instance in that window would get ``object.__init__``.  No
instance exists before its class is finished: the gate builds (under a lock that other
threads' gates wait on) before it makes the instance.  CPython cannot give a class
object's own allocator back once it had a ``__new__`` (deleting the attribute leaves the
slot calling ``__new__`` by name), so the gate is then replaced by a plain one
(:func:`_made`): one Python call per instance, 6.6M instructions over the 200 contracts
of ``benchmarks/cold_start.py`` (callgrind), against the 21M that building the five
classes at import cost.  Every instance is therefore an instance of a finished
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
        if "__new__" in vars(cls) or "__init__" in vars(cls):
            raise TypeError(f"{cls.__qualname__}: a lazy dataclass defines no __new__/__init__")

        def __new__(kind: type, /, *args: Any, **kwargs: Any) -> Any:
            if cls in _PENDING:
                build(cls)
            return object.__new__(kind)  # type.__call__ then runs the generated __init__

        __new__.__qualname__ = f"{cls.__qualname__}.__new__"
        type.__setattr__(cls, "__new__", staticmethod(__new__))
        _PENDING[cls] = options
        return cls

    return wrap


def _made(kind: type, /, *args: Any, **kwargs: Any) -> Any:
    """A built lazy dataclass's ``__new__``: ``object.__new__``, which cannot be given
    back (see the module's docstring)."""
    return object.__new__(kind)


def build(cls: type) -> None:
    """Make ``cls`` the dataclass it was declared to be (once; any thread).  ``cls``
    leaves the pending table last, so a gate that finds it gone finds it finished."""
    with _LOCK:
        options = _PENDING.get(cls)
        if options is None:
            return  # built already
        dataclasses.dataclass(cls, **options)
        type.__setattr__(cls, "__new__", staticmethod(_made))
        del _PENDING[cls]


def built(cls: type) -> bool:
    """Whether ``cls`` has been made a dataclass yet."""
    return cls not in _PENDING
