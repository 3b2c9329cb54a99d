"""Names a module gives from another module, imported when first asked for.

A module whose helpers need a heavy import (``datetime`` for the time helpers) keeps
them in a module of their own and gives them through :func:`forwarder`, its module
``__getattr__`` (PEP 562): ``import protoattr`` then imports neither, and a program
that reaches for one (a contract holding a datetime) loads both once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["forwarder"]


def forwarder(namespace: dict[str, Any], names: Iterable[str], module: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the module whose globals are ``namespace``: each of
    ``names`` is ``module``'s, imported on first use and kept in ``namespace`` (found
    directly from then on); any other name is an ``AttributeError``, as usual."""
    given = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name not in given:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
