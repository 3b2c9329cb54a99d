"""The live type models, as the contract layer sees them.

Declaring a contract has to reach the models: the default model learns every
decorated class, and a subtype declared late must reset the codecs built from
its base's hierarchy in every model.  The contract layer sits below the
models, so it cannot import them; instead each model registers here when it
is created, and declarations call it back through :class:`Model`, the little
the contract layer needs of one.  That keeps every import pointing down
(contract layer → backends → model → features).
"""

from __future__ import annotations

import weakref
from typing import Any, Protocol

__all__ = ["Model", "add_to_default", "default", "models", "register", "set_default"]


class Model(Protocol):
    """What declarations call on a model."""

    def add(self, cls: type) -> None: ...

    def _hierarchy_changed(self, base: type) -> None: ...


#: every live model, by a weak reference that takes itself out when its model goes away
#: (not a WeakSet: see models())
_MODELS: dict[weakref.ref[Any], None] = {}
_DEFAULT: list[Any] = []
#: classes declared before the default model exists (protoattr's own, while it imports)
_PENDING: list[type] = []


def register(model: Model) -> None:
    """Called by each model as it is created (under the declarations lock)."""
    _MODELS[weakref.ref(model, _forget)] = None


def _forget(ref: weakref.ref[Any]) -> None:
    _MODELS.pop(ref, None)


def models() -> list[Model]:
    """The live models, as a list.

    ``list()`` of the dict of references is one C-level step that no other thread's
    removal can interrupt.  Iterating a WeakSet was not: its removal callback checks
    whether the set is being iterated and then discards, and an iteration that starts in
    between raised "Set changed size during iteration" (seen on 3.10 in
    tests/test_threads.py, a model collected while a subtype was declared)."""
    refs = list(_MODELS)
    return [m for m in (r() for r in refs) if m is not None]


def set_default(model: Model) -> None:
    """Make ``model`` the one every decorated class is added to."""
    _DEFAULT[:] = [model]
    pending, _PENDING[:] = list(_PENDING), []
    for cls in pending:
        model.add(cls)


def add_to_default(cls: type) -> None:
    """Add a newly decorated class to the default model (or keep it until there is one)."""
    if _DEFAULT:
        _DEFAULT[0].add(cls)
    else:
        _PENDING.append(cls)


def default() -> Any:
    """The default model (``protoattr.default_model``), set when protoattr is imported."""
    return _DEFAULT[0]
