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

Nesting: a contract or enum class defined in the body of a contract class is
nested in protobuf too (``shop.v1.Order.Line``).  Python runs the inner
decorator first, when the outer class does not exist yet, so a class whose
``__qualname__`` says it sits in a class body is claimed without the clash
check, under its flat name, until its enclosing class is declared a contract:
then it is linked to that class and claimed again under its nested name.  A
dotted ``name=`` (``proto_contract(name="Order.Line")``) is the whole name
inside the package, for a class declared anywhere.
"""

from __future__ import annotations

import _thread  # threading.Lock, without importing threading
import enum
import itertools
import re
import sys
import weakref
from typing import Any

from .errors import ContractError

__all__ = [
    "claim",
    "full_name",
    "full_name_of",
    "is_dotted_name",
    "lookup",
    "nested_classes",
    "nested_in",
    "package_of",
    "scoped_name",
]

#: a dotted protobuf name (compiled by ``re``'s own cache on first use: compiling it at
#: import was 0.3 ms of ``import protoattr``, for the programs that name a package)
_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*"


def is_dotted_name(text: str) -> bool:
    """Whether ``text`` is a dotted protobuf name (``shop.v1``, ``shop.v1.priority``)."""
    return re.fullmatch(_DOTTED, text) is not None


#: full name -> the classes claiming it (weakly: a class that dies gives its name up)
_CLAIMS: dict[str, list[weakref.ref[type]]] = {}
_LOCK = _thread.allocate_lock()
#: nested class -> the contract class whose body declares it, and the way back
_PARENT: weakref.WeakKeyDictionary[type, type] = weakref.WeakKeyDictionary()
_NESTED: weakref.WeakKeyDictionary[type, list[type]] = weakref.WeakKeyDictionary()
#: contract class -> the full name it is claimed under now
_CLAIMED_AS: weakref.WeakKeyDictionary[type, str] = weakref.WeakKeyDictionary()
#: contract class -> ``(name=, package=)`` as declared
_OWN: weakref.WeakKeyDictionary[type, tuple[str | None, str | None]] = weakref.WeakKeyDictionary()


def package_of(cls: type, explicit: str | None) -> str | None:
    """The package of ``cls``: ``explicit``, else its module's ``__protobuf_package__``."""
    package: Any = explicit
    if package is None:
        module = sys.modules.get(cls.__module__)
        package = getattr(module, "__protobuf_package__", None)
    if package is None or package == "":
        return None
    if not isinstance(package, str) or not is_dotted_name(package):
        where = (
            f"{cls.__qualname__}: package"
            if explicit is not None
            else f"{cls.__module__}.__protobuf_package__"
        )
        raise ContractError(f"{where} {package!r} is not a dotted protobuf name like 'shop.v1'")
    return package


def full_name(name: str, package: str | None) -> str:
    return f"{package}.{name}" if package else name


def scoped_name(cls: type, name: str | None = None) -> str:
    """``cls``'s name inside its package: ``Order.Line`` for a class nested in ``Order``.

    A dotted ``name=`` is taken as it is; an undotted one (or the class name) is
    prefixed by the enclosing contract's scoped name.  ``name`` is the class's own
    ``name=`` (by default the one it was claimed with).
    """
    own = name or _OWN.get(cls, (None, None))[0] or cls.__name__
    if "." in own:
        return own
    parent = _PARENT.get(cls)
    return f"{scoped_name(parent)}.{own}" if parent is not None else own


def nested_classes(parent: type) -> list[type]:
    """The contract and enum classes declared in ``parent``'s body, in order."""
    return list(_NESTED.get(parent, []))


def nested_in(cls: type) -> type | None:
    """The contract class whose body declares ``cls`` (``None`` for a top-level class)."""
    return _PARENT.get(cls)


def package_of_class(cls: type, explicit: str | None = None) -> str | None:
    """The package of a contract or enum class (``explicit``: its own ``package=``, by
    default the one it was claimed with); a nested class has its outermost's."""
    parent = _PARENT.get(cls)
    if parent is not None:
        return package_of_class(parent)
    return package_of(cls, explicit or _OWN.get(cls, (None, None))[1])


def full_name_of(cls: type) -> str:
    """``package.Scoped.Name`` of a contract or enum class."""
    return full_name(scoped_name(cls), package_of_class(cls))


def _in_class_body(cls: type) -> bool:
    """Whether ``cls``'s qualified name says a class body declares it (``Order.Line``,
    not ``f.<locals>.Line``)."""
    parts = cls.__qualname__.split(".")
    return len(parts) > 1 and parts[-2] != "<locals>"


def claim(cls: type, options: Any) -> None:
    """Record that ``cls`` answers to its full name; a packaged name is claimed once.

    Checks the package first (a bad ``package=`` or ``__protobuf_package__`` is a
    :class:`ContractError` here, when the class is declared).  A class in a class
    body is claimed leniently until its enclosing class is (see the module docstring).
    """
    package = package_of(cls, options.package)
    with _LOCK:
        _OWN[cls] = (options.name, options.package)
    _link_nested(cls)
    parent = _PARENT.get(cls)
    if parent is None and not _in_class_body(cls):  # a top-level class (most): its name is
        own = options.name or cls.__name__  # its own, in its own package (see scoped_name)
        _claim(cls, strict=True, known=(package, full_name(own, package)))
        _claim_tree(cls)
    elif parent is not None:
        _claim(cls, strict=True)
        _claim_tree(cls)
    else:  # its enclosing class is not declared yet
        _claim(cls, strict=False)


def _link_nested(parent: type) -> None:
    """Link the contract and enum classes declared in ``parent``'s body to it."""
    namespace = vars(parent)
    if not any(map(isinstance, namespace.values(), itertools.repeat(type))):
        return  # no class in its body (most): asked without a Python loop over it
    found = [
        c
        for key, c in namespace.items()
        if isinstance(c, type)
        and c.__qualname__ == f"{parent.__qualname__}.{key}"
        and (c in _OWN or issubclass(c, enum.Enum))
    ]
    if not found:
        return
    with _LOCK:
        for c in found:
            _PARENT[c] = parent
        _NESTED[parent] = found


def _claim_tree(parent: type) -> None:
    for c in _NESTED.get(parent, []):
        if c in _OWN:
            own = _OWN[c][1]
            if own is not None and own != package_of_class(parent):
                raise ContractError(
                    f"{c.__qualname__}: package={own!r}, but a nested message is in its "
                    f"outer message's package ({package_of_class(parent)!r}): leave it out"
                )
            _claim(c, strict=True)
            _claim_tree(c)


def _claim(cls: type, *, strict: bool, known: tuple[str | None, str] | None = None) -> None:
    """Claim ``cls``'s full name; ``known``: its package and full name, when the caller has
    them already (a top-level class)."""
    if known is None:
        package = package_of_class(cls)
        name = full_name(scoped_name(cls), package)
    else:
        package, name = known
    with _LOCK:
        old = _CLAIMED_AS.get(cls)
        if old is not None and old != name:  # a lenient claim under its flat name
            _CLAIMS[old] = [r for r in _CLAIMS.get(old, []) if r() is not cls]
        refs = [r for r in _CLAIMS.get(name, []) if r() is not None and r() is not cls]
        if package is not None and strict:
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
        _CLAIMED_AS[cls] = name


def _same_declaration(a: type, b: type) -> bool:
    return a.__module__ == b.__module__ and a.__qualname__ == b.__qualname__


def lookup(name: str) -> list[type]:
    """The live classes claiming ``name`` (oldest first)."""
    with _LOCK:
        found = [r() for r in _CLAIMS.get(name, [])]
    return [c for c in found if c is not None]
