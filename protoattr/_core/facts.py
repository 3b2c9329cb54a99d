"""Facts the backends derive from a resolved contract alone, worked out once per contract.

Planning a contract asks questions whose answers depend on its class and its
:class:`~protoattr._core.contract.ContractInfo`, not on the model planning it: whether
its dataclass ``__init__`` is plain assignment, whether its instances' fields may be read
from ``__dict__``.  Each took 2-16 µs, and every model that planned the contract paid it
again (a program with a model per configuration, a test suite with a model per test).
:func:`contract_fact` keeps each answer with the class, next to the ``ContractInfo`` it
was worked out for: a class declared again, or resolved at another compatibility level,
has another ``ContractInfo`` and gets its answer worked out anew.

Declared contract classes live as long as the process (the contract registry keeps
them), so the answers are kept in a plain dict by class, which keeps nothing alive that
was not already, and costs a dict lookup a question (a ``WeakKeyDictionary``, whose
methods are Python, added 2M instructions to the start-up of 200 contracts).  A class
changed after its first use (an attribute made a property) is not looked at again, as a
model's plans never looked at it again either: declaring it again is what makes it new.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .contract import ContractInfo

__all__ = ["contract_fact"]

T = TypeVar("T")


def contract_fact(fn: Callable[[ContractInfo], T]) -> Callable[[ContractInfo], T]:
    """``fn(info)``, worked out on the first call for ``info`` and then returned as kept.

    ``fn`` must depend on ``info`` and its class alone.  Callers hold the declarations
    lock (planning does), so two threads do not work out the same answer at once; if
    they did, both would get the same answer."""
    known: dict[type, tuple[ContractInfo, T]] = {}

    @functools.wraps(fn)
    def fact(info: ContractInfo) -> T:
        kept = known.get(info.cls)
        if kept is not None and kept[0] is info:
            return kept[1]
        answer = fn(info)
        known[info.cls] = (info, answer)
        return answer

    return fact
