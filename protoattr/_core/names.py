"""Protobuf full names (``package.Name``) of contracts, and the look-up by full name.

A contract's package is ``proto_contract(package=...)`` or, when that is not
given, the ``__protobuf_package__`` string of the module the class is declared
in.  ``Any`` type URLs, canonical JSON and schema export need the full name, and
``Any.unpack`` needs the way back, from a name to a class: that is the registry
kept here.

Two live classes may not claim one packaged full name (a :class:`ContractError`
when the second is declared).  Without a package, contracts keep the
forgiving behaviour they always had (test modules and scripts declare many a
``Point``): the clash is reported when something looks the name up.
"""

from __future__ import annotations

import re
import sys
import threading
import weakref
from typing import Any

from .errors import ContractError

__all__ = ["claim", "full_name", "lookup", "package_of"]

_PACKAGE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

#: full name -> the classes claiming it (weakly: a class that dies gives its name up)
_CLAIMS: dict[str, list[weakref.ref[type]]] = {}
_LOCK = threading.Lock()


def package_of(cls: type, explicit: str | None) -> str | None:
    """The package of ``cls``: ``explicit``, else its module's ``__protobuf_package__``."""
    where = f"{cls.__qualname__}: package"
    package: Any = explicit
    if package is None:
        module = sys.modules.get(cls.__module__)
        package = getattr(module, "__protobuf_package__", None)
        where = f"{cls.__module__}.__protobuf_package__"
    if package is None or package == "":
        return None
    if not isinstance(package, str) or not _PACKAGE.fullmatch(package):
        raise ContractError(f"{where} {package!r} is not a dotted protobuf name like 'shop.v1'")
    return package


def full_name(name: str, package: str | None) -> str:
    return f"{package}.{name}" if package else name


def claim(cls: type, options: Any) -> None:
    """Record that ``cls`` answers to its full name; a packaged name is claimed once.

    Checks the package first (a bad ``package=`` or ``__protobuf_package__`` is a
    :class:`ContractError` here, when the class is declared).
    """
    package = package_of(cls, options.package)
    name = full_name(options.name or cls.__name__, package)
    with _LOCK:
        refs = [r for r in _CLAIMS.get(name, []) if r() is not None and r() is not cls]
        if package is not None:
            for ref in refs:
                other = ref()
                if other is not None and not _same_declaration(other, cls):
                    raise ContractError(
                        f"{cls.__qualname__}: the full name {name!r} is already taken by "
                        f"{other.__module__}.{other.__qualname__}: give one of them another "
                        "name= or package="
                    )
        # a class declared again (a reloaded module, a re-run function) replaces itself
        refs = [r for r in refs if not _same_declaration(r(), cls)]  # type: ignore[arg-type]
        refs.append(weakref.ref(cls))
        _CLAIMS[name] = refs


def _same_declaration(a: type, b: type) -> bool:
    return a.__module__ == b.__module__ and a.__qualname__ == b.__qualname__


def lookup(name: str) -> list[type]:
    """The live classes claiming ``name`` (oldest first)."""
    with _LOCK:
        found = [r() for r in _CLAIMS.get(name, [])]
    return [c for c in found if c is not None]
